#pragma once

#include <QWidget>
#include <cstdint>
#include <vector>

class QComboBox;
class QHBoxLayout;
class QSpinBox;

namespace ps {

/// The slicing controls of the tensor inspector: which axis runs down the rows, which across
/// the columns (or none), and one spin box per remaining axis for its fixed index. Picking the
/// column axis as the row axis (or the reverse) swaps the two.
class SliceControls : public QWidget
{
    Q_OBJECT

public:
    explicit SliceControls(QWidget *parent = nullptr);

    /// Rebuilds the controls for `shape` with the given axes (-1: none) and fixed indices (0 when
    /// `fixed` is empty). Emits nothing.
    void setShape(const std::vector<int64_t> &shape, int rowAxis, int columnAxis,
        const std::vector<int64_t> &fixed = {});
    void setAxes(int rowAxis, int columnAxis);
    void setFixedIndex(int axis, int64_t index);

    int rowAxis() const { return m_rowAxis; }
    int columnAxis() const { return m_columnAxis; }
    /// The index of every axis (0 for the row and column axes).
    std::vector<int64_t> fixedIndices() const;
    /// The spin box of a fixed axis (nullptr for the row/column axes), for tests.
    QSpinBox *indexBox(int axis) const;

signals:
    void axesChanged(int rowAxis, int columnAxis);
    void fixedIndexChanged(int axis, int64_t index);

private:
    void rebuildIndexBoxes();
    void onComboChanged(bool rowCombo);
    void syncCombos();

    std::vector<int64_t> m_shape;
    int m_rowAxis = -1;
    int m_columnAxis = -1;
    QComboBox *m_rowCombo;
    QComboBox *m_columnCombo;
    QHBoxLayout *m_indexLayout;
    std::vector<QSpinBox *> m_indexBoxes; ///< one per axis; nullptr for the row/column axes
    bool m_updating = false;
};

} // namespace ps
