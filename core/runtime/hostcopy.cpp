#include "core/runtime/hostcopy.h"

#include "core/runtime/backend.h"

namespace ps {

Tensor deepHostCopy(Backend &backend, const Tensor &t)
{
    if (!t.defined())
        return t;
    Tensor host = backend.toHost(t);
    return host.storage() == t.storage() ? host.cloneHost() : host;
}

RuntimeValue deepHostCopy(Backend &backend, const RuntimeValue &v)
{
    if (v.isTensor())
        return RuntimeValue(deepHostCopy(backend, v.tensor()));
    if (v.isList()) {
        std::vector<Tensor> list;
        list.reserve(v.list().size());
        for (const Tensor &t : v.list())
            list.push_back(deepHostCopy(backend, t));
        return RuntimeValue(std::move(list));
    }
    return v;
}

} // namespace ps
