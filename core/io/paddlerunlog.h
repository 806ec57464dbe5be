#pragma once

#include "core/io/mappedfile.h"
#include "core/ir/diagnostic.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

/// The statistics a run log prints for one tensor (from a record, or computed from a tensor to
/// compare with one). With NaN or Inf present Paddle's max/min/mean are not comparable numbers.
struct RunLogStats
{
    int64_t numel = 0;
    int64_t numNan = 0;
    int64_t numInf = 0;
    int64_t numZero = 0;
    double max = 0;
    double min = 0;
    double mean = 0;
};

/// One `[PRECISION]` line of a Paddle run with `FLAGS_check_nan_inf=1
/// FLAGS_check_nan_inf_level=3` (or an `[ERROR]` line of a lower level): the statistics of one
/// op result as Paddle's interpreter computed them right after the op ran.
///
///   [PRECISION] in [device=cpu, op=matmul, tensor=middle_0, dtype=fp32], numel=48, num_zero=0,
///   max=2.14e+00, min=-1.95e+00, mean=1.30e-02
///   [PRECISION] [ERROR] in [device=gpu:0, op=divide, tensor=, dtype=fp32], numel=40, num_nan=0,
///   num_inf=4, num_zero=0, max=inf, min=1.048930e+00, mean=inf
///
/// The views point into the log's mapped files (PaddleRunLog::files keeps them alive).
struct PaddleRunLogRecord
{
    uint32_t file = 0; ///< index into PaddleRunLog::files
    int line = 0; ///< 1-based line in that file
    bool error = false; ///< `[PRECISION] [ERROR]`: the tensor holds NaN or Inf
    std::string_view device; ///< "cpu", "gpu:0"
    std::string_view op; ///< the kernel's name: "matmul", "add_", "relu_grad_"
    std::string_view tensor; ///< the variable: "middle_0", "<prefix>_inner_var_7", "" (eager ops)
    std::string_view dtype; ///< "fp32", "fp16", "bf16", "fp64", ...
    RunLogStats stats;

    /// The interpreter's prefix of an internal variable ("0x5569..._" part before `_inner_var_`),
    /// "" for named variables.
    std::string_view innerPrefix() const;
    /// N of `<prefix>_inner_var_N`: the variable's creation index in its interpreter's scope.
    std::optional<int64_t> innerIndex() const;
};

/// A Paddle run log, indexed once: every `[PRECISION]` record in the order Paddle printed it
/// (its execution order). Other lines (glog, Python, warnings) are skipped and counted; a
/// `[PRECISION]` line that cannot be read (cut off, a field missing) is an error naming
/// file:line:col, and the rest of the log is still read. O(bytes); the record strings are views
/// into the mapped file, so a 1 GB log costs its records (about 130 bytes each), not a copy.
class PaddleRunLog
{
public:
    /// A log file, or a folder that `paddle.base.core.set_nan_inf_debug_path` wrote (its
    /// `worker_*` files, in name order). Null with errors when nothing can be read.
    static std::shared_ptr<const PaddleRunLog> open(const std::string &path, DiagnosticList &diagnostics);
    /// The log in `file` (already mapped).
    static std::shared_ptr<const PaddleRunLog> fromFiles(
        std::string path, std::vector<std::shared_ptr<const MappedFile>> files);
    /// Whether the first 64 KiB of `head` hold a `[PRECISION]` record line (PathKind's sniff).
    static bool looksLikeRunLog(std::string_view head);
    /// A regular file whose first 64 KiB looksLikeRunLog, or a folder whose first `worker_*`
    /// file does. Reads at most 64 KiB; FIFOs and devices are not read.
    static bool looksLikeRunLogPath(const std::string &path);

    std::string path; ///< the file or folder given
    std::vector<std::shared_ptr<const MappedFile>> files;
    std::vector<PaddleRunLogRecord> records;
    DiagnosticList diagnostics; ///< unreadable records
    size_t bytes = 0;
    size_t lines = 0;
    size_t otherLines = 0; ///< lines that are not records

    /// "file:line" of a record.
    std::string where(const PaddleRunLogRecord &record) const;
};

} // namespace ps
