#include "inspectortesthelpers.h"

/// The tensor inspector: slice model, heatmap, histogram, statistics, comparison, export and
/// the assembled widget (offscreen).
class TestTensorInspector : public QObject
{
    Q_OBJECT

private slots:
    void sliceModelUnderTester();
    void slicingPicksElements_data();
    void slicingPicksElements();
    void valueFormatting_data();
    void valueFormatting();
    void nanInfRoles();
    void pagingCapsRows();
    void heatmapColours();
    void heatmapDiverging();
    void heatmapDownsamplesKeepingNan();
    void heatmapHover();
    void heatmapFitsZoomsAndPans();
    void histogramCounts();
    void statsPanelFields();
    void exportRoundTrip_data();
    void exportRoundTrip();
    void statsArriveAsynchronously();
    void statsFailureIsReported();
    void deviceTensorNeedsHostCopy();
    void sliceControlsSwapAxes();
    void hugeTensorOpensLazily();
    void screenshots();
};

void TestTensorInspector::sliceModelUnderTester()
{
    TensorSliceModel model;
    attachTester(&model, this);
    QCOMPARE(model.rowCount(), 0);
    model.setTensor(arange({ 2, 3, 4 }));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), 4);
    model.setAxes(0, 2);
    model.setFixedIndex(1, 2);
    model.setAxes(2, -1);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.columnCount(), 1);
    model.setTensor(arange({ 5 }));
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("value"));
    model.setTensor(tensorOf({}, { 7 }));
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.columnCount(), 1);
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("7"));
    model.setTensor(Tensor::zeros({ 0, 3 }, DataType::Float32));
    QCOMPARE(model.rowCount(), 0);
    model.setTensor(Tensor::zeros({ 2 }, DataType::Complex64));
    QCOMPARE(model.rowCount(), 0);
    model.setTensor(Tensor());
    QCOMPARE(model.rowCount(), 0);
}

void TestTensorInspector::slicingPicksElements_data()
{
    QTest::addColumn<int>("rowAxis");
    QTest::addColumn<int>("columnAxis");
    for (int r = -1; r < 3; ++r)
        for (int c = -1; c < 3; ++c)
            if (r != c || r < 0)
                QTest::addRow("rows %d, columns %d", r, c) << r << c;
}

void TestTensorInspector::slicingPicksElements()
{
    QFETCH(int, rowAxis);
    QFETCH(int, columnAxis);
    const std::vector<int64_t> shape { 2, 3, 4 };
    const Tensor t = arange(shape); // value == row-major offset
    TensorSliceModel model;
    model.setTensor(t);
    model.setAxes(rowAxis, columnAxis);
    const int effectiveRow = model.slice().rowAxis(), effectiveColumn = model.slice().columnAxis();
    QCOMPARE(effectiveRow, rowAxis);
    QCOMPARE(effectiveColumn, columnAxis);
    QCOMPARE(model.rowCount(), rowAxis >= 0 ? int(shape[size_t(rowAxis)]) : 1);
    QCOMPARE(model.columnCount(), columnAxis >= 0 ? int(shape[size_t(columnAxis)]) : 1);

    // Every combination of fixed indices for the other axes.
    std::vector<int> others;
    for (int a = 0; a < 3; ++a)
        if (a != rowAxis && a != columnAxis)
            others.push_back(a);
    int combos = 1;
    for (int a : others)
        combos *= int(shape[size_t(a)]);
    int checked = 0;
    for (int k = 0; k < combos; ++k) {
        std::vector<int64_t> fixed(3, 0);
        int rest = k;
        for (int a : others) {
            fixed[size_t(a)] = rest % shape[size_t(a)];
            rest /= int(shape[size_t(a)]);
            model.setFixedIndex(a, fixed[size_t(a)]);
        }
        for (int r = 0; r < model.rowCount(); ++r)
            for (int c = 0; c < model.columnCount(); ++c) {
                std::vector<int64_t> index = fixed;
                if (rowAxis >= 0)
                    index[size_t(rowAxis)] = r;
                if (columnAxis >= 0)
                    index[size_t(columnAxis)] = c;
                const int64_t expected = index[0] * 12 + index[1] * 4 + index[2];
                const QModelIndex cell = model.index(r, c);
                QCOMPARE(cell.data(TensorSliceModel::ValueRole).toDouble(), double(expected));
                QCOMPARE(cell.data(TensorSliceModel::FlatIndexRole).toLongLong(), expected);
                QCOMPARE(cell.data().toString(), QString::number(expected));
                const QList<qint64> full = cell.data(TensorSliceModel::FullIndexRole).value<QList<qint64>>();
                QCOMPARE(full, (QList<qint64> { index[0], index[1], index[2] }));
                ++checked;
            }
    }
    QCOMPARE(checked, 24); // every element exactly once over all fixed-index choices
}

