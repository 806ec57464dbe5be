#include "ui/memorypanel.h"

#include "core/session/memorymodel.h"
#include "ui/common/elidedlabel.h"
#include "ui/memorychart.h"
#include "ui/memoryvaluesmodel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLocale>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace ps {

namespace {

QString bytesText(int64_t bytes)
{
    return QLocale().formattedDataSize(bytes, 2, QLocale::DataSizeSIFormat);
}

} // namespace

MemoryPanel::MemoryPanel(QWidget *parent)
    : QWidget(parent)
    , m_summary(new ElidedLabel(this))
    , m_chart(new MemoryChart(this))
    , m_list(new QComboBox(this))
    , m_onGraph(new QCheckBox(tr("Show on the graph"), this))
    , m_freeAsPaddle(new QCheckBox(tr("Debug runs free as Paddle"), this))
    , m_values(new MemoryValuesModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
{
    setObjectName(QStringLiteral("memoryPanel"));
    m_summary->setObjectName(QStringLiteral("memorySummary"));
    m_list->setObjectName(QStringLiteral("memoryList"));
    m_list->addItems({ tr("Kept for the backward"), tr("Largest at the peak"), tr("Unknown size") });
    m_proxy->setSourceModel(m_values);
    m_proxy->setSortRole(MemoryValuesModel::SortRole);
    m_table->setObjectName(QStringLiteral("memoryValues"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);

    auto *side = new QWidget(this);
    auto *sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->setSpacing(2);
    // Stacked, not side by side: beside the debugger's dock at 1280 px the panel must stay narrow.
    sideLayout->addWidget(m_list);
    sideLayout->addWidget(m_table, 1);
    sideLayout->addWidget(m_onGraph);
    sideLayout->addWidget(m_freeAsPaddle);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_chart);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(3);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);
    connect(m_list, &QComboBox::currentIndexChanged, this, [this](int i) { showList(List(i)); });
    m_onGraph->setObjectName(QStringLiteral("memoryOnGraph"));
    m_onGraph->setToolTip(
        tr("A purple bar under each forward op (or closed layer) for the bytes it keeps for "
           "the backward, as long as its share of the total"));
    m_onGraph->setChecked(QSettings().value(QStringLiteral("memory/showOnGraph"), false).toBool());
    connect(m_onGraph, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue(QStringLiteral("memory/showOnGraph"), on);
        emit showOnGraphChanged(on);
    });
    m_freeAsPaddle->setObjectName(QStringLiteral("memoryFreeAsPaddle"));
    m_freeAsPaddle->setToolTip(
        tr("The debugger frees each value after its last read and runs inplace_pass's ops in place, "
           "as Paddle's executor does, so the bytes it measures (the line over the prediction) are "
           "a Paddle run's. Freed values are gone from the inspector. Takes effect at the next start."));
    m_freeAsPaddle->setChecked(QSettings().value(QStringLiteral("memory/freeAsPaddle"), false).toBool());
    connect(m_freeAsPaddle, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue(QStringLiteral("memory/freeAsPaddle"), on);
        emit freeAsPaddleChanged(on);
    });
    auto activated = [this](const QModelIndex &index) {
        if (index.isValid())
            emit valueActivated(index.data(MemoryValuesModel::OpLabelRole).toString());
    };
    connect(m_table, &QTableView::clicked, this, activated);
    connect(m_table, &QTableView::activated, this, activated);
    setReport(nullptr, tr("No memory model: open a program"));
}

void MemoryPanel::showList(List list)
{
    if (m_list->currentIndex() != int(list)) {
        m_list->setCurrentIndex(int(list)); // comes back here
        return;
    }
    if (!m_report) {
        m_values->setValues({});
        return;
    }
    m_values->setValues(list == List::Kept ? m_report->kept
            : list == List::TopAtPeak      ? m_report->topAtPeak
                                           : m_report->unknown);
    m_table->sortByColumn(MemoryValuesModel::Bytes, Qt::DescendingOrder);
    m_table->resizeColumnsToContents();
}

void MemoryPanel::setMeasured(std::vector<int64_t> bytes, bool asPaddle)
{
    int64_t most = -1;
    for (int64_t b : bytes)
        most = std::max(most, b);
    m_chart->setMeasured(std::move(bytes), asPaddle);
    if (!m_report)
        return;
    QString text = m_summaryText;
    if (most >= 0)
        text += (asPaddle ? tr(" \u00b7 measured so far %1 (%2\u00d7)")
                          : tr(" \u00b7 measured so far %1 (%2\u00d7, values kept)"))
                    .arg(bytesText(most))
                    .arg(m_report->peakBytes > 0 ? double(most) / double(m_report->peakBytes) : 0.0, 0, 'f',
                        2);
    m_summary->setText(text);
}

void MemoryPanel::setReport(std::shared_ptr<const MemoryReport> report, const QString &why)
{
    m_chart->setReport(report);
    m_chart->setMeasured({}, true);
    m_report = report;
    // A train step lists what the forward keeps; an inference run what is alive at its peak.
    showList(report && report->mode != "train" ? List::TopAtPeak : List(m_list->currentIndex()));
    if (!report) {
        m_summary->setText(why);
        return;
    }
    const MemoryReport &r = *report;
    QString text
        = tr("%1 \u00b7 peak %2 at %3 %4 \u00b7 baseline %5")
              .arg(r.mode == "train" ? tr("Train step (forward, then backward)") : tr("Inference run"),
                  bytesText(r.peakBytes), QString::fromStdString(r.peakOp),
                  QString::fromStdString(r.peakOpName), bytesText(r.baselineBytes));
    if (r.mode == "train")
        text += tr(" \u00b7 kept after the forward %1").arg(bytesText(r.keptAfterForwardBytes));
    text += tr(" \u00b7 after the step %1").arg(bytesText(r.afterStepBytes));
    if (!r.unknown.empty())
        text += tr(" \u00b7 %n value(s) of unknown size not counted", nullptr, int(r.unknown.size()));
    m_summaryText = text;
    m_summary->setText(text);
    m_summary->setDescription(
        tr("As Paddle's executor allocates it on the CPU: each value freed after its last "
           "read, inplace ops reusing their input, the backward's inputs kept across the cut"));
}

} // namespace ps
