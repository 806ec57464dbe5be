#include "core/runtime/storage.h"
#include "core/runtime/tensor.h"

#include <QtTest>
#include <utility>

using namespace ps;

/// Storage's content id (issue 24): what oneDNN's reordered weights are kept by instead of a hash
/// of the bytes. Reads keep it, the mutable accessor drops it, a whole-storage clone takes it.
class TestStorage : public QObject
{
    Q_OBJECT

private slots:
    void readsKeepTheContentId()
    {
        const Tensor t = Tensor::zeros({ 4, 4 }, DataType::Float32);
        const uint64_t id = t.storage()->contentId();
        QVERIFY(id != 0);
        float sum = 0;
        for (int64_t i = 0; i < t.numElements(); ++i)
            sum += t.data<float>()[i];
        QCOMPARE(sum, 0.0f);
        QCOMPARE(t.storage()->contentId(), id);
        QCOMPARE(std::as_const(*t.storage()).data(), t.rawData());
        QCOMPARE(t.storage()->contentId(), id);
    }

    void aWriterDropsIt()
    {
        Tensor t = Tensor::zeros({ 4 }, DataType::Float32);
        const uint64_t id = t.storage()->contentId();
        t.data<float>()[2] = 1.0f;
        const uint64_t written = t.storage()->contentId();
        QVERIFY(written != 0);
        QVERIFY(written != id);
        // Through the storage as well as through the tensor.
        static_cast<float *>(t.storage()->data())[1] = 2.0f;
        QVERIFY(t.storage()->contentId() != written);
    }

    void aWholeCloneTakesItAndAViewCloneDoesNot()
    {
        const Tensor t = Tensor::zeros({ 2, 3 }, DataType::Float32);
        const uint64_t id = t.storage()->contentId();
        const Tensor clone = t.cloneHost();
        QVERIFY(clone.storage() != t.storage());
        QCOMPARE(clone.storage()->contentId(), id);
        // A clone of part of the storage holds other bytes: a new id.
        const Tensor view(t.storage(), { 3 }, DataType::Float32, 3 * sizeof(float));
        QVERIFY(view.cloneHost().storage()->contentId() != id);
        // Writing into the clone leaves the source's id alone.
        Tensor written = clone.cloneHost();
        written.data<float>()[0] = 5.0f;
        QVERIFY(written.storage()->contentId() != id);
        QCOMPARE(t.storage()->contentId(), id);
        QCOMPARE(t.cloneHost().storage()->contentId(), id);
    }
};

QTEST_GUILESS_MAIN(TestStorage)
#include "tst_storage.moc"