void TestTensorInspector::valueFormatting_data()
{
    QTest::addColumn<int>("dtype");
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("text");
    QTest::newRow("f32") << int(DataType::Float32) << 1.5 << "1.5";
    QTest::newRow("f32 %.6g") << int(DataType::Float32) << 1.0 / 3 << "0.333333";
    QTest::newRow("f64 large") << int(DataType::Float64) << 1.25e20 << "1.25e+20";
    QTest::newRow("f16") << int(DataType::Float16) << 0.1 << "0.0999756";
    QTest::newRow("bf16") << int(DataType::BFloat16) << 1.0 / 3 << "0.333984";
    QTest::newRow("nan") << int(DataType::Float32) << kNan << "nan";
    QTest::newRow("-inf") << int(DataType::Float16) << -kInf << "-inf";
    QTest::newRow("i32") << int(DataType::Int32) << -7.0 << "-7";
    QTest::newRow("u8") << int(DataType::UInt8) << 200.0 << "200";
    QTest::newRow("bool") << int(DataType::Bool) << 1.0 << "true";
    QTest::newRow("bool false") << int(DataType::Bool) << 0.0 << "false";
}

void TestTensorInspector::valueFormatting()
{
    QFETCH(int, dtype);
    QFETCH(double, value);
    QFETCH(QString, text);
    TensorSliceModel model;
    model.setTensor(tensorOf({ 1 }, { value }, DataType(dtype)));
    QCOMPARE(model.index(0, 0).data().toString(), text);
}

void TestTensorInspector::nanInfRoles()
{
    TensorSliceModel model;
    attachTester(&model, this);
    model.setTensor(tensorOf({ 2, 2 }, { 1, kNan, kInf, -kInf }));
    QVERIFY(!model.index(0, 0).data(Qt::BackgroundRole).isValid());
    const QColor nan = model.index(0, 1).data(Qt::BackgroundRole).value<QBrush>().color();
    const QColor inf = model.index(1, 0).data(Qt::BackgroundRole).value<QBrush>().color();
    QVERIFY(nan.isValid());
    QVERIFY(inf.isValid());
    QVERIFY(nan != inf);
    QCOMPARE(model.index(1, 1).data(Qt::BackgroundRole).value<QBrush>().color(), inf);
    QCOMPARE(model.index(0, 1).data(Qt::ToolTipRole).toString(), QStringLiteral("(0, 1) = nan"));
    QCOMPARE(model.index(1, 1).data(Qt::ToolTipRole).toString(), QStringLiteral("(1, 1) = -inf"));

    // Full N-d index in the tooltip of a 3-d slice.
    model.setTensor(arange({ 2, 3, 4 }));
    model.setAxes(0, 2);
    model.setFixedIndex(1, 2);
    QCOMPARE(model.index(1, 3).data(Qt::ToolTipRole).toString(), QStringLiteral("(1, 2, 3) = 23"));
    QCOMPARE(model.headerData(3, Qt::Horizontal).toString(), QStringLiteral("3"));
    QCOMPARE(model.headerData(1, Qt::Vertical).toString(), QStringLiteral("1"));
    // Integers never get a background, even when huge.
    model.setTensor(tensorOf({ 1 }, { 1e18 }, DataType::Int64));
    QVERIFY(!model.index(0, 0).data(Qt::BackgroundRole).isValid());
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("1000000000000000000"));
}

