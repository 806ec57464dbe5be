#pragma once

#include "core/ir/value.h"

#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ps {

class Block;
class Program;

/// Old name → new name, in the order a Python dict would keep them (first insertion wins the
/// position, a later update overwrites the value).
class RenameMapping
{
public:
    void set(const std::string &from, const std::string &to);
    /// The new name of `name`, or `name` itself.
    std::string map(const std::string &name) const;
    bool contains(const std::string &name) const;
    const std::vector<std::pair<std::string, std::string>> &items() const { return m_items; }
    bool empty() const { return m_items.empty(); }

private:
    std::vector<std::pair<std::string, std::string>> m_items;
    std::unordered_map<std::string, size_t> m_index; ///< name → position in m_items
};

/// Paddle's name_analysis `RenameValue(value, new_name, block)` (PADDLE_PIR.md §3.3): a kwarg of
/// `block` is moved to keyword `newName` (an existing kwarg of that name is reused, the old one
/// erased), and the `name` of a defining `pd_op.data`, the `parameter_name` of a
/// `builtin.parameter`, the tensor name of a `builtin.constant` and the names of every
/// `builtin.shadow_output`/`builtin.set_parameter` user are set to `newName`. Returns old → new
/// for every name that changed (a std::map, as Paddle). `value` may be replaced by the new kwarg.
std::map<std::string, std::string> renameValue(Value &value, const std::string &newName, Block &block);

/// Values of `program` as the newest `RunnableProgram._get_program_all_values` lists them: kwargs
/// of each block, then the results of each op followed by the values of its nested blocks.
/// Positional block arguments are not included.
std::vector<Value> programAllValues(const Program &program);

/// The newest `RunnableProgram.unify_value_names(program, rename_mapping)`: every named value
/// keeps only its first name (mapped through `mapping` first), renaming the others with
/// renameValue; returns `mapping` extended by every rename. Values that still have more than
/// one name afterwards are reported in `problems` (Paddle asserts).
RenameMapping unifyValueNames(
    Program &program, RenameMapping mapping, std::vector<std::string> *problems = nullptr);

} // namespace ps
