#include "ui/debugger/debugsources.h"

namespace ps {

QString DebugSources::kindText(Kind kind)
{
    switch (kind) {
    case Kind::Bundle:
        return QStringLiteral("bundle .npy");
    case Kind::Pdiparams:
        return QStringLiteral(".pdiparams");
    case Kind::Random:
        break;
    }
    return QStringLiteral("random");
}

} // namespace ps