void TestTensorInspector::pagingCapsRows()
{
    TensorSliceModel model;
    attachTester(&model, this); // it fetches too, on every change: paging must not nest
    const int64_t n = 3 * int64_t(TensorSliceModel::MaxRows);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.setTensor(Tensor::zeros({ n }, DataType::Int8));
    QCOMPARE(reset.count(), 1);
    QCOMPARE(model.sliceRows(), n);
    QVERIFY(model.truncated());
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    const int before = model.rowCount();
    QCOMPARE(before % TensorSliceModel::PageRows, 0);
    while (model.canFetchMore({}))
        model.fetchMore({});
    QCOMPARE(model.rowCount(), TensorSliceModel::MaxRows);
    QCOMPARE(inserted.count(), (TensorSliceModel::MaxRows - before) / TensorSliceModel::PageRows);
    for (const QList<QVariant> &args : inserted)
        QCOMPARE(args.at(2).toInt() - args.at(1).toInt() + 1, TensorSliceModel::PageRows);
    TensorSliceModel plain;
    plain.setTensor(Tensor::zeros({ n }, DataType::Int8));
    QCOMPARE(plain.rowCount(), TensorSliceModel::PageRows); // one page until a view asks for more

    model.setTensor(Tensor::zeros({ 2, 100000 }, DataType::Int8));
    QCOMPARE(model.columnCount(), TensorSliceModel::MaxColumns);
    QCOMPARE(model.rowCount(), 2);
    QVERIFY(model.truncated());
    QVERIFY(!model.canFetchMore({}));
}

