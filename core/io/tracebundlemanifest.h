#pragma once

#include <string>
#include <string_view>

namespace ps {

class DiagnosticList;
class TraceBundle;

/// Reads a trace bundle's manifest.json into a TraceBundle (simdjson DOM). Checks the type of
/// every field it reads; each problem is an error at the field's JSON path. Optional fields
/// (train_names, ranges, output_structure, parameters, files...) may be absent or null.
class TraceBundleManifest
{
public:
    /// False when the file cannot be read or parsed, or a field is malformed.
    static bool read(const std::string &file, TraceBundle &bundle, DiagnosticList &diagnostics);
    /// The same on manifest text already in memory (`file` names it in diagnostics).
    static bool parse(
        std::string_view json, const std::string &file, TraceBundle &bundle, DiagnosticList &diagnostics);
};

} // namespace ps
