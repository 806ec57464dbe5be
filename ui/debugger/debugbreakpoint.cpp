#include "ui/debugger/debugbreakpoint.h"

#include "core/ir/operation.h"

namespace ps {

QString DebugBreakpoint::description() const
{
    switch (kind) {
    case Kind::Op: {
        const QString name
            = op ? QString::fromUtf8(op->name().data(), qsizetype(op->name().size())) : QStringLiteral("op");
        return QStringLiteral("%1 at %2").arg(name, QString::fromStdString(position.toString()));
    }
    case Kind::NanInf:
        return QStringLiteral("NaN/Inf in any result");
    case Kind::NameRegex:
        break;
    }
    return QStringLiteral("value name ~ /%1/").arg(pattern);
}

} // namespace ps
