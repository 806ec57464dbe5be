#pragma once

#include "ui/inspector/tensorcompare.h"

#include <QWidget>

class QLabel;
class QLineEdit;

namespace ps {

class TensorHeatmap;

/// The Compare tab of the tensor inspector: tolerances, the comparison summary (errors, count
/// beyond tolerance, first mismatching index) and the difference a - b as a diverging heatmap
/// sliced like the inspected tensor.
class ComparePanel : public QWidget
{
    Q_OBJECT

public:
    explicit ComparePanel(QWidget *parent = nullptr);

    void setResult(const TensorCompare::Result &result);
    /// Shows `message` ("comparing with …") until the next setResult().
    void setMessage(const QString &message);
    void clear();
    /// The slice of the difference tensor to draw (same axes as the inspected tensor).
    void setSliceGeometry(int rowAxis, int columnAxis, const std::vector<int64_t> &fixed);

    double rtol() const;
    double atol() const;
    void setTolerances(double rtol, double atol);

    QString summaryText() const;
    TensorHeatmap *diffHeatmap() const { return m_heatmap; }

signals:
    void compareFileRequested();
    /// The user edited rtol or atol (valid numbers).
    void tolerancesChanged();

private:
    void updateDiff();

    QLineEdit *m_rtol;
    QLineEdit *m_atol;
    QLabel *m_summary;
    TensorHeatmap *m_heatmap;
    Tensor m_diff;
    int m_rowAxis = -1;
    int m_columnAxis = -1;
    std::vector<int64_t> m_fixed;
};

} // namespace ps
