#include "ui/displaytext.h"

#include "core/ir/pirtextformat.h"

#include <QRegularExpression>
#include <QStringList>

namespace ps {

QString DisplayText::type(Type type)
{
    return dynamicDims(QString::fromStdString(PirTextFormat::typeText(type, Generation::C)));
}

QString DisplayText::shape(const std::vector<int64_t> &dims)
{
    QStringList parts;
    for (int64_t d : dims)
        parts << (d < 0 ? QStringLiteral("?") : QString::number(d));
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

QString DisplayText::dynamicDims(QString printed)
{
    static const QRegularExpression dynamic(QStringLiteral("(^|[<x])-1(?=x)"));
    return printed.replace(dynamic, QStringLiteral("\\1?"));
}

} // namespace ps
