#include "ui/oplistpanel.h"

#include "ui/itemroles.h"
#include "ui/opfilterproxymodel.h"
#include "ui/oplistmodel.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

namespace ps {

OpListPanel::OpListPanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new OpListModel(this))
    , m_proxy(new OpFilterProxyModel(this))
    , m_search(new QLineEdit(this))
    , m_view(new QTableView(this))
{
    m_proxy->setSourceModel(m_model);
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
    m_view->setColumnWidth(OpListModel::IndexColumn, 48);
    m_view->setColumnWidth(OpListModel::NameColumn, 170);
    m_view->setColumnWidth(OpListModel::ResultsColumn, 80);
    m_view->setColumnWidth(OpListModel::NamesColumn, 120);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_search);
    layout->addWidget(m_view);

    connect(m_search, &QLineEdit::textChanged, m_proxy, &OpFilterProxyModel::setQuery);
    connect(m_search, &QLineEdit::returnPressed, this, &OpListPanel::selectFirstMatch);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) { onCurrentChanged(current); });
}

void OpListPanel::setDocument(std::shared_ptr<const ProgramDocument> document)
{
    m_silent = true;
    m_model->setDocument(std::move(document));
    m_silent = false;
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
