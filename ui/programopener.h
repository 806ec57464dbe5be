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
    /// A trace bundle, a program file or a ":/" resource; null with the problems in
    /// `diagnostics`.
    static std::shared_ptr<const PipelineSource> open(const QString &path, DiagnosticList &diagnostics);
};

} // namespace ps
