#include "core/runtime/tensor.h"
#include "ui/inspector/watchmodel.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QtTest>

using namespace ps;

namespace {

TensorStats statsOf(std::vector<double> values)
{
    return computeStatsHost(Tensor::fromDoubles({ int64_t(values.size()) }, DataType::Float32, values));
}

QString cell(const WatchModel &m, int row, int column)
{
    return m.index(row, column).data().toString();
}

} // namespace

/// The watch panel model: pinned names, live statistics, freed and not-yet-computed states.
class TestWatchModel : public QObject
{
    Q_OBJECT

private slots:
    void lifecycle();
    void nonFiniteHighlight();
    void headers();
};

void TestWatchModel::lifecycle()
{
    WatchModel model;
    new QAbstractItemModelTester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest, this);
    QVERIFY(model.addWatch("x"));
    QVERIFY(model.addWatch("conv2d_0.w_0"));
    QVERIFY(!model.addWatch("x"));
    QVERIFY(!model.addWatch(QString()));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.names(), (QStringList { "x", "conv2d_0.w_0" }));
    QCOMPARE(cell(model, 0, WatchModel::StateColumn), QStringLiteral("not computed yet"));
    QCOMPARE(cell(model, 0, WatchModel::MinColumn), QString());
    QCOMPARE(model.state("x"), WatchModel::State::NotComputed);

    QVERIFY(model.updateValue("x", { 2, 3 }, DataType::Float32, statsOf({ -1, 0.5, 2 })));
    QVERIFY(!model.updateValue("nope", { 1 }, DataType::Float32, statsOf({ 1 })));
    QCOMPARE(cell(model, 0, WatchModel::NameColumn), QStringLiteral("x"));
    QCOMPARE(cell(model, 0, WatchModel::ShapeColumn), QStringLiteral("[2, 3]"));
    QCOMPARE(cell(model, 0, WatchModel::DTypeColumn), QStringLiteral("float32"));
    QCOMPARE(cell(model, 0, WatchModel::MinColumn), QStringLiteral("-1"));
    QCOMPARE(cell(model, 0, WatchModel::MaxColumn), QStringLiteral("2"));
    QCOMPARE(cell(model, 0, WatchModel::MeanColumn), QStringLiteral("0.5"));
    QCOMPARE(cell(model, 0, WatchModel::NonFiniteColumn), QStringLiteral("0"));
    QCOMPARE(cell(model, 0, WatchModel::StateColumn), QStringLiteral("live"));
    QVERIFY(!model.index(0, 0).data(Qt::ForegroundRole).isValid());

    QVERIFY(model.markFreed("x"));
    QCOMPARE(model.state("x"), WatchModel::State::Freed);
    QCOMPARE(cell(model, 0, WatchModel::StateColumn), QStringLiteral("freed"));
    QCOMPARE(cell(model, 0, WatchModel::MaxColumn), QStringLiteral("2")); // last values kept
    QVERIFY(model.index(0, 0).data(Qt::ForegroundRole).isValid()); // greyed
    QCOMPARE(model.index(0, 0).data(WatchModel::StateRole).toInt(), int(WatchModel::State::Freed));
    QVERIFY(model.updateValue("x", { 2, 3 }, DataType::Float32, statsOf({ 4 })));
    QCOMPARE(model.state("x"), WatchModel::State::Live);

    // A name that names nothing says so, unlike one not computed yet; its numbers go.
    QVERIFY(model.markUnknown("x"));
    QCOMPARE(model.state("x"), WatchModel::State::Unknown);
    QCOMPARE(cell(model, 0, WatchModel::StateColumn), QStringLiteral("unknown name"));
    QCOMPARE(cell(model, 0, WatchModel::MaxColumn), QString());
    QVERIFY(model.index(0, WatchModel::StateColumn).data(Qt::ForegroundRole).isValid());
    QVERIFY(model.index(0, WatchModel::StateColumn).data(Qt::ToolTipRole).toString().contains("no value id"));
    QVERIFY(!model.markUnknown("nope"));
    QVERIFY(model.markNotComputed("x"));
    QCOMPARE(model.state("x"), WatchModel::State::NotComputed);
    QCOMPARE(cell(model, 0, WatchModel::StateColumn), QStringLiteral("not computed yet"));

    QVERIFY(model.removeWatch("x"));
    QVERIFY(!model.removeWatch("x"));
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.rowOf("conv2d_0.w_0"), 0);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.markFreed("conv2d_0.w_0"));
}

void TestWatchModel::nonFiniteHighlight()
{
    WatchModel model;
    new QAbstractItemModelTester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest, this);
    model.addWatch("a");
    model.addWatch("b");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.updateValue("a", { 4 }, DataType::Float32, statsOf({ 1, nan, inf, -inf }));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.at(0).at(0).toModelIndex().row(), 0);
    model.updateValue("b", { 1 }, DataType::Float32, statsOf({ 1 }));
    QCOMPARE(cell(model, 0, WatchModel::NonFiniteColumn), QStringLiteral("3"));
    QCOMPARE(model.index(0, 0).data(WatchModel::NonFiniteRole).toLongLong(), 3);
    for (int c = 0; c < WatchModel::ColumnCount; ++c) {
        QVERIFY(model.index(0, c).data(Qt::BackgroundRole).isValid());
        QVERIFY(!model.index(1, c).data(Qt::BackgroundRole).isValid());
    }
    QCOMPARE(model.index(0, WatchModel::NonFiniteColumn).data(Qt::ToolTipRole).toString(),
        QStringLiteral("1 NaN, 1 +Inf, 1 -Inf"));
}

void TestWatchModel::headers()
{
    WatchModel model;
    QStringList headers;
    for (int c = 0; c < model.columnCount(); ++c)
        headers << model.headerData(c, Qt::Horizontal).toString();
    QCOMPARE(headers, (QStringList { "Name", "Shape", "DType", "Min", "Max", "Mean", "NaN/Inf", "State" }));
}

QTEST_MAIN(TestWatchModel)
#include "tst_watchmodel.moc"
