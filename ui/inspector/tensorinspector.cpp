#include "ui/inspector/tensorinspector.h"

#include "core/runtime/npyio.h"
#include "ui/common/devicetext.h"
#include "ui/common/dialogdirectory.h"
#include "ui/common/elidedlabel.h"
#include "ui/inspector/comparepanel.h"
#include "ui/inspector/histogramwidget.h"
#include "ui/inspector/slicecontrols.h"
#include "ui/inspector/tensorheatmap.h"
#include "ui/inspector/tensorslicemodel.h"
#include "ui/inspector/tensorstatspanel.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <exception>

namespace ps {

namespace {

struct StatsOutcome
{
    TensorStats stats;
    QString error;
};

} // namespace

TensorInspector::TensorInspector(QWidget *parent)
    : QWidget(parent)
    , m_header(new QLabel(this))
    , m_footer(new ElidedLabel(this))
    , m_statsPanel(new TensorStatsPanel(this))
    , m_sliceControls(new SliceControls(this))
    , m_tabs(new QTabWidget(this))
    , m_model(new TensorSliceModel(this))
{
    m_header->setTextFormat(Qt::RichText);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Long names wrap rather than widening the dock.
    m_header->setWordWrap(true);
    // "Compare with .npy…" is in the Compare tab, beside the tolerances it uses.
    auto *exportButton = new QPushButton(tr("Export .npy…"), this);
    exportButton->setObjectName(QStringLiteral("exportButton"));
    exportButton->setToolTip(tr("Save this tensor as a NumPy .npy file"));
    m_maximize = new QToolButton(this);
    m_maximize->setObjectName(QStringLiteral("inspectorMaximize"));
    m_maximize->setText(QStringLiteral("\u2922"));
    m_maximize->setCheckable(true);
    m_maximize->setToolTip(tr("Maximise the inspector: the window's other panels out of the way until "
                              "clicked again"));
    connect(m_maximize, &QToolButton::toggled, this, &TensorInspector::maximizeToggled);
    m_headerRow = new QHBoxLayout;
    m_headerRow->addWidget(m_header, 1);
    m_headerRow->addWidget(exportButton);
    m_headerRow->addWidget(m_maximize);

    m_tabs->addTab(buildTableTab(), tr("Table"));
    m_tabs->addTab(buildHeatmapTab(), tr("Heatmap"));
    m_tabs->addTab(buildHistogramTab(), tr("Histogram"));
    m_comparePanel = new ComparePanel(this);
    m_tabs->addTab(m_comparePanel, tr("Compare"));

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    // The slice's size and the inspector's messages at the end of the slicing row.
    // The controls scroll sideways: a 4-d tensor's axis boxes must not set the inspector's (and
    // with it the main window's) minimum width.
    auto *sliceScroll = new QScrollArea(this);
    sliceScroll->setObjectName(QStringLiteral("sliceScroll"));
    sliceScroll->setWidget(m_sliceControls);
    sliceScroll->setWidgetResizable(true);
    sliceScroll->setFrameShape(QFrame::NoFrame);
    sliceScroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    sliceScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    sliceScroll->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    sliceScroll->setFixedHeight(
        m_sliceControls->sizeHint().height() + sliceScroll->horizontalScrollBar()->sizeHint().height());
    sliceScroll->setMinimumWidth(120);
    auto *sliceRow = new QHBoxLayout;
    sliceRow->addWidget(sliceScroll, 1);
    sliceRow->addWidget(m_footer);
    rightLayout->addLayout(sliceRow);
    rightLayout->addWidget(m_tabs, 1);
    // The statistics scroll: twelve rows must not set the inspector's minimum height.
    auto *stats = new QScrollArea(this);
    stats->setObjectName(QStringLiteral("statsScroll"));
    stats->setWidget(m_statsPanel);
    stats->setWidgetResizable(true);
    stats->setFrameShape(QFrame::NoFrame);
    stats->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Room for "Device: float32[1, 16, 56, 56]"-long fields.
    stats->setMinimumWidth(
        fontMetrics().averageCharWidth() * 24 + stats->verticalScrollBar()->sizeHint().width());
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(stats);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);

