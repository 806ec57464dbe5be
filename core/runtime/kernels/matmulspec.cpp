#include "core/runtime/kernels/matmulspec.h"

#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensor.h"

#include <algorithm>

namespace ps {

int64_t MatmulSpec::batches() const
{
    return numElementsOf(outBatch);
}

MatmulSpec matmulSpec(
    const std::vector<int64_t> &x, const std::vector<int64_t> &y, bool tx, bool ty, const std::string &label)
{
    auto fail = [&](const std::string &why) {
        throw RuntimeError(label + ": x " + shapeText(x) + (tx ? " (transposed)" : "") + " and y "
            + shapeText(y) + (ty ? " (transposed)" : "") + " do not fit: " + why);
    };
    if (x.empty() || y.empty())
        fail("operands must have at least one dimension");
    MatmulSpec p;
    p.xs = x;
    p.ys = y;
    const bool xVector = x.size() == 1, yVector = y.size() == 1;
    p.tx = tx && !xVector;
    p.ty = ty && !yVector;
    if (xVector)
        p.xs = { 1, x[0] };
    if (yVector)
        p.ys = { y[0], 1 };
    const size_t xr = p.xs.size(), yr = p.ys.size();
    p.m = p.tx ? p.xs[xr - 1] : p.xs[xr - 2];
    p.k = p.tx ? p.xs[xr - 2] : p.xs[xr - 1];
    const int64_t ky = p.ty ? p.ys[yr - 1] : p.ys[yr - 2];
    p.n = p.ty ? p.ys[yr - 2] : p.ys[yr - 1];
    if (p.k != ky)
        fail("contracted dims " + std::to_string(p.k) + " and " + std::to_string(ky) + " differ");
    const size_t xb = xr - 2, yb = yr - 2, nb = std::max(xb, yb);
    p.xDims.assign(nb - xb, 1);
    p.xDims.insert(p.xDims.end(), p.xs.begin(), p.xs.end() - 2);
    p.yDims.assign(nb - yb, 1);
    p.yDims.insert(p.yDims.end(), p.ys.begin(), p.ys.end() - 2);
    p.outBatch.resize(nb);
    for (size_t i = 0; i < nb; ++i) {
        if (p.xDims[i] != p.yDims[i] && p.xDims[i] != 1 && p.yDims[i] != 1)
            fail("batch dims " + std::to_string(p.xDims[i]) + " and " + std::to_string(p.yDims[i])
                + " do not broadcast");
        p.outBatch[i] = p.xDims[i] == 1 ? p.yDims[i] : p.xDims[i];
    }
    p.outShape = p.outBatch;
    if (!xVector)
        p.outShape.push_back(p.m);
    if (!yVector)
        p.outShape.push_back(p.n);
    return p;
}

int64_t matmulBatchOffset(int64_t b, const std::vector<int64_t> &dims, const std::vector<int64_t> &outBatch)
{
    int64_t offset = 0, stride = 1;
    for (size_t i = outBatch.size(); i-- > 0;) {
        const int64_t idx = b % outBatch[i];
        b /= outBatch[i];
        if (dims[i] != 1)
            offset += idx * stride;
        stride *= dims[i];
    }
    return offset;
}

int64_t matmulUniformStride(
    const std::vector<int64_t> &dims, const std::vector<int64_t> &outBatch, int64_t matrix)
{
    int64_t own = 1, full = 1;
    for (size_t i = 0; i < dims.size(); ++i) {
        own *= dims[i];
        full *= outBatch[i];
    }
    if (own == 1)
        return 0;
    if (own == full)
        return matrix;
    return -1;
}

} // namespace ps
