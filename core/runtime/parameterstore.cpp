#include "core/runtime/parameterstore.h"

#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"

namespace ps {

bool ParameterStore::load(const Program &program, TensorSource source, std::string &error)
{
    if (!source.prepare(program, error))
        return false;
    if (m_origin.empty())
        m_origin = source.describe();
    bool ok = true;
    program.block().walk([&](Operation *op) {
        if (!ok || op->numResults() != 1)
            return;
        std::string name;
        if (ops::isParameter(*op)) {
            name = op->stringAttribute("parameter_name");
        } else if (ops::isConstant(*op)) {
            const Attribute *value = op->attribute("value");
            if (value && value->kind() == Attribute::Kind::TensorName)
                name = value->asString();
        }
        if (name.empty() || contains(name))
            return;
        const Attribute *trainable = op->attribute("trainable");
        const bool isTrainable = !trainable || trainable->kind() != Attribute::Kind::Array
            || trainable->asArray().empty() || trainable->asArray()[0].asBool();
        Tensor t = source.get(name, op->result(0).type(), isTrainable, error);
        if (!t.defined()) {
            ok = false;
            return;
        }
        set(name, std::move(t));
    });
    return ok;
}

Tensor ParameterStore::get(const std::string &name) const
{
    auto it = m_tensors->find(name);
    return it == m_tensors->end() ? Tensor() : it->second;
}

TensorSource ParameterStore::source() const
{
    return TensorSource::named(m_tensors,
        "parameters from " + (m_origin.empty() ? std::string("nowhere") : m_origin)
            + " and those the passes made");
}

} // namespace ps
