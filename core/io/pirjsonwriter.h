#pragma once

#include <optional>
#include <string>

namespace ps {

class Program;

/// Writes a Program as Paddle's PIR JSON, the way Paddle's `ProgramWriter` does: sorted keys,
/// global `region_<n>` / `block_<n>` counters, result ids 1, 2, ... in write order (an op's
/// results before its regions), block arguments and kwargs -1, -2, ..., `"#":"p"` compression
/// of `builtin.parameter`, `OA` (stop_gradient / persistable) only when the program is
/// trainable, dialect-compressed op names (`1.conv2d`), and NaN/Inf floats as `"VD"`.
///
/// Unlike Paddle it keeps every attribute (Paddle drops non-YAML attributes of pd_op ops and
/// `op_callstack` of others; this writer drops only `op_callstack`), writes kwargs with their
/// `"key"` (Paddle writes the positional list there by mistake) and never deletes
/// `cf.stack_create`. Types and attributes that were read as unknown are re-emitted from their
/// stored JSON. For programs read without upgrades, the compact output of the real samples
/// is byte-identical to the file. O(size of the output).
class PirJsonWriter
{
public:
    struct Options
    {
        /// Pretty output (nlohmann `dump(4)` layout) instead of one line.
        bool pretty = false;
        /// `base_code.version`; default: Program::serializationVersion, else 4 (Paddle 3.3).
        std::optional<int> version;
    };

    static constexpr int kDefaultVersion = 4;

    static std::string write(const Program &program);
    static std::string write(const Program &program, const Options &options);
};

} // namespace ps
