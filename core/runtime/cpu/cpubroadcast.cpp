#include "core/runtime/cpu/cpubroadcast.h"

#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensor.h"

#include <algorithm>

namespace ps {

std::vector<int64_t> broadcastShapes(const std::vector<int64_t> &a, const std::vector<int64_t> &b)
{
    const size_t rank = std::max(a.size(), b.size());
    std::vector<int64_t> out(rank);
    for (size_t i = 0; i < rank; ++i) {
        const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
        const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
        if (da != db && da != 1 && db != 1)
            throw RuntimeError("cannot broadcast " + shapeText(a) + " with " + shapeText(b));
        out[i] = da == 1 ? db : da;
    }
    return out;
}

std::vector<int64_t> broadcastStrides(const std::vector<int64_t> &shape, const std::vector<int64_t> &outShape)
{
    if (shape.size() > outShape.size())
        throw RuntimeError("cannot broadcast " + shapeText(shape) + " to " + shapeText(outShape));
    const size_t lead = outShape.size() - shape.size();
    std::vector<int64_t> strides(outShape.size(), 0);
    int64_t stride = 1;
    for (size_t i = shape.size(); i-- > 0;) {
        const int64_t d = shape[i], o = outShape[lead + i];
        if (d != o && d != 1)
            throw RuntimeError("cannot broadcast " + shapeText(shape) + " to " + shapeText(outShape));
        strides[lead + i] = d == 1 ? 0 : stride;
        stride *= d;
    }
    return strides;
}

BroadcastPlan::BroadcastPlan(
    const std::vector<int64_t> &outShape, const std::vector<std::vector<int64_t>> &operandShapes)
    : m_strides(operandShapes.size())
    , m_total(numElementsOf(outShape))
{
    std::vector<std::vector<int64_t>> full;
    for (const std::vector<int64_t> &s : operandShapes)
        full.push_back(broadcastStrides(s, outShape));
    // Keep dims > 1, then merge dim d into the kept outer dim when every operand walks both as one.
    for (size_t d = 0; d < outShape.size(); ++d) {
        if (outShape[d] == 1)
            continue;
        bool mergeable = !m_shape.empty();
        for (size_t k = 0; mergeable && k < full.size(); ++k)
            mergeable = m_strides[k].back() == full[k][d] * outShape[d];
        if (mergeable) {
            m_shape.back() *= outShape[d];
            for (size_t k = 0; k < full.size(); ++k)
                m_strides[k].back() = full[k][d];
        } else {
            m_shape.push_back(outShape[d]);
            for (size_t k = 0; k < full.size(); ++k)
                m_strides[k].push_back(full[k][d]);
        }
    }
    if (m_shape.empty()) {
        m_shape.push_back(1);
        for (std::vector<int64_t> &s : m_strides)
            s.push_back(0);
    }
}

} // namespace ps
