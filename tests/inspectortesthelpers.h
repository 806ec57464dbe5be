#pragma once

// What the tensor inspector tests share (tst_tensorinspector, tst_tensorcompare): tensors to look
// at, a model tester, and a fake device tensor.

#include "core/runtime/allocator.h"
#include "core/runtime/npyio.h"
#include "core/runtime/tensorcomparison.h"
#include "ui/inspector/colormap.h"
#include "ui/inspector/comparepanel.h"
#include "ui/inspector/histogramwidget.h"
#include "ui/inspector/slicecontrols.h"
#include "ui/inspector/tensorcompare.h"
#include "ui/inspector/tensorheatmap.h"
#include "ui/inspector/tensorinspector.h"
#include "ui/inspector/tensorslicemodel.h"
#include "ui/inspector/tensorstatspanel.h"

#include <QAbstractItemModelTester>
#include <QAbstractScrollArea>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QMouseEvent>
#include <QScrollBar>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QThread>
#include <QToolButton>
#include <QWheelEvent>
#include <QtTest>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>

using namespace ps;

namespace {

const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

Tensor arange(std::vector<int64_t> shape, DataType dtype = DataType::Float32)
{
    std::vector<double> v(size_t(numElementsOf(shape)));
    std::iota(v.begin(), v.end(), 0.0);
    return Tensor::fromDoubles(std::move(shape), dtype, v);
}

Tensor tensorOf(std::vector<int64_t> shape, std::vector<double> values, DataType dtype = DataType::Float32)
{
    return Tensor::fromDoubles(std::move(shape), dtype, values);
}

void attachTester(QAbstractItemModel *model, QObject *owner)
{
    new QAbstractItemModelTester(model, QAbstractItemModelTester::FailureReportingMode::QtTest, owner);
}

/// Host memory that claims to be CUDA device 0: exercises the inspector's device path.
class FakeDeviceAllocator : public Allocator
{
public:
    Device device() const override { return Device::cuda(0); }
    void *allocate(size_t bytes) override
    {
        m_inUse += bytes;
        return std::malloc(std::max<size_t>(bytes, 1));
    }
    void deallocate(void *ptr, size_t bytes) override
    {
        m_inUse -= bytes;
        std::free(ptr);
    }
    size_t bytesInUse() const override { return m_inUse; }

private:
    size_t m_inUse = 0;
};

Tensor toFakeDevice(const Tensor &host, FakeDeviceAllocator &allocator)
{
    Tensor t(host.shape(), host.dtype(), allocator);
    std::memcpy(t.rawData(), host.rawData(), host.byteSize());
    return t;
}

Tensor fakeHostCopy(const Tensor &device)
{
    Tensor t = Tensor::empty(device.shape(), device.dtype());
    std::memcpy(t.rawData(), device.rawData(), device.byteSize());
    return t;
}

/// Three 64x64 gradients with a few NaNs and infinities in the middle one: something to look at.
Tensor gradients()
{
    std::vector<double> v(3 * 64 * 64);
    for (int k = 0; k < 3; ++k)
        for (int r = 0; r < 64; ++r)
            for (int c = 0; c < 64; ++c)
                v[size_t((k * 64 + r) * 64 + c)]
                    = std::sin(r / 9.0) * std::cos(c / (13.0 - k)) + (r + c) / 64.0 - 1.0 + 0.25 * k;
    double *middle = v.data() + 64 * 64;
    middle[10 * 64 + 10] = middle[10 * 64 + 11] = middle[40 * 64 + 50] = kNan;
    middle[20 * 64 + 60] = kInf;
    middle[50 * 64 + 5] = -kInf;
    return Tensor::fromDoubles({ 3, 64, 64 }, DataType::Float32, v);
}

} // namespace