    m_footer->setObjectName(QStringLiteral("inspectorFooter"));
    m_footer->setForegroundRole(QPalette::PlaceholderText);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(m_headerRow);
    layout->addWidget(splitter, 1);

    connect(exportButton, &QPushButton::clicked, this, &TensorInspector::exportInteractive);
    connect(m_comparePanel, &ComparePanel::compareFileRequested, this,
        &TensorInspector::compareWithFileInteractive);
    connect(m_comparePanel, &ComparePanel::tolerancesChanged, this, &TensorInspector::rerunCompare);
    connect(m_sliceControls, &SliceControls::axesChanged, this, [this](int row, int column) {
        m_model->setAxes(row, column, m_sliceControls->fixedIndices());
        sliceChanged();
    });
    connect(m_sliceControls, &SliceControls::fixedIndexChanged, this, [this](int axis, int64_t index) {
        m_model->setFixedIndex(axis, index);
        sliceChanged();
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] { refreshHeatmap(); });
    clear();
}

TensorInspector::~TensorInspector() = default;

QWidget *TensorInspector::buildTableTab()
{
    m_tableStack = new QStackedWidget(this);
    m_table = new QTableView(m_tableStack);
    m_table->setModel(m_model);
    m_table->setWordWrap(false);
    m_table->setCornerButtonEnabled(false);
    const QFontMetrics fm = m_table->fontMetrics();
    m_table->verticalHeader()->setDefaultSectionSize(fm.height() + 6);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->horizontalHeader()->setDefaultSectionSize(
        fm.horizontalAdvance(QStringLiteral("-0.000123457")) + 14);
    m_tableMessage = new QLabel(m_tableStack);
    m_tableMessage->setAlignment(Qt::AlignCenter);
    m_tableMessage->setWordWrap(true);
    m_tableMessage->setObjectName(QStringLiteral("tableMessage"));
    m_tableStack->setMinimumSize(80, 30);
    m_tableStack->addWidget(m_table);
    m_tableStack->addWidget(m_tableMessage);
    return m_tableStack;
}

QWidget *TensorInspector::buildHeatmapTab()
{
    auto *page = new QWidget(this);
    auto *scroll = new QScrollArea(page);
    scroll->setObjectName(QStringLiteral("heatmapScroll"));
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    m_heatmap = new TensorHeatmap(scroll);
    scroll->setWidget(m_heatmap);
    scroll->setMinimumSize(80, 30);
    m_diverging = new QCheckBox(tr("Diverging scale (symmetric around 0)"), page);
    m_diverging->setObjectName(QStringLiteral("divergingScale"));
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_diverging, 1);
    // Fit (the default), or zoomed with the picture scrolling (drag pans, Ctrl+wheel zooms).
    const auto button = [page, bar](const QString &text, const QString &tip, const char *name) {
        auto *b = new QToolButton(page);
        b->setText(text);
        b->setToolTip(tip);
        b->setObjectName(QLatin1String(name));
        bar->addWidget(b);
        return b;
    };
    QToolButton *fit = button(tr("Fit"), tr("Fit the heatmap to the view (0)"), "heatmapFit");
    QToolButton *out = button(QStringLiteral("\u2212"), tr("Zoom out (-, Ctrl+wheel)"), "heatmapZoomOut");
    QToolButton *in
        = button(QStringLiteral("+"), tr("Zoom in (+, Ctrl+wheel); drag to pan"), "heatmapZoomIn");
    connect(fit, &QToolButton::clicked, m_heatmap, [this] { m_heatmap->setZoom(0); });
    connect(out, &QToolButton::clicked, m_heatmap, [this] { m_heatmap->zoomBy(0.8); });
    connect(in, &QToolButton::clicked, m_heatmap, [this] { m_heatmap->zoomBy(1.25); });
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(scroll, 1);
    connect(m_diverging, &QCheckBox::toggled, this, [this](bool on) {
        m_heatmap->setColorMap(on ? ColorMap::Kind::Diverging : ColorMap::Kind::Sequential);
    });
    return page;
}

