#include "ui/runlogpanel.h"

#include "core/io/tracebundle.h"
#include "ui/columnwidths.h"
#include "ui/common/elidedlabel.h"
#include "ui/common/itemroles.h"
#include "ui/intermediatesmodel.h"
#include "ui/intermediatesresult.h"
#include "ui/render/graphstyle.h"
#include "ui/runlogmodel.h"
#include "ui/runlogresult.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace ps {

namespace {

QLabel *swatch(const QColor &color, const QString &text, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setTextFormat(Qt::RichText);
    label->setText(QStringLiteral("<span style=\"color:%1\">\u25a0</span>&nbsp;%2")
                       .arg(color.name(), text.toHtmlEscaped()));
    return label;
}

} // namespace

RunLogPanel::RunLogPanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new RunLogModel(this))
    , m_intermediates(new IntermediatesModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView(this))
    , m_summary(new ElidedLabel(this))
    , m_legend(new QWidget(this))
    , m_buttons(new QWidget(this))
    , m_verdict(new QLabel(this))
{
    m_verdict->setObjectName(QStringLiteral("runLogVerdict"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_verdict->hide();
    setObjectName(QStringLiteral("runLogPanel"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(RunLogModel::SortRole);
    m_view->setObjectName(QStringLiteral("runLogView"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(RunLogModel::Error, Qt::DescendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 4);
    ColumnWidths::keepFitted(m_view, 30);
    m_summary->setObjectName(QStringLiteral("runLogSummary"));
    m_summary->setText(tr("Nothing to compare: File \u25b8 Compare with Paddle Run Log\u2026 or with "
                          "Paddle's Intermediates"));

    auto *legend = new QHBoxLayout(m_legend);
    legend->setContentsMargins(0, 0, 0, 0);
    legend->setSpacing(10);
    m_legend->setObjectName(QStringLiteral("runLogLegend"));
    m_legend->setToolTip(tr("How the graphs colour the ops compared with Paddle's run: their worst error "
                            "ratio (|Paddle \u2212 PIRScope| / tolerance)"));
    legend->addWidget(new QLabel(tr("Graph:"), m_legend));
    legend->addWidget(
        swatch(GraphStyle::accuracyColor(NodeMarks::Accuracy::Agrees), tr("< 0.1 tol"), m_legend));
    legend->addWidget(
        swatch(GraphStyle::accuracyColor(NodeMarks::Accuracy::Close), tr("\u2264 tol"), m_legend));
    legend->addWidget(
        swatch(GraphStyle::accuracyColor(NodeMarks::Accuracy::Divergent), tr("> tol"), m_legend));
    legend->addWidget(
        swatch(GraphStyle::accuracyColor(NodeMarks::Accuracy::NotCompared), tr("not computed"), m_legend));
    legend->addStretch(1);
    m_legend->hide();

    auto *buttons = new QHBoxLayout(m_buttons);
    buttons->setContentsMargins(0, 0, 0, 0);

    auto *top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(m_buttons);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(3);
    layout->addLayout(top);
    layout->addWidget(m_verdict);
    layout->addWidget(m_legend);
    layout->addWidget(m_view, 1);

    connect(m_view, &QTableView::clicked, this, &RunLogPanel::onRowActivated);
    connect(m_view, &QTableView::activated, this, &RunLogPanel::onRowActivated);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &RunLogPanel::onRowActivated);
}

void RunLogPanel::addButtons(const QList<QAction *> &actions)
{
    for (QAction *action : actions) {
        auto *button = new QToolButton(m_buttons);
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        button->setAutoRaise(true);
        m_buttons->layout()->addWidget(button);
    }
}

void RunLogPanel::setVerdict(const QString &text)
{
    m_verdict->setText(text);
    m_verdict->setVisible(!text.isEmpty());
}

long RunLogPanel::currentRecord() const
{
    if (m_proxy->sourceModel() != m_model)
        return -1;
    const QModelIndex index = m_proxy->mapToSource(m_view->currentIndex());
    return index.isValid() ? long(index.row()) : -1;
}

void RunLogPanel::showModel(QAbstractItemModel *model, int sortRole, int errorColumn)
{
    if (m_proxy->sourceModel() != model) {
        m_proxy->setSourceModel(model);
        m_proxy->setSortRole(sortRole);
    }
    m_view->sortByColumn(errorColumn, Qt::DescendingOrder);
}

void RunLogPanel::setSummary(const QString &text, bool stale, const QString &description)
{
    m_summary->setText(
        stale ? tr("(the programs it was checked against are no longer shown) ") + text : text);
    m_summary->setDescription(description);
}

void RunLogPanel::setResult(std::shared_ptr<const RunLogResult> result, bool stale)
{
    setVerdict({});
    m_intermediates->setResult(nullptr);
    m_model->setResult(result);
    showModel(m_model, RunLogModel::SortRole, RunLogModel::Error);
    m_legend->setVisible(result && result->ok());
    if (!result) {
        m_summary->setText(tr("Nothing to compare: File \u25b8 Compare with Paddle Run Log\u2026 or with "
                              "Paddle's Intermediates"));
        return;
    }
    setSummary(result->summary(), stale, result->path);
}

void RunLogPanel::setIntermediates(std::shared_ptr<const IntermediatesResult> result, bool stale)
{
    if (!result) {
        setResult(nullptr);
        return;
    }
    setVerdict({});
    m_model->setResult(nullptr);
    m_intermediates->setResult(result);
    showModel(m_intermediates, IntermediatesModel::SortRole, IntermediatesModel::Error);
    m_legend->setVisible(result->ok());
    setSummary(result->summary(), stale,
        result->target.bundle ? QString::fromStdString(result->target.bundle->dir()) : QString());
}

void RunLogPanel::setBusy(const QString &text)
{
    m_summary->setText(text);
}

void RunLogPanel::onRowActivated(const QModelIndex &index)
{
    if (const Operation *op = index.isValid() ? opFromIndex(index) : nullptr)
        emit opActivated(op);
}

} // namespace ps
