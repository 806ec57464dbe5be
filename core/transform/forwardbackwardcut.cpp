#include "core/transform/forwardbackwardcut.h"

#include "core/ir/program.h"
#include "core/transform/pipelineresult.h"

#include <unordered_set>

namespace ps {

std::vector<CrossingValue> ForwardBackwardCut::of(const PipelineResult &r)
{
    const std::vector<Value> &nnb = r.attributeValues[SplitKey::NoNeedBuffers];
    const std::unordered_set<Value> noNeedBuffer(nnb.begin(), nnb.end());
    struct Pair
    {
        CrossingValue::Role role;
        SplitKey forward;
        SplitKey backward;
    };
    static const Pair kPairs[] = { { CrossingValue::Role::Input, SplitKey::Fx, SplitKey::Bx },
        { CrossingValue::Role::Parameter, SplitKey::Fp, SplitKey::Bp },
        { CrossingValue::Role::Middle, SplitKey::Fm, SplitKey::Bm },
        { CrossingValue::Role::Output, SplitKey::Fo, SplitKey::Bo } };
    std::vector<CrossingValue> cut;
    for (const Pair &p : kPairs) {
        const std::vector<Value> &f = r.attributeValues[p.forward];
        const std::vector<Value> &b = r.attributeValues[p.backward];
        const std::vector<std::string> &names = r.attributeNames[p.forward];
        for (size_t i = 0; i < f.size() && i < b.size(); ++i) {
            if (!b[i])
                continue;
            CrossingValue c;
            c.role = p.role;
            c.index = i;
            c.name = i < names.size() ? names[i] : std::string();
            c.forward = f[i];
            c.backward = b[i];
            c.bytes = f[i] && f[i].type() ? f[i].type().byteSize() : -1;
            c.noNeedBuffer = f[i] && noNeedBuffer.count(f[i]) != 0;
            cut.push_back(std::move(c));
        }
    }
    return cut;
}

std::string_view ForwardBackwardCut::roleName(CrossingValue::Role role)
{
    switch (role) {
    case CrossingValue::Role::Input:
        return "input";
    case CrossingValue::Role::Parameter:
        return "parameter";
    case CrossingValue::Role::Middle:
        return "middle";
    case CrossingValue::Role::Output:
        return "output";
    }
    return "";
}

int64_t ForwardBackwardCut::keptBytes(const std::vector<CrossingValue> &cut, size_t *dynamic)
{
    std::unordered_set<Value> seen;
    int64_t bytes = 0;
    size_t unknown = 0;
    for (const CrossingValue &c : cut) {
        if (c.noNeedBuffer || (c.forward && !seen.insert(c.forward).second))
            continue;
        if (c.bytes < 0)
            ++unknown;
        else
            bytes += c.bytes;
    }
    if (dynamic)
        *dynamic = unknown;
    return bytes;
}

} // namespace ps
