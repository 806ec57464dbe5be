#include "core/transform/gradstate.h"

namespace ps {

void GradState::turnMap()
{
    gradToValue.clear();
    summedGrads.clear();
    for (Value key : valueToGrad.keys()) {
        const auto &entries = *valueToGrad.find(key);
        if (entries.empty())
            continue;
        for (Value g : entries.front())
            gradToValue[g] = key;
    }
    for (Value key : valueToSumGrad.keys()) {
        const auto &entries = *valueToSumGrad.find(key);
        if (entries.empty())
            continue;
        for (Value g : entries.front())
            summedGrads.insert(g);
    }
}

} // namespace ps
