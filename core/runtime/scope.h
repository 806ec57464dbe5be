#pragma once

#include "core/runtime/runtimevalue.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

class Backend;

/// Why a scope variable was freed.
enum class FreeReason : unsigned char {
    /// Listed in split_program's `no_need_buffers`: the backward reads only its shape and dtype.
    NoNeedBuffer,
    /// Not read by any later program (outside run_program's skip-GC set).
    NotNeededLater,
    /// Freed by the caller.
    Explicit,
};

/// What a freed variable keeps (Scope::free).
enum class FreedMeta : unsigned char {
    None, ///< nothing: the variable disappears
    Same, ///< the tensor as it was (its meta and its buffer)
    /// a fresh buffer of the same shape and dtype filled so a read is recognisable: NaN for floats,
    /// 0x5A bytes otherwise (a device tensor is filled by the `device` backend, floats with 0xFF)
    Poisoned,
    /// the shape and dtype over read-only zero pages that hold no memory (unbackedAllocator());
    /// a device tensor is Poisoned instead
    Unbacked,
};

/// "no_need_buffer", "not needed later", "explicit".
std::string_view freeReasonText(FreeReason reason);

/// One freed variable, in the order they were freed.
struct FreedVariable
{
    std::string name;
    FreeReason reason = FreeReason::Explicit;
    /// "float32[4, 6]" (what was released; "" for non-tensors).
    std::string description;
    size_t bytes = 0;
};

/// Paddle's inner run_program scope: variable name → runtime value, shared by the forward and
/// the backward program (forward `builtin.shadow_output` names are backward kwarg names). It also
/// records which variables were freed and why, so a debugger can show "freed" instead of a value.
///
/// A freed variable either disappears (find() → nullptr) or keeps a tensor of the same shape and
/// dtype (FreedMeta): the backward kernels of a no_need_buffer value read its meta only. A
/// poisoned buffer makes a kernel that wrongly reads the data show it instead of reading the
/// old values; an unbacked one holds no memory, as Paddle's executor keeps no buffer.
///
/// Not thread-safe: a debugger reads it only while the interpreter is paused.
class Scope
{
public:
    /// Sets (or replaces) a variable; clears an earlier "freed" mark of the name.
    void set(const std::string &name, RuntimeValue value);
    /// nullptr when absent or freed without meta.
    const RuntimeValue *find(std::string_view name) const;
    RuntimeValue *find(std::string_view name);
    bool contains(std::string_view name) const { return find(name) != nullptr; }
    /// Removes a variable without recording it as freed.
    bool erase(std::string_view name);

    /// Marks a variable freed (see the class comment). False when it is absent.
    bool free(const std::string &name, FreeReason reason, FreedMeta meta = FreedMeta::None,
        Backend *device = nullptr);
    bool isFreed(std::string_view name) const;
    /// The freed record of a name, or nullptr.
    const FreedVariable *freedInfo(std::string_view name) const;
    const std::vector<FreedVariable> &freed() const { return m_freed; }

    /// Sorted names of the variables that hold a value (freed-with-meta ones included).
    std::vector<std::string> names() const;
    size_t size() const { return m_vars.size(); }
    /// Bytes of the distinct tensor storages the scope references (unbacked meta holds none).
    size_t bytes() const;
    void clear();

private:
    std::map<std::string, RuntimeValue, std::less<>> m_vars;
    std::vector<FreedVariable> m_freed;
};

} // namespace ps
