#include "ui/programpickerpanel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QStandardItemModel>
#include <QVBoxLayout>

namespace ps {

ProgramPickerPanel::ProgramPickerPanel(QWidget *view, QWidget *parent)
    : QWidget(parent)
    , m_combo(new QComboBox(this))
{
    m_combo->addItem(tr("Origin program"), int(ProgramSide::Origin));
    m_combo->addItem(tr("Forward program"), int(ProgramSide::Forward));
    m_combo->addItem(tr("Backward program"), int(ProgramSide::Backward));
    auto *row = new QHBoxLayout;
    row->setContentsMargins(4, 2, 4, 0);
    row->addWidget(new QLabel(tr("Program:"), this));
    row->addWidget(m_combo, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(row);
    view->setParent(this);
    layout->addWidget(view, 1);
    connect(m_combo, &QComboBox::currentIndexChanged, this,
        [this](int index) { emit sideChanged(ProgramSide(m_combo->itemData(index).toInt())); });
}

ProgramSide ProgramPickerPanel::side() const
{
    return ProgramSide(m_combo->currentData().toInt());
}

void ProgramPickerPanel::setSide(ProgramSide side)
{
    m_combo->setCurrentIndex(m_combo->findData(int(side)));
}

void ProgramPickerPanel::setSplitAvailable(bool available)
{
    auto *model = qobject_cast<QStandardItemModel *>(m_combo->model());
    for (int i = 1; i < m_combo->count() && model; ++i)
        model->item(i)->setEnabled(available);
    if (!available)
        setSide(ProgramSide::Origin);
}

} // namespace ps