void TestTensorInspector::heatmapColours()
{
    // [[0, 1], [nan, 0.5]] and [[inf, -inf], [2, 2]]
    const auto seq = [](double t) { return ColorMap::color(ColorMap::Kind::Sequential, t); };
    TensorHeatmap::Rendering r = TensorHeatmap::render(
        TensorSlice(tensorOf({ 2, 2 }, { 0, 1, kNan, 0.5 })), ColorMap::Kind::Sequential);
    QCOMPARE(r.image.size(), QSize(2, 2));
    QCOMPARE(r.low, 0.0);
    QCOMPARE(r.high, 1.0);
    QCOMPARE(r.image.pixel(0, 0), ColorMap::table(ColorMap::Kind::Sequential).front());
    QCOMPARE(r.image.pixel(1, 0), ColorMap::table(ColorMap::Kind::Sequential).back());
    QCOMPARE(r.image.pixel(0, 1), qRgb(255, 0, 255));
    QCOMPARE(r.image.pixel(1, 1), seq(0.5));
    QCOMPARE(r.nanCount, int64_t(1));
    QVERIFY(seq(0) != seq(1));

    r = TensorHeatmap::render(
        TensorSlice(tensorOf({ 2, 2 }, { kInf, -kInf, 2, 2 })), ColorMap::Kind::Sequential);
    QCOMPARE(r.image.pixel(0, 0), qRgb(255, 255, 255));
    QCOMPARE(r.image.pixel(1, 0), qRgb(0, 0, 0));
    QCOMPARE(r.image.pixel(0, 1), seq(0.5)); // constant finite data: the middle colour
    QCOMPARE(r.posInfCount, int64_t(1));
    QCOMPARE(r.negInfCount, int64_t(1));

    // The sequential map gets lighter monotonically (relative luminance of linear sRGB).
    const auto luminance = [](QRgb c) {
        const auto lin = [](int v) {
            const double x = v / 255.0;
            return x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * lin(qRed(c)) + 0.7152 * lin(qGreen(c)) + 0.0722 * lin(qBlue(c));
    };
    const auto &table = ColorMap::table(ColorMap::Kind::Sequential);
    for (size_t i = 1; i < table.size(); ++i)
        QVERIFY2(luminance(table[i]) > luminance(table[i - 1]), qPrintable(QString::number(i)));
}

void TestTensorInspector::heatmapDiverging()
{
    const TensorSlice slice(tensorOf({ 2, 2 }, { -1, 4, 0, 2 }));
    const TensorHeatmap::Rendering r = TensorHeatmap::render(slice, ColorMap::Kind::Diverging);
    QCOMPARE(r.low, -4.0);
    QCOMPARE(r.high, 4.0);
    const auto &table = ColorMap::table(ColorMap::Kind::Diverging);
    QCOMPARE(r.image.pixel(1, 0), table.back());
    QCOMPARE(r.image.pixel(0, 1), ColorMap::color(ColorMap::Kind::Diverging, 0.5));
    QCOMPARE(r.image.pixel(0, 0), ColorMap::color(ColorMap::Kind::Diverging, 3.0 / 8));
    // Symmetric: the middle is the lightest entry, the ends are mirrored in lightness.
    QVERIFY(qGray(table[128]) > qGray(table[0]));
    QVERIFY(qAbs(qGray(table[0]) - qGray(table[255])) < 40);
}

void TestTensorInspector::heatmapDownsamplesKeepingNan()
{
    std::vector<double> v(3000 * 10, 1.0);
    v[1234 * 10 + 7] = kNan;
    const TensorHeatmap::Rendering r
        = TensorHeatmap::render(TensorSlice(tensorOf({ 3000, 10 }, v)), ColorMap::Kind::Sequential, 1000);
    QCOMPARE(r.rowsPerPixel, int64_t(3));
    QCOMPARE(r.columnsPerPixel, int64_t(1));
    QCOMPARE(r.image.size(), QSize(10, 1000));
    QCOMPARE(r.image.pixel(7, 1234 / 3), ColorMap::NanColor);
    QCOMPARE(r.image.pixel(6, 1234 / 3), ColorMap::color(ColorMap::Kind::Sequential, 0.5));
}

void TestTensorInspector::heatmapHover()
{
    TensorHeatmap heatmap;
    heatmap.resize(400, 300);
    heatmap.show();
    QVERIFY(QTest::qWaitForWindowExposed(&heatmap));
    QSignalSpy rendered(&heatmap, &TensorHeatmap::rendered);
    TensorSlice slice(arange({ 2, 4, 8 }));
    slice.setAxes(1, 2);
    slice.setFixedIndex(0, 1);
    heatmap.setSlice(slice);
    QTRY_COMPARE(rendered.count(), 1);
    QCOMPARE(heatmap.rendering().image.size(), QSize(8, 4));
    // Find the pixel of element (row 2, column 5) by scanning: the mapping is the widget's own.
    for (int y = 0; y < heatmap.height(); y += 2)
        for (int x = 0; x < heatmap.width(); x += 2) {
            int64_t row, column;
            if (heatmap.elementAt(QPoint(x, y), row, column) && row == 2 && column == 5) {
                QTest::mouseMove(&heatmap, QPoint(x, y));
                QTRY_COMPARE(heatmap.hoverText(), QStringLiteral("row 2, column 5 (1, 2, 5) = 53"));
                return;
            }
        }
    QFAIL("element (2, 5) is not under any pixel");
}

void TestTensorInspector::heatmapFitsZoomsAndPans()
{
    // A 736x736 map in a 500x150 tab (the debugger dock at 1280x720): fitted whole by default,
    // zoomed it scrolls and a drag pans it, Fit fits again; ⤢ asks to maximise the inspector.
    TensorInspector inspector;
    inspector.resize(900, 260);
    inspector.show();
    QVERIFY(QTest::qWaitForWindowExposed(&inspector));
    inspector.setCurrentTab(TensorInspector::Tab::Heatmap);
    TensorHeatmap *heatmap = inspector.heatmap();
    QSignalSpy rendered(heatmap, &TensorHeatmap::rendered);
    std::vector<double> values(736 * 736);
    std::iota(values.begin(), values.end(), 0.0);
    inspector.setTensor(tensorOf({ 736, 736 }, values), QStringLiteral("%1"));
    QTRY_VERIFY(rendered.count() >= 1 && !heatmap->isRendering());
    auto *area = qobject_cast<QAbstractScrollArea *>(heatmap->parentWidget()->parentWidget());
    QVERIFY(area);
    QCOMPARE(heatmap->zoom(), 0.0);
    QTRY_VERIFY(heatmap->height() <= area->viewport()->height() + 1);
    QVERIFY(heatmap->scale() > 0 && heatmap->scale() < 1); // the whole map, shrunk
    QVERIFY(!area->verticalScrollBar()->isVisible());

    // Zoomed in: the picture outgrows the tab and scrolls.
    auto *zoomIn = inspector.findChild<QToolButton *>(QStringLiteral("heatmapZoomIn"));
    QVERIFY(zoomIn);
    const double fitted = heatmap->scale();
    for (int i = 0; i < 12; ++i)
        zoomIn->click();
    QVERIFY(heatmap->zoom() > fitted * 10);
    QTRY_VERIFY(area->verticalScrollBar()->maximum() > 0 && area->horizontalScrollBar()->maximum() > 0);
    QCOMPARE(area->verticalScrollBar()->value(), 0);
    // A drag pans it: the view moves the other way.
    const QPoint from = heatmap->mapFrom(area->viewport(), area->viewport()->rect().center());
    QTest::mousePress(heatmap, Qt::LeftButton, {}, from);
    QMouseEvent move(QEvent::MouseMove, QPointF(from - QPoint(40, 60)),
        heatmap->mapToGlobal(QPointF(from - QPoint(40, 60))), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(heatmap, &move);
    QTest::mouseRelease(heatmap, Qt::LeftButton, {}, from - QPoint(40, 60));
    QCOMPARE(area->verticalScrollBar()->value(), 60);
    QCOMPARE(area->horizontalScrollBar()->value(), 40);
    // Ctrl+wheel zooms out; Fit fits again.
    const double zoomed = heatmap->zoom();
    QWheelEvent wheel(QPointF(10, 10), heatmap->mapToGlobal(QPointF(10, 10)), QPoint(), QPoint(0, -240),
        Qt::NoButton, Qt::ControlModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(heatmap, &wheel);
    QVERIFY(heatmap->zoom() < zoomed);
    inspector.findChild<QToolButton *>(QStringLiteral("heatmapFit"))->click();
    QCOMPARE(heatmap->zoom(), 0.0);
    QTRY_VERIFY(area->verticalScrollBar()->maximum() == 0);

    QSignalSpy maximize(&inspector, &TensorInspector::maximizeToggled);
    inspector.maximizeButton()->click();
    QCOMPARE(maximize.count(), 1);
    QCOMPARE(maximize.first().first().toBool(), true);
}

void TestTensorInspector::histogramCounts()
{
    // 0..9 in 5 bins over [0, 9]: 2 per bin; NaN and Inf are not counted.
    std::vector<double> v(10);
    std::iota(v.begin(), v.end(), 0.0);
    v.push_back(kNan);
    v.push_back(kInf);
    const TensorStats stats = computeStatsHost(tensorOf({ 12 }, v), 5);
    QCOMPARE(stats.histogram, (std::vector<int64_t> { 2, 2, 2, 2, 2 }));
    HistogramWidget w;
    w.resize(500, 200);
    w.setStats(stats);
    QCOMPARE(w.counts(), stats.histogram);
    QCOMPARE(w.binText(0), QStringLiteral("[0, 1.8): 2"));
    QCOMPARE(w.binText(4), QStringLiteral("[7.2, 9]: 2"));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    int seen = 0;
    for (int x = 0; x < w.width(); ++x) {
        const int bin = w.binAt(QPoint(x, w.height() / 2));
        QVERIFY(bin >= -1 && bin < 5);
        seen |= bin >= 0 ? 1 << bin : 0;
    }
    QCOMPARE(seen, 0x1f); // every bin is reachable with the mouse
    int x = 0;
    while (w.binAt(QPoint(x, w.height() / 2)) != 3)
        ++x;
    QTest::mouseMove(&w, QPoint(x + 2, w.height() / 2));
    QTRY_COMPARE(w.hoverText(), QStringLiteral("[5.4, 7.2): 2"));
    w.setStats(computeStatsHost(tensorOf({ 1 }, { kNan }), 5));
    QVERIFY(w.counts().empty());
}

void TestTensorInspector::statsPanelFields()
{
    TensorStatsPanel panel;
    const Tensor t = tensorOf({ 2, 3 }, { 0, 1, 2, kNan, kInf, -kInf }, DataType::Float64);
    panel.setTensor(t);
    QCOMPARE(panel.field("Shape"), QStringLiteral("[2, 3]"));
    QCOMPARE(panel.field("DType"), QStringLiteral("float64"));
    QCOMPARE(panel.field("Device"), QStringLiteral("CPU"));
    QCOMPARE(panel.field("Count"), QStringLiteral("6"));
    QCOMPARE(panel.field("Min"), QStringLiteral("…"));
    panel.setStats(computeStatsHost(t));
    QCOMPARE(panel.field("Min"), QStringLiteral("0"));
    QCOMPARE(panel.field("Max"), QStringLiteral("2"));
    QCOMPARE(panel.field("Mean"), QStringLiteral("1"));
    QCOMPARE(panel.field("Std"), QStringLiteral("0.816497"));
    QCOMPARE(panel.field("NaN"), QStringLiteral("1"));
    QCOMPARE(panel.field("+Inf"), QStringLiteral("1"));
    QCOMPARE(panel.field("-Inf"), QStringLiteral("1"));
    QCOMPARE(panel.field("Zeros"), QStringLiteral("1"));
}

void TestTensorInspector::exportRoundTrip_data()
{
    QTest::addColumn<int>("dtype");
    QTest::newRow("float32") << int(DataType::Float32);
    QTest::newRow("float16") << int(DataType::Float16);
    QTest::newRow("int64") << int(DataType::Int64);
    QTest::newRow("bool") << int(DataType::Bool);
}

void TestTensorInspector::exportRoundTrip()
{
    QFETCH(int, dtype);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Tensor t = arange({ 2, 3, 4 }, DataType(dtype));
    TensorInspector inspector;
    inspector.setTensor(t, "x");
    const QString path = dir.filePath("x.npy");
    QString error;
    QVERIFY2(inspector.exportTo(path, &error), qPrintable(error));
    std::string readError;
    const Tensor back = NpyIO::read(path.toStdString(), readError);
    QVERIFY2(back.defined(), readError.c_str());
    QCOMPARE(back.dtype(), t.dtype());
    QCOMPARE(back.shape(), t.shape());
    QCOMPARE(back.toDoubles(), t.toDoubles());
    QVERIFY(!inspector.exportTo(dir.filePath("no/such/dir/x.npy"), &error));
    QVERIFY(!error.isEmpty());
    inspector.clear();
    QVERIFY(!inspector.exportTo(path, &error));
}

void TestTensorInspector::statsArriveAsynchronously()
{
    TensorInspector inspector;
    std::atomic<QThread *> statsThread = nullptr;
    std::atomic<int> bins = 0;
    inspector.setStatsFunction([&](const Tensor &t, int b) {
        statsThread = QThread::currentThread();
        bins = b;
        return computeStatsHost(t, b);
    });
    QSignalSpy ready(&inspector, &TensorInspector::statsReady);
    inspector.setTensor(tensorOf({ 4 }, { -2, 0, 2, kNan }), "v");
    QVERIFY(inspector.statsPending());
    QVERIFY(!inspector.stats().has_value());
    QTRY_COMPARE(ready.count(), 1);
    QVERIFY(statsThread.load() != nullptr);
    QVERIFY(statsThread.load() != QThread::currentThread());
    QCOMPARE(bins.load(), TensorInspector::HistogramBins);
    QVERIFY(!inspector.statsPending());
    QCOMPARE(inspector.stats()->nanCount, int64_t(1));
    QCOMPARE(inspector.statsPanel()->field("Min"), QStringLiteral("-2"));
    QCOMPARE(inspector.statsPanel()->field("NaN"), QStringLiteral("1"));
    QCOMPARE(int(inspector.histogram()->counts().size()), TensorInspector::HistogramBins);

    // A newer tensor supersedes a running computation: only its statistics land.
    inspector.setTensor(tensorOf({ 2 }, { 5, 6 }), "w");
    inspector.setTensor(tensorOf({ 2 }, { 7, 9 }), "w");
    QTRY_VERIFY(!inspector.statsPending());
    QCOMPARE(inspector.stats()->min, 7.0);
    QCOMPARE(inspector.statsPanel()->field("Max"), QStringLiteral("9"));
}

void TestTensorInspector::statsFailureIsReported()
{
    TensorInspector inspector;
    QSignalSpy failed(&inspector, &TensorInspector::statsFailed);
    inspector.setTensor(Tensor::zeros({ 2 }, DataType::Complex64), "z");
    QTRY_COMPARE(failed.count(), 1);
    QVERIFY2(inspector.statsError().contains("complex64"), qPrintable(inspector.statsError()));
    QVERIFY(inspector.message().contains("cannot be displayed"));
    QCOMPARE(inspector.sliceModel()->rowCount(), 0);
}

void TestTensorInspector::deviceTensorNeedsHostCopy()
{
    FakeDeviceAllocator device;
    const Tensor host = arange({ 3, 4 });
    const Tensor onDevice = toFakeDevice(host, device);
    QVERIFY(onDevice.device().isCuda());

    TensorInspector inspector;
    inspector.setTensor(onDevice, "d");
    QCOMPARE(inspector.message(), QStringLiteral("device tensor; copy to host to show values"));
    QCOMPARE(inspector.sliceModel()->rowCount(), 0);
    QCOMPARE(inspector.statsPanel()->field("Device"), QStringLiteral("CUDA:0"));
    QVERIFY(!inspector.statsPending()); // computeStatsHost must not read device memory

    // With a stats function (Backend::stats in the debugger) the device tensor itself is summarised.
    std::atomic<bool> sawDevice = false;
    inspector.setStatsFunction([&](const Tensor &t, int bins) {
        sawDevice = t.device().isCuda();
        return computeStatsHost(fakeHostCopy(t), bins);
    });
    int copies = 0;
    inspector.setHostCopyFunction([&](const Tensor &t) {
        ++copies;
        return fakeHostCopy(t);
    });
    QSignalSpy ready(&inspector, &TensorInspector::statsReady);
    inspector.setTensor(onDevice, "d");
    QCOMPARE(copies, 1);
    QVERIFY(inspector.message().isEmpty());
    QVERIFY(inspector.hostTensor().device().isCpu());
    QCOMPARE(inspector.sliceModel()->rowCount(), 3);
    QCOMPARE(inspector.sliceModel()->index(2, 3).data().toString(), QStringLiteral("11"));
    QTRY_COMPARE(ready.count(), 1);
    QVERIFY(sawDevice.load());
    QCOMPARE(inspector.statsPanel()->field("Max"), QStringLiteral("11"));
}

void TestTensorInspector::sliceControlsSwapAxes()
{
    TensorInspector inspector;
    inspector.setTensor(arange({ 2, 3, 4 }));
    SliceControls *controls = inspector.sliceControls();
    QCOMPARE(controls->rowAxis(), 1);
    QCOMPARE(controls->columnAxis(), 2);
    QVERIFY(controls->indexBox(0));
    QVERIFY(!controls->indexBox(1));
    controls->indexBox(0)->setValue(1);
    QCOMPARE(inspector.sliceModel()->index(0, 0).data().toString(), QStringLiteral("12"));

    // Picking the column axis for the rows swaps the two.
    auto *rowCombo = controls->findChild<QComboBox *>("rowAxis");
    QVERIFY(rowCombo);
    rowCombo->setCurrentIndex(rowCombo->findData(2));
    QCOMPARE(inspector.slice().rowAxis(), 2);
    QCOMPARE(inspector.slice().columnAxis(), 1);
    QCOMPARE(inspector.sliceModel()->rowCount(), 4);
    QCOMPARE(inspector.sliceModel()->index(3, 2).data().toString(), QString::number(12 + 2 * 4 + 3));

    // Axis 1 becomes fixed; axis 0 keeps its index.
    inspector.setSliceAxes(2, -1);
    QVERIFY(controls->indexBox(1));
    inspector.setFixedIndex(1, 2);
    QCOMPARE(inspector.slice().fixedIndex(0), int64_t(1));
    QCOMPARE(inspector.sliceModel()->columnCount(), 1);
    QCOMPARE(inspector.sliceModel()->index(3, 0).data().toString(), QString::number(12 + 8 + 3));

    // The next tensor of the same shape keeps the slice; another shape gets the default one.
    inspector.setTensor(arange({ 2, 3, 4 }, DataType::Int32));
    QCOMPARE(inspector.slice().rowAxis(), 2);
    QCOMPARE(inspector.slice().columnAxis(), -1);
    QCOMPARE(inspector.slice().fixedIndices(), (std::vector<int64_t> { 1, 2, 0 }));
    QCOMPARE(controls->indexBox(1)->value(), 2);
    QCOMPARE(controls->indexBox(0)->value(), 1);
    QCOMPARE(inspector.sliceModel()->index(3, 0).data().toString(), QString::number(12 + 8 + 3));
    inspector.setTensor(arange({ 2, 3, 5 }));
    QCOMPARE(inspector.slice().rowAxis(), 1);
    QCOMPARE(inspector.slice().columnAxis(), 2);
    QCOMPARE(controls->indexBox(0)->value(), 0);
}

void TestTensorInspector::hugeTensorOpensLazily()
{
    const int64_t side = 8192; // 64M float32 elements, 256 MiB
    Tensor big = Tensor::zeros({ side, side }, DataType::Float32);
    big.data<float>()[123 * side + 456] = std::numeric_limits<float>::quiet_NaN();

    TensorInspector inspector;
    inspector.resize(1000, 700);
    inspector.show();
    QVERIFY(QTest::qWaitForWindowExposed(&inspector));
    QSignalSpy ready(&inspector, &TensorInspector::statsReady);

    QElapsedTimer timer;
    timer.start();
    inspector.setTensor(big, "big");
    const TensorSliceModel *model = inspector.sliceModel();
    int cells = 0;
    for (int r = 100; r < 150; ++r)
        for (int c = 440; c < 460; ++c, ++cells)
            model->index(r, c).data(Qt::DisplayRole);
    const qint64 openNs = timer.nsecsElapsed();
    QVERIFY(inspector.statsPending()); // the 64M-element pass runs elsewhere
    QCOMPARE(model->rowCount(), int(side));
    QCOMPARE(model->index(123, 456).data().toString(), QStringLiteral("nan"));
    QCoreApplication::processEvents(); // let the view lay out and paint its visible page
    const qint64 paintedNs = timer.nsecsElapsed();

    QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 60000);
    const qint64 statsNs = timer.nsecsElapsed();
    QCOMPARE(inspector.stats()->nanCount, int64_t(1));

    QSignalSpy rendered(inspector.heatmap(), &TensorHeatmap::rendered);
    timer.restart();
    inspector.setCurrentTab(TensorInspector::Tab::Heatmap);
    const qint64 tabNs = timer.nsecsElapsed();
    QTRY_COMPARE_WITH_TIMEOUT(rendered.count(), 1, 60000);
    const qint64 heatmapNs = timer.nsecsElapsed();
    QCOMPARE(inspector.heatmap()->rendering().image.size(), QSize(1024, 1024));
    QCOMPARE(inspector.heatmap()->rendering().nanCount, int64_t(1));

    qInfo("64M float32 [8192, 8192]: setTensor + %d cells %.2f ms, + first paint %.2f ms on the UI thread; "
          "stats ready after %.0f ms (worker); heatmap tab switch %.2f ms, 1024x1024 render ready after %.0f "
          "ms "
          "(worker)",
        cells, openNs / 1e6, paintedNs / 1e6, statsNs / 1e6, tabNs / 1e6, heatmapNs / 1e6);
}

void TestTensorInspector::screenshots()
{
    // Writes PNGs of the Table, Heatmap and Histogram tabs (no image comparison) to a temp dir,
    // or to $PIRSCOPE_SCREENSHOT_DIR to look at them.
    QTemporaryDir temp;
    const QString dir = qEnvironmentVariableIsSet("PIRSCOPE_SCREENSHOT_DIR")
        ? qEnvironmentVariable("PIRSCOPE_SCREENSHOT_DIR")
        : temp.path();
    TensorInspector inspector;
    inspector.resize(1100, 640);
    inspector.show();
    QVERIFY(QTest::qWaitForWindowExposed(&inspector));
    QSignalSpy ready(&inspector, &TensorInspector::statsReady);
    inspector.setTensor(gradients(), "conv2d_3.tmp_1");
    inspector.setFixedIndex(0, 1);
    QCOMPARE(inspector.slice().fixedIndex(0), int64_t(1));
    QTRY_COMPARE(ready.count(), 1);
    inspector.tableView()->scrollTo(
        inspector.sliceModel()->index(10, 10), QAbstractItemView::PositionAtCenter);

    const auto save = [&](const QString &name) {
        const QString path = dir + "/inspector_" + name + ".png";
        QVERIFY2(inspector.grab().save(path), qPrintable(path));
        QVERIFY(QFileInfo(path).size() > 0);
    };
    save("table");
    QSignalSpy rendered(inspector.heatmap(), &TensorHeatmap::rendered);
    inspector.setCurrentTab(TensorInspector::Tab::Heatmap);
    QTRY_COMPARE(rendered.count(), 1);
    save("heatmap");
    inspector.findChild<QCheckBox *>("divergingScale")->setChecked(true);
    QTRY_COMPARE(rendered.count(), 2);
    save("heatmap_diverging");
    inspector.setCurrentTab(TensorInspector::Tab::Histogram);
    save("histogram");
    Tensor other = gradients();
    for (int i = 0; i < 64; ++i)
        other.data<float>()[64 * 64 + i * 64 + (i * 7) % 64] += 0.05f * float(i % 5);
    QSignalSpy finished(&inspector, &TensorInspector::compareFinished);
    inspector.compareWith(other, "reference");
    QTRY_COMPARE(finished.count(), 1);
    QTRY_VERIFY(!inspector.comparePanel()->diffHeatmap()->rendering().image.isNull());
    save("compare");
}

QTEST_MAIN(TestTensorInspector)
#include "tst_tensorinspector.moc"
