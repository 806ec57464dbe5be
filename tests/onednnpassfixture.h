#pragma once

// The layout of tests/fixtures/onednn_passes (tools/make_onednn_pass_fixtures.py): one folder per
// case with manifest.json (each pass of Paddle's pipeline and whether it changed the program),
// input.txt and `N.pass_name.txt` after each pass N that changed it. Shared by
// tst_onednnpassfixtures and tst_onednnpassnumerics.

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

namespace onednnfixture {

inline const QString kDir = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/onednn_passes");

/// The manifest's passes: [name, "changed" | "unchanged", ...] each, in pipeline order.
inline QJsonArray passesOf(const QString &caseName)
{
    QFile f(kDir + "/" + caseName + "/manifest.json");
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object().value("passes").toArray();
}

/// The program's text file after pass `index` of the case (the last changed pass up to it; -1 and
/// no change before it: the input).
inline QString programAfter(const QString &caseName, int index)
{
    const QJsonArray passes = passesOf(caseName);
    for (int i = index; i >= 0; --i)
        if (passes[i].toArray()[1].toString() == "changed")
            return QString("%1/%2/%3.%4.txt")
                .arg(kDir, caseName)
                .arg(i)
                .arg(passes[i].toArray()[0].toString());
    return kDir + "/" + caseName + "/input.txt";
}

} // namespace onednnfixture
