#pragma once

#include "core/runtime/npyio.h"

#include <QByteArray>
#include <QFile>
#include <QList>
#include <QString>
#include <QTemporaryDir>
#include <filesystem>

/// Reading, writing and altering Paddle run logs and bundles in the run-log tests.

inline QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// Writes `bytes` to `name` in `dir`; the path, or "" when it cannot be written.
inline QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    QFile f(dir.filePath(name));
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(bytes);
    return f.fileName();
}

/// The log with `stat=` of 1-based line `line` multiplied by `factor` (a 0 becomes 1).
inline QByteArray alterRecord(const QByteArray &log, int line, const QByteArray &stat, double factor)
{
    QList<QByteArray> lines = log.split('\n');
    QByteArray &l = lines[line - 1];
    const qsizetype at = l.indexOf(", " + stat + "=") + stat.size() + 3;
    qsizetype end = l.indexOf(',', at);
    if (end < 0)
        end = l.size();
    const double v = l.mid(at, end - at).toDouble();
    l = l.left(at) + QByteArray::number(v * factor + (v == 0 ? 1 : 0), 'e', 6) + l.mid(end);
    return lines.join('\n');
}

/// A copy of the bundle at `bundle` in `dir` with element 0 of `file` (relative, float32 .npy)
/// increased by `delta`; "" when it cannot be made.
inline QString alteredBundleCopy(
    const QTemporaryDir &dir, const QString &bundle, const std::string &file, float delta)
{
    const std::filesystem::path source = bundle.toStdString();
    const std::filesystem::path copy = std::filesystem::path(dir.path().toStdString()) / source.filename();
    std::error_code ec;
    std::filesystem::copy(source, copy, std::filesystem::copy_options::recursive, ec);
    std::string error;
    ps::Tensor t = ps::NpyIO::read((copy / file).string(), error);
    if (ec || !t.defined())
        return {};
    t.data<float>()[0] += delta;
    if (!ps::NpyIO::write((copy / file).string(), t, error))
        return {};
    return QString::fromStdString(copy.string());
}