QWidget *TensorInspector::buildHistogramTab()
{
    auto *page = new QWidget(this);
    m_histogram = new HistogramWidget(page);
    auto *log = new QCheckBox(tr("Logarithmic counts"), page);
    log->setObjectName(QStringLiteral("logCounts"));
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(log);
    layout->addWidget(m_histogram, 1);
    connect(log, &QCheckBox::toggled, m_histogram, &HistogramWidget::setLogScale);
    return page;
}

void TensorInspector::setStatsFunction(StatsFunction fn)
{
    m_statsFn = std::move(fn);
}

void TensorInspector::setHostCopyFunction(HostCopyFunction fn)
{
    m_hostCopyFn = std::move(fn);
}

void TensorInspector::clear()
{
    setTensor(Tensor());
}

void TensorInspector::setTensor(const Tensor &tensor, const QString &name, const QString &exportName)
{
    const TensorSlice previous = m_model->slice();
    m_tensor = tensor;
    m_name = name;
    m_exportName = exportName;
    m_host = Tensor();
    m_message.clear();
    m_stats.reset();
    m_statsError.clear();
    m_reference = Tensor();
    m_referenceLabel.clear();
    m_comparison = TensorCompare::Result();
    ++m_compareGeneration;

    if (!tensor.defined()) {
        m_message = tr("no tensor");
    } else if (tensor.device().isCpu()) {
        m_host = tensor;
    } else if (m_hostCopyFn) {
        try {
            m_host = m_hostCopyFn(tensor);
        } catch (const std::exception &e) {
            m_message = tr("host copy failed: %1").arg(QString::fromUtf8(e.what()));
        }
    } else {
        m_message = tr("device tensor; copy to host to show values");
    }
    if (m_host.defined() && !TensorSlice::canRead(m_host)) {
        m_message = tr("%1 values cannot be displayed").arg(QString::fromUtf8(phiName(m_host.dtype())));
    }

    QString header
        = name.isEmpty() ? QString() : QStringLiteral("<b>%1</b>&nbsp;&nbsp;").arg(name.toHtmlEscaped());
    if (tensor.defined())
        header += QStringLiteral("%1 &nbsp;·&nbsp; %2")
                      .arg(QString::fromStdString(tensor.describe()).toHtmlEscaped(),
                          DeviceText::of(tensor.device()));
    m_header->setText(header.isEmpty() ? tr("<i>no tensor</i>") : header);
    m_statsPanel->setTensor(tensor);

    m_model->setTensor(m_message.isEmpty() ? m_host : Tensor());
    const TensorSlice &s = m_model->slice();
    // Stepping through a run shows tensor after tensor of one shape: keep the slice the user chose.
    if (s.valid() && previous.valid() && previous.tensor().shape() == m_host.shape())
        m_model->setAxes(previous.rowAxis(), previous.columnAxis(), previous.fixedIndices());
    m_sliceControls->setShape(s.valid() ? m_host.shape() : std::vector<int64_t>(), s.rowAxis(),
        s.columnAxis(), s.valid() ? s.fixedIndices() : std::vector<int64_t>());
    m_tableMessage->setText(m_message);
    m_tableStack->setCurrentWidget(m_message.isEmpty() ? static_cast<QWidget *>(m_table) : m_tableMessage);
    m_comparePanel->clear();
    m_comparePanel->setSliceGeometry(s.rowAxis(), s.columnAxis(), s.fixedIndices());
    m_heatmapDirty = true;
    refreshHeatmap();
    startStats();
    updateFooter();
}

const TensorSlice &TensorInspector::slice() const
{
    return m_model->slice();
}

void TensorInspector::setSliceAxes(int rowAxis, int columnAxis)
{
    m_sliceControls->setAxes(rowAxis, columnAxis);
}

void TensorInspector::setFixedIndex(int axis, int64_t index)
{
    m_sliceControls->setFixedIndex(axis, index);
}

