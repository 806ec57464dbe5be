#include "ui/passpanel.h"

#include "ui/columnwidths.h"
#include "ui/passlistmodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

namespace ps {

PassPanel::PassPanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new PassListModel(this))
    , m_view(new QTreeView(this))
    , m_status(new ElidedLabel(this))
{
    m_view->setObjectName(QStringLiteral("passView"));
    m_view->setModel(m_model);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->header()->setStretchLastSection(true);
    ColumnWidths::keepFitted(m_view, 48);
    connect(m_model, &QAbstractItemModel::modelReset, m_view, [this] { m_view->expandToDepth(0); });
    m_status->setObjectName(QStringLiteral("passStatus"));
    m_status->setContentsMargins(4, 2, 4, 2);
    setBusy(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_status);
    layout->addWidget(m_view, 1);
}

void PassPanel::setBusy(bool busy)
{
    m_status->setText(busy ? tr("Recomputing the pipeline\u2026")
                           : tr("Passes on the split programs (apply_pir_program_pass); a switch "
                                "recomputes the pipeline."));
}

} // namespace ps
