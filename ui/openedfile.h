#pragma once

#include "core/ir/diagnostic.h"

#include <QString>
#include <memory>

namespace ps {

class PassTimeline;
class ProgramDocument;
struct PipelineSource;

/// What reading a path gave (FileLoader, off the UI thread): the program's source and its
/// document, or the problems that kept it from opening. A Paddle pass log or a folder of per-pass
/// dumps also brings its timeline.
struct OpenedFile
{
    QString path;
    DiagnosticList diagnostics;
    /// Null when the path did not open; the problems are in `diagnostics`.
    std::shared_ptr<const PipelineSource> source;
    /// Of `source`; null with it.
    std::shared_ptr<const ProgramDocument> document;
    /// The timeline of a pass log or dump folder; null for a program or a trace bundle.
    std::shared_ptr<const PassTimeline> passLog;
    /// The path is a Paddle run log (PathKind::RunLog): not read here, it is checked against the
    /// program already open (MainWindowRunLog).
    bool runLog = false;
};

} // namespace ps