void TensorInspector::sliceChanged()
{
    const TensorSlice &s = m_model->slice();
    m_comparePanel->setSliceGeometry(s.rowAxis(), s.columnAxis(), s.fixedIndices());
    m_heatmapDirty = true;
    refreshHeatmap();
    updateFooter();
}

void TensorInspector::addHeaderWidget(QWidget *widget)
{
    m_headerRow->insertWidget(m_headerRow->count() - 2, widget); // before Export and ⤢
}

void TensorInspector::setCurrentTab(Tab tab)
{
    m_tabs->setCurrentIndex(int(tab));
}

TensorInspector::Tab TensorInspector::currentTab() const
{
    return Tab(m_tabs->currentIndex());
}

void TensorInspector::refreshHeatmap()
{
    // Rendered only while its tab is shown: a huge tensor costs nothing until then.
    if (!m_heatmapDirty || currentTab() != Tab::Heatmap)
        return;
    m_heatmapDirty = false;
    if (m_model->slice().valid())
        m_heatmap->setSlice(m_model->slice());
    else
        m_heatmap->clear(m_message);
}

void TensorInspector::updateFooter()
{
    QStringList parts;
    if (m_model->slice().valid()) {
        const QLocale c = QLocale::c();
        parts << tr("slice %1 × %2")
                     .arg(c.toString(qlonglong(m_model->sliceRows())),
                         c.toString(qlonglong(m_model->sliceColumns())));
        if (m_model->truncated())
            parts << tr("the table shows at most %1 rows and %2 columns; pick other axes to see the rest")
                         .arg(
                             c.toString(TensorSliceModel::MaxRows), c.toString(TensorSliceModel::MaxColumns));
    }
    if (!m_statsError.isEmpty())
        parts << tr("statistics: %1").arg(m_statsError);
    else if (statsPending())
        parts << tr("computing statistics…");
    m_footer->setText(parts.join(QStringLiteral("  ·  ")));
}

void TensorInspector::startStats()
{
    const int generation = ++m_statsGeneration;
    m_histogram->clear();
    if (!m_tensor.defined())
        return;
    Tensor target = m_tensor;
    StatsFunction fn = m_statsFn;
    if (!fn) {
        if (!m_host.defined()) {
            m_statsError = tr("not available for a device tensor without a host copy");
            m_statsPanel->setStatsUnavailable(tr("n/a"));
            m_histogram->clear(m_statsError);
            return;
        }
        target = m_host;
        fn = [](const Tensor &t, int bins) { return computeStatsHost(t, bins); };
    }
    m_histogram->clear(tr("computing statistics…"));
    ++m_statsPending;
    auto *watcher = new QFutureWatcher<StatsOutcome>(this);
    connect(watcher, &QFutureWatcher<StatsOutcome>::finished, this, [this, watcher, generation] {
        --m_statsPending;
        watcher->deleteLater();
        if (generation != m_statsGeneration)
            return;
        const StatsOutcome outcome = watcher->result();
        if (!outcome.error.isEmpty()) {
            m_statsError = outcome.error;
            m_statsPanel->setStatsUnavailable(tr("n/a"));
            m_histogram->clear(outcome.error);
            updateFooter();
            emit statsFailed(outcome.error);
            return;
        }
        m_stats = outcome.stats;
        m_statsPanel->setStats(outcome.stats);
        m_histogram->setStats(outcome.stats);
        updateFooter();
        emit statsReady();
    });
    watcher->setFuture(QtConcurrent::run([fn, target] {
        StatsOutcome out;
        try {
            out.stats = fn(target, HistogramBins);
        } catch (const std::exception &e) {
            out.error = QString::fromUtf8(e.what());
        }
        return out;
    }));
}

bool TensorInspector::exportTo(const QString &path, QString *error)
{
    std::string message;
    if (!m_host.defined())
        message = m_message.isEmpty() ? "no host tensor to export" : m_message.toStdString();
    else if (NpyIO::write(path.toStdString(), m_host, message))
        return true;
    if (error)
        *error = QString::fromStdString(message);
    return false;
}

