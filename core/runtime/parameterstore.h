#pragma once

#include "core/runtime/tensor.h"
#include "core/runtime/tensorsource.h"

#include <map>
#include <memory>
#include <string>

namespace ps {

class Program;

/// The parameter scope of a pass pipeline, as Paddle's inference keeps one: every
/// `builtin.parameter` and tensor-name `builtin.constant` of a program by name, loaded once from
/// a TensorSource, plus the tensors passes create (constant_folding_pass). Runs of the program
/// before and after each pass read it through source(), so they see the same values whatever the
/// passes did to the parameter list (a `.pdiparams` file is matched to the program it was saved
/// with only once, in load()).
class ParameterStore
{
public:
    /// Reads every parameter and constant tensor of `program` that is not stored yet from
    /// `source` (prepared on `program` here). False with `error` naming the first that failed.
    bool load(const Program &program, TensorSource source, std::string &error);

    bool contains(const std::string &name) const { return m_tensors->count(name) != 0; }
    /// Undefined when absent.
    Tensor get(const std::string &name) const;
    void set(const std::string &name, Tensor tensor) { (*m_tensors)[name] = std::move(tensor); }
    void erase(const std::string &name) { m_tensors->erase(name); }
    size_t size() const { return m_tensors->size(); }

    /// A TensorSource reading this store (shared, not copied; later set() calls are seen).
    TensorSource source() const;
    /// What load() read from ("random (seed 0)", "model.pdiparams", ...).
    const std::string &origin() const { return m_origin; }

private:
    std::shared_ptr<std::map<std::string, Tensor>> m_tensors
        = std::make_shared<std::map<std::string, Tensor>>();
    std::string m_origin;
};

} // namespace ps
