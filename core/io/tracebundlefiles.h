#pragma once

namespace ps {

class DiagnosticList;
class TraceBundle;

/// Checks a trace bundle's manifest against its `.npy` files, reading only their headers
/// (NpyHeader, through InputFile): every input's and parameter's `file` is where the runner reads
/// it (`inputs/<name>.npy`, `params/<name>.npy`) and exists; each referenced file (inputs,
/// parameters, their gradients, outputs, output gradients) is a well-formed .npy whose dtype and
/// shape are the manifest's. Errors are at the manifest's JSON path (`inputs[0].shape`) and name
/// the file; a missing reference file (Paddle's outputs or gradients) is a warning, a missing
/// input or parameter an error. Every path the manifest names (files, gradients, output
/// gradients, intermediates, `files`) must lie inside the bundle: an absolute path, a `..`
/// component or a symlink that resolves outside the folder is an error at its JSON path
/// (`outputs[0].file`, `backward.output_grads.0`) naming the file, and nothing outside is read.
class TraceBundleFiles
{
public:
    /// False when an error was added.
    static bool check(const TraceBundle &bundle, DiagnosticList &diagnostics);
};

} // namespace ps
