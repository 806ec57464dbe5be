#include "ui/debugger/debugsources.h"

#include <QFileInfo>

namespace ps {
namespace {

QString describe(DebugSources::Kind kind, const QString &path, quint64 seed)
{
    using Kind = DebugSources::Kind;
    switch (kind) {
    case Kind::Random:
        return QStringLiteral("random (seed %1)").arg(seed);
    case Kind::NpyDirectory:
        return QStringLiteral(".npy in %1/").arg(QFileInfo(path).fileName());
    case Kind::PdiparamsFile:
    case Kind::Image:
        return QFileInfo(path).fileName();
    default:
        break;
    }
    return DebugSources::kindText(kind);
}

} // namespace

QString DebugSources::kindText(Kind kind)
{
    switch (kind) {
    case Kind::Bundle:
        return QStringLiteral("bundle .npy");
    case Kind::Pdiparams:
        return QStringLiteral(".pdiparams next to the program");
    case Kind::Random:
        return QStringLiteral("random");
    case Kind::Zeros:
        return QStringLiteral("zeros");
    case Kind::Ones:
        return QStringLiteral("ones");
    case Kind::NpyDirectory:
        return QStringLiteral(".npy folder");
    case Kind::PdiparamsFile:
        return QStringLiteral(".pdiparams file");
    case Kind::Image:
        break;
    }
    return QStringLiteral("image file");
}

bool DebugSources::needsPath(Kind kind)
{
    return kind == Kind::NpyDirectory || kind == Kind::PdiparamsFile || kind == Kind::Image;
}

bool DebugSources::forInputs(Kind kind)
{
    return kind != Kind::Pdiparams && kind != Kind::PdiparamsFile;
}

bool DebugSources::forParams(Kind kind)
{
    return kind != Kind::Zeros && kind != Kind::Ones && kind != Kind::Image;
}

QString DebugSources::inputsText() const
{
    QString text = describe(inputs, inputsPath, seed);
    if (inputs == Kind::Image && !imageNetNormalization)
        text += QStringLiteral(" (not normalised)");
    return text;
}

QString DebugSources::paramsText() const
{
    if (params == Kind::Pdiparams)
        return QStringLiteral(".pdiparams");
    return describe(params, paramsPath, seed);
}

} // namespace ps
