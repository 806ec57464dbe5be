#pragma once

#include "core/ir/oprange.h"
#include "core/ir/value.h"

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

class Block;
class Program;

/// The keys of split_program's attribute dict, in Paddle's order.
enum class SplitKey : unsigned char { Fx, Fp, Fm, Fo, Bx, Bp, Bm, BoG, BxG, BpG, NoNeedBuffers, Bo };
inline constexpr size_t kSplitKeyCount = 12;

/// "fx", "fp", ..., "bo_g", ..., "no_need_buffers", "bo".
std::string_view splitKeyName(SplitKey key);
std::optional<SplitKey> splitKeyFromName(std::string_view name);
/// All keys in Paddle's order.
const std::array<SplitKey, kSplitKeyCount> &allSplitKeys();
/// Keys whose values live in the forward program: fx fp fm fo and no_need_buffers.
bool isForwardKey(SplitKey key);

/// One list per split key.
template<class T> struct SplitLists
{
    std::array<std::vector<T>, kSplitKeyCount> lists;

    std::vector<T> &operator[](SplitKey key) { return lists[size_t(key)]; }
    const std::vector<T> &operator[](SplitKey key) const { return lists[size_t(key)]; }
    bool operator==(const SplitLists &) const = default;
};
using SplitValues = SplitLists<Value>;
using SplitNames = SplitLists<std::string>;

/// What split_program receives: the forward inputs, parameters and outputs, their gradients
/// (null values for missing ones) and the two op ranges of the whole program.
struct SplitRequest
{
    std::vector<Value> fx;
    std::vector<Value> fp;
    std::vector<Value> fo;
    std::vector<Value> fxGrad;
    std::vector<Value> fpGrad;
    std::vector<Value> foGrad;
    OpRange forwardRange;
    OpRange backwardRange;
};

/// What split_program returns. Attribute values belong to `forward` (fx fp fm fo
/// no_need_buffers) or `backward` (the b keys); null where Paddle gives a fake value.
struct SplitResult
{
    std::unique_ptr<Program> forward;
    std::unique_ptr<Program> backward;
    SplitValues attributes;
    /// The middle values in the whole program, forward op order (post-order into regions).
    std::vector<Value> middles;
    bool hasBackward = false;
    /// Inputs Paddle would reject (an output outside the forward clone, an operand defined
    /// outside its range, a duplicate kwarg name); empty for programs Paddle accepts.
    std::vector<std::string> diagnostics;
};

/// Paddle 3.3.1's `split_program` (`SplitForwardBackward` in paddle/fluid/pybind/pir.cc),
/// PADDLE_PIR.md §3.1: middle values, the forward clone (existing `builtin.shadow_output` ops
/// skipped) with `middle_<k>`/`output_<k>` shadow outputs, the backward program with keyword
/// arguments for fo, fx, fp, middles and fo_g, the backward clone with `input_grad_<k>`/
/// `param_grad_<k>` shadow outputs, and the 12 attribute lists. Names prefer the value's first
/// name in the forward program (TryGetValueFirstName); null values consume a counter index.
///
/// Differences from Paddle, none visible in the golden bundles: no_need_buffers is listed in
/// first-encounter order (Paddle's comes from an unordered_set); an operand defined outside a
/// cloned range becomes a null operand with a diagnostic (Paddle fails in IrMapping).
/// O(ops + values) plus the clones.
class SplitProgram
{
public:
    static SplitResult split(const Program &program, const SplitRequest &request);

    /// `AnalysisMiddleVariable`: results of forward-range ops (nested ops included, post-order)
    /// that the backward range uses (or that are fx_g/fp_g) and are not in fx ∪ fo ∪ fp.
    static std::vector<Value> middleValues(const Program &program, const SplitRequest &request);

    /// `GetNoNeedBufferValue` over the top-level ops of `range`: operands that no op of the range
    /// needs the buffer of, per the registry's `no_need_buffer` flags (ops without Paddle YAML
    /// info need all their operands; a needed `builtin.combine` result needs its operands).
    static std::vector<Value> noNeedBufferValues(const Block &block, OpRange range);

    /// Whether Paddle gives the op an OpYamlInfoInterface (generated and manual pd_op ops).
    static bool hasYamlInfo(std::string_view opName);

    /// Each value's first name, `fakeName` for null values and "" for unnamed ones (the newest
    /// `get_value_name`).
    static SplitNames valueNames(const SplitValues &values, std::string_view fakeName);
};

} // namespace ps
