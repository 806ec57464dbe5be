#include "core/runtime/scope.h"

#include "core/ir/datatypekind.h"
#include "core/runtime/allocator.h"
#include "core/runtime/backend.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/storage.h"
#include "core/runtime/tensorstack.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

namespace ps {
namespace {

/// A fresh tensor of `t`'s shape and dtype on its device, filled so a read of it is recognisable:
/// NaN for floats, 0x5A bytes otherwise (a device tensor is filled by `device`, its floats with
/// 0xFF bytes, a NaN in every float width).
Tensor poisoned(const Tensor &t, Backend *device)
{
    Tensor p(t.shape(), t.dtype(), t.storage()->allocator());
    if (!p.device().isCpu()) {
        if (!device)
            throw RuntimeError("poisoning a freed " + t.device().name() + " tensor needs its backend");
        device->fillBytes(p, isFloatingPoint(p.dtype()) ? 0xFF : 0x5A);
    } else {
        if (p.dtype() == DataType::Float32) {
            std::fill_n(p.data<float>(), p.numElements(), std::numeric_limits<float>::quiet_NaN());
        } else if (p.dtype() == DataType::Float64) {
            std::fill_n(p.data<double>(), p.numElements(), std::numeric_limits<double>::quiet_NaN());
        } else {
            std::memset(p.rawData(), 0x5A, p.byteSize());
        }
    }
    return p;
}

} // namespace

std::string_view freeReasonText(FreeReason reason)
{
    switch (reason) {
    case FreeReason::NoNeedBuffer:
        return "no_need_buffer";
    case FreeReason::NotNeededLater:
        return "not needed later";
    case FreeReason::Explicit:
        break;
    }
    return "explicit";
}

void Scope::set(const std::string &name, RuntimeValue value)
{
    m_vars.insert_or_assign(name, std::move(value));
    std::erase_if(m_freed, [&name](const FreedVariable &f) { return f.name == name; });
}

const RuntimeValue *Scope::find(std::string_view name) const
{
    auto it = m_vars.find(name);
    return it == m_vars.end() ? nullptr : &it->second;
}

RuntimeValue *Scope::find(std::string_view name)
{
    auto it = m_vars.find(name);
    return it == m_vars.end() ? nullptr : &it->second;
}

bool Scope::erase(std::string_view name)
{
    auto it = m_vars.find(name);
    if (it == m_vars.end())
        return false;
    m_vars.erase(it);
    return true;
}

bool Scope::free(const std::string &name, FreeReason reason, FreedMeta meta, Backend *device)
{
    auto it = m_vars.find(name);
    if (it == m_vars.end())
        return false;
    FreedVariable record { name, reason, {}, 0 };
    RuntimeValue &value = it->second;
    if (value.isTensor() && value.tensor().defined()) {
        record.description = value.tensor().describe();
        record.bytes = value.tensor().byteSize();
    }
    const bool tensor = value.isTensor() && value.tensor().defined();
    if (meta == FreedMeta::Unbacked && tensor && !value.tensor().device().isCpu())
        meta = FreedMeta::Poisoned;
    if (meta == FreedMeta::None)
        m_vars.erase(it);
    else if (meta == FreedMeta::Poisoned && tensor)
        value = RuntimeValue(poisoned(value.tensor(), device));
    else if (meta == FreedMeta::Unbacked && tensor)
        value = RuntimeValue(Tensor(value.tensor().shape(), value.tensor().dtype(), unbackedAllocator()));
    std::erase_if(m_freed, [&name](const FreedVariable &f) { return f.name == name; });
    m_freed.push_back(std::move(record));
    return true;
}

bool Scope::isFreed(std::string_view name) const
{
    return freedInfo(name) != nullptr;
}

const FreedVariable *Scope::freedInfo(std::string_view name) const
{
    for (const FreedVariable &f : m_freed)
        if (f.name == name)
            return &f;
    return nullptr;
}

std::vector<std::string> Scope::names() const
{
    std::vector<std::string> out;
    out.reserve(m_vars.size());
    for (const auto &[name, value] : m_vars)
        out.push_back(name);
    return out;
}

size_t Scope::bytes() const
{
    std::set<const Storage *> seen;
    size_t total = 0;
    auto add = [&](const Tensor &t) {
        if (t.defined() && &t.storage()->allocator() != &unbackedAllocator()
            && seen.insert(t.storage().get()).second)
            total += t.storage()->bytes();
    };
    for (const auto &[name, value] : m_vars) {
        if (value.isTensor())
            add(value.tensor());
        else if (value.isList())
            for (const Tensor &t : value.list())
                add(t);
        else if (value.isStack())
            for (size_t i = 0; i < value.stack()->size(); ++i)
                for (const Tensor &t : value.stack()->at(i))
                    add(t);
    }
    return total;
}

void Scope::clear()
{
    m_vars.clear();
    m_freed.clear();
}

} // namespace ps
