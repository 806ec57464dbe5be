#pragma once

#include "core/session/pipelinesource.h"

#include <QString>
#include <memory>

namespace ps {

/// The GUI's way to core/session's PipelineSource::open: it also reads ":/" Qt resources (the
/// bundled example), which the core cannot.
class ProgramOpener
{
public:
    /// classifyPath for a file on disk; a ":/" resource is a program file.
    static PathKind kindOf(const QString &path);
    /// A trace bundle, a program file or a ":/" resource, as `kind` (kindOf) says; null with the
    /// problems in `diagnostics`.
    static std::shared_ptr<const PipelineSource> open(
        const QString &path, PathKind kind, DiagnosticList &diagnostics);
};

} // namespace ps
