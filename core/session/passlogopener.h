#pragma once

#include "core/io/passlogindex.h"

#include <memory>
#include <string>

namespace ps {

/// Indexes what opens as a pass timeline (PathKind::PassLog, PathKind::PassDumpFolder) for the
/// Passes tab and `pirscope-cli passlog`: any folder as per-pass dumps (PassDumpFolder), any
/// other path as a pass log (PaddlePassLog).
class PassLogOpener
{
public:
    /// Null with the reason in `diagnostics` when nothing can be read; warnings also land there.
    static std::shared_ptr<const PassLogIndex> index(const std::string &path, DiagnosticList &diagnostics);
};

} // namespace ps