void TensorInspector::compareWith(const Tensor &reference, const QString &label)
{
    m_reference = reference;
    m_referenceLabel = label.isEmpty() ? tr("reference") : label;
    if (m_reference.defined() && !m_reference.device().isCpu() && m_hostCopyFn) {
        try {
            m_reference = m_hostCopyFn(m_reference);
        } catch (const std::exception &e) {
            m_comparePanel->setMessage(
                tr("host copy of the reference failed: %1").arg(QString::fromUtf8(e.what())));
            m_reference = Tensor();
            return;
        }
    }
    setCurrentTab(Tab::Compare);
    rerunCompare();
}

void TensorInspector::rerunCompare()
{
    if (m_referenceLabel.isEmpty())
        return;
    TensorCompare::Options options;
    options.rtol = m_comparePanel->rtol();
    options.atol = m_comparePanel->atol();
    options.nameA = (m_name.isEmpty() ? tr("this") : m_name).toStdString();
    options.nameB = m_referenceLabel.toStdString();
    const int generation = ++m_compareGeneration;
    ++m_comparePending;
    m_comparePanel->setMessage(tr("comparing with %1…").arg(m_referenceLabel));
    auto *watcher = new QFutureWatcher<TensorCompare::Result>(this);
    connect(watcher, &QFutureWatcher<TensorCompare::Result>::finished, this, [this, watcher, generation] {
        --m_comparePending;
        watcher->deleteLater();
        if (generation != m_compareGeneration)
            return;
        m_comparison = watcher->result();
        m_comparePanel->setResult(m_comparison);
        emit compareFinished();
    });
    const Tensor a = m_host, b = m_reference;
    watcher->setFuture(QtConcurrent::run([a, b, options] { return TensorCompare::compare(a, b, options); }));
}

bool TensorInspector::compareWithFile(const QString &path, QString *error)
{
    std::string message;
    const Tensor reference = NpyIO::read(path.toStdString(), message);
    if (!reference.defined()) {
        const QString text = QString::fromStdString(message);
        m_comparePanel->setMessage(tr("<b>Cannot read</b> %1").arg(text.toHtmlEscaped()));
        if (error)
            *error = text;
        return false;
    }
    compareWith(reference, QFileInfo(path).fileName());
    return true;
}

void TensorInspector::setTolerances(double rtol, double atol)
{
    m_comparePanel->setTolerances(rtol, atol);
    rerunCompare();
}

QString TensorInspector::exportFileName() const
{
    QString stem = m_exportName.isEmpty() ? m_name : m_exportName;
    // A file name, not a label: no "%", spaces, brackets or path separators.
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9_.@-]+"));
    stem.replace(unsafe, QStringLiteral("_"));
    while (stem.startsWith(QLatin1Char('_')) || stem.startsWith(QLatin1Char('.')))
        stem.remove(0, 1);
    while (stem.endsWith(QLatin1Char('_')))
        stem.chop(1);
    return (stem.isEmpty() ? QStringLiteral("tensor") : stem) + QStringLiteral(".npy");
}

void TensorInspector::exportInteractive()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export tensor"),
        DialogDirectory::suggest(QStringLiteral("arrays"), exportFileName()), tr("NumPy arrays (*.npy)"));
    if (path.isEmpty())
        return;
    DialogDirectory::remember(QStringLiteral("arrays"), path);
    QString error;
    m_footer->setText(
        exportTo(path, &error) ? tr("exported to %1").arg(path) : tr("export failed: %1").arg(error));
}

void TensorInspector::compareWithFileInteractive()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Compare with a .npy file"),
        DialogDirectory::get(QStringLiteral("arrays")), tr("NumPy arrays (*.npy);;All files (*)"));
    if (!path.isEmpty()) {
        DialogDirectory::remember(QStringLiteral("arrays"), path);
        compareWithFile(path);
    }
    setCurrentTab(Tab::Compare);
}

} // namespace ps
