#include "ui/inspector/slicecontrols.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <limits>

namespace ps {

SliceControls::SliceControls(QWidget *parent)
    : QWidget(parent)
    , m_rowCombo(new QComboBox(this))
    , m_columnCombo(new QComboBox(this))
    , m_indexLayout(new QHBoxLayout)
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Rows:"), this));
    layout->addWidget(m_rowCombo);
    layout->addSpacing(8);
    layout->addWidget(new QLabel(tr("Columns:"), this));
    layout->addWidget(m_columnCombo);
    layout->addSpacing(8);
    m_indexLayout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(m_indexLayout);
    m_rowCombo->setObjectName(QStringLiteral("rowAxis"));
    m_columnCombo->setObjectName(QStringLiteral("columnAxis"));
    m_rowCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_columnCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_rowCombo, &QComboBox::currentIndexChanged, this, [this] { onComboChanged(true); });
    connect(m_columnCombo, &QComboBox::currentIndexChanged, this, [this] { onComboChanged(false); });
}

void SliceControls::setShape(
    const std::vector<int64_t> &shape, int rowAxis, int columnAxis, const std::vector<int64_t> &fixed)
{
    m_indexBoxes.clear(); // the previous shape's indices do not carry over
    m_shape = shape;
    m_rowAxis = rowAxis;
    m_columnAxis = columnAxis;
    {
        const QSignalBlocker rowBlock(m_rowCombo), columnBlock(m_columnCombo);
        m_rowCombo->clear();
        m_columnCombo->clear();
        for (QComboBox *combo : { m_rowCombo, m_columnCombo }) {
            combo->addItem(tr("none"), -1);
            for (size_t i = 0; i < shape.size(); ++i)
                combo->addItem(tr("axis %1 (%2)").arg(i).arg(shape[i]), int(i));
        }
    }
    syncCombos();
    rebuildIndexBoxes();
    for (size_t i = 0; i < fixed.size() && i < m_indexBoxes.size(); ++i)
        if (QSpinBox *box = m_indexBoxes[i]) {
            const QSignalBlocker block(box);
            box->setValue(int(fixed[i]));
        }
    setEnabled(!shape.empty());
}

void SliceControls::setAxes(int rowAxis, int columnAxis)
{
    const int rank = int(m_shape.size());
    rowAxis = rowAxis >= 0 && rowAxis < rank ? rowAxis : -1;
    columnAxis = columnAxis >= 0 && columnAxis < rank && columnAxis != rowAxis ? columnAxis : -1;
    if (rowAxis == m_rowAxis && columnAxis == m_columnAxis)
        return;
    m_rowAxis = rowAxis;
    m_columnAxis = columnAxis;
    syncCombos();
    rebuildIndexBoxes();
    emit axesChanged(m_rowAxis, m_columnAxis);
}

void SliceControls::setFixedIndex(int axis, int64_t index)
{
    if (QSpinBox *box = indexBox(axis))
        box->setValue(int(index));
}

std::vector<int64_t> SliceControls::fixedIndices() const
{
    std::vector<int64_t> out(m_shape.size(), 0);
    for (size_t i = 0; i < m_indexBoxes.size() && i < out.size(); ++i)
        if (m_indexBoxes[i])
            out[i] = m_indexBoxes[i]->value();
    return out;
}

QSpinBox *SliceControls::indexBox(int axis) const
{
    return axis >= 0 && size_t(axis) < m_indexBoxes.size() ? m_indexBoxes[size_t(axis)] : nullptr;
}

void SliceControls::syncCombos()
{
    const QSignalBlocker rowBlock(m_rowCombo), columnBlock(m_columnCombo);
    m_rowCombo->setCurrentIndex(m_rowCombo->findData(m_rowAxis));
    m_columnCombo->setCurrentIndex(m_columnCombo->findData(m_columnAxis));
}

void SliceControls::onComboChanged(bool rowCombo)
{
    int row = m_rowCombo->currentData().toInt();
    int column = m_columnCombo->currentData().toInt();
    if (row == column && row >= 0) {
        if (rowCombo)
            column = m_rowAxis;
        else
            row = m_columnAxis;
    }
    if (row < 0 && column >= 0) {
        // Rows come first: a lone axis runs down the rows.
        row = column;
        column = -1;
    }
    setAxes(row, column);
    syncCombos();
}

void SliceControls::rebuildIndexBoxes()
{
    // Keep the indices of axes that stay fixed.
    std::vector<int> previous(m_shape.size(), 0);
    for (size_t i = 0; i < m_indexBoxes.size() && i < previous.size(); ++i)
        if (m_indexBoxes[i])
            previous[i] = m_indexBoxes[i]->value();
    while (QLayoutItem *item = m_indexLayout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_indexBoxes.assign(m_shape.size(), nullptr);
    for (size_t i = 0; i < m_shape.size(); ++i) {
        if (int(i) == m_rowAxis || int(i) == m_columnAxis)
            continue;
        auto *label = new QLabel(tr("axis %1:").arg(i), this);
        auto *box = new QSpinBox(this);
        box->setObjectName(QStringLiteral("index%1").arg(i));
        const int64_t maxIndex = std::min<int64_t>(m_shape[i] - 1, std::numeric_limits<int>::max());
        box->setRange(0, int(std::max<int64_t>(0, maxIndex)));
        box->setValue(previous[i]);
        box->setToolTip(tr("index along axis %1 (size %2)").arg(i).arg(m_shape[i]));
        box->setKeyboardTracking(false);
        connect(box, &QSpinBox::valueChanged, this, [this, i](int v) { emit fixedIndexChanged(int(i), v); });
        m_indexLayout->addWidget(label);
        m_indexLayout->addWidget(box);
        m_indexLayout->addSpacing(6);
        m_indexBoxes[i] = box;
    }
}

} // namespace ps
