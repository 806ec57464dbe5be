#include "ui/oplistpanel.h"

#include "ui/columnwidths.h"
#include "ui/common/itemroles.h"
#include "ui/opfilterproxymodel.h"
#include "ui/oplistmodel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace ps {

OpListPanel::OpListPanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new OpListModel(this))
    , m_proxy(new OpFilterProxyModel(this))
    , m_search(new QLineEdit(this))
    , m_view(new QTableView(this))
    , m_parameters(new QToolButton(this))
    , m_emptyHint(new QLabel(this))
{
    m_proxy->setSourceModel(m_model);
    m_parameters->setObjectName(QStringLiteral("showParameters"));
    m_parameters->setCheckable(true);
    m_parameters->setAutoRaise(true);
    m_parameters->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_emptyHint->setObjectName(QStringLiteral("opListEmptyHint"));
    m_emptyHint->setWordWrap(true);
    m_emptyHint->setAlignment(Qt::AlignCenter);
    m_emptyHint->setForegroundRole(QPalette::PlaceholderText);
    m_emptyHint->hide();
    m_search->setObjectName(QStringLiteral("opSearch"));
    m_search->setPlaceholderText(tr("Find op, value name or %id"));
    m_search->setClearButtonEnabled(true);
    m_view->setObjectName(QStringLiteral("opList"));
    m_view->setModel(m_proxy);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 4);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    // Sized to the rows of each program; long names are elided in the middle (the row's tooltip
    // has them whole).
    ColumnWidths::keepFitted(m_view, 28);

    auto *row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_search, 1);
    row->addWidget(m_parameters);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(row);
    layout->addWidget(m_emptyHint);
    layout->addWidget(m_view, 1);

    setParametersShown(QSettings().value(QStringLiteral("opList/showParameters"), false).toBool());
    connect(m_parameters, &QToolButton::toggled, this, [this](bool on) {
        QSettings().setValue(QStringLiteral("opList/showParameters"), on);
        m_proxy->setHideParameters(!on);
        updateHints();
    });
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_proxy->setQuery(text);
        updateHints();
    });
    m_search->installEventFilter(this);
    connect(m_search, &QLineEdit::returnPressed, this, &OpListPanel::selectFirstMatch);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) { onCurrentChanged(current); });
    connect(m_view, &QTableView::activated, this, [this](const QModelIndex &index) {
        if (Operation *op = index.isValid() ? opFromIndex(index) : nullptr)
            emit opActivated(op);
    });
}

bool OpListPanel::eventFilter(QObject *watched, QEvent *event)
{
    // Esc in the search field clears it (and the filter).
    if (watched == m_search && event->type() == QEvent::KeyPress
        && static_cast<QKeyEvent *>(event)->key() == Qt::Key_Escape && !m_search->text().isEmpty()) {
        m_search->clear();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void OpListPanel::setDocument(std::shared_ptr<const ProgramDocument> document)
{
    m_silent = true;
    m_model->setDocument(std::move(document));
    m_silent = false;
    updateHints();
}

void OpListPanel::clearSearch()
{
    m_search->clear();
    m_proxy->setQuery(QString());
    updateHints();
}

void OpListPanel::setParametersShown(bool shown)
{
    m_parameters->setChecked(shown);
    m_proxy->setHideParameters(!shown);
    updateHints();
}

bool OpListPanel::parametersShown() const
{
    return !m_proxy->hidesParameters();
}

void OpListPanel::updateHints()
{
    const int parameters = m_model->parameterCount();
    m_parameters->setText(tr("Parameters (%1)").arg(parameters));
    m_parameters->setToolTip(parametersShown()
            ? tr("Click to hide the builtin.parameter ops (%1) from the list").arg(parameters)
            : tr("Click to list the builtin.parameter ops (%1) too").arg(parameters));
    m_parameters->setVisible(parameters > 0);
    const bool empty = m_model->rowCount() > 0 && m_proxy->rowCount() == 0;
    if (empty)
        m_emptyHint->setText(m_proxy->query().isEmpty()
                ? tr("Only parameters here: click \"Parameters\" to list them.")
                : tr("No op matches \"%1\". Search by op name, value name or %id; Esc clears.")
                      .arg(m_proxy->query()));
    m_emptyHint->setVisible(empty);
}

void OpListPanel::selectOp(const Operation *op)
{
    m_silent = true;
    const int row = m_model->rowOf(op);
    const QModelIndex proxyIndex = row >= 0 ? m_proxy->mapFromSource(m_model->index(row, 0)) : QModelIndex();
    if (proxyIndex.isValid()) {
        m_view->selectionModel()->setCurrentIndex(
            proxyIndex, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_view->scrollTo(proxyIndex);
    } else {
        m_view->selectionModel()->clearSelection();
    }
    m_silent = false;
}

void OpListPanel::focusSearch()
{
    m_search->setFocus(Qt::ShortcutFocusReason);
    m_search->selectAll();
}

void OpListPanel::onCurrentChanged(const QModelIndex &current)
{
    if (m_silent || !current.isValid())
        return;
    emit opSelected(opFromIndex(current));
}

void OpListPanel::selectFirstMatch()
{
    const QModelIndex first = m_proxy->index(0, 0);
    if (!first.isValid())
        return;
    if (m_view->currentIndex().row() == first.row()) {
        emit opSelected(opFromIndex(first)); // already current: no currentRowChanged
        return;
    }
    m_view->selectionModel()->setCurrentIndex(
        first, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(first);
}

} // namespace ps
