#pragma once

#include "core/runtime/tensor.h"
#include "core/runtime/tensorstats.h"
#include "ui/inspector/tensorcompare.h"

#include <QWidget>
#include <functional>
#include <optional>

class QCheckBox;
class QHBoxLayout;
class QLabel;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QToolButton;

namespace ps {

class ComparePanel;
class ElidedLabel;
class HistogramWidget;
class SliceControls;
class TensorHeatmap;
class TensorSlice;
class TensorSliceModel;
class TensorStatsPanel;

/// One tensor under the microscope: a header (name, dtype, shape, device), its statistics,
/// slicing controls and four tabs (Table, Heatmap, Histogram, Compare), with export to .npy and
/// comparison against a .npy file or a caller-given tensor.
///
/// Nothing per element runs on the UI thread when a tensor is set: the table reads cells on
/// demand, statistics, heatmaps and comparisons run through QtConcurrent. Statistics come from
/// a caller-given function (the debugger passes Backend::stats so device tensors are summarised
/// on their device; default computeStatsHost). A device tensor is shown after a host copy made
/// by a caller-given function. The tensor's bytes are read while shown: a caller that mutates
/// them in place should pass a clone. Background work keeps its own copies of what it reads,
/// so the inspector may be destroyed while it runs.
class TensorInspector : public QWidget
{
    Q_OBJECT

public:
    enum class Tab { Table, Heatmap, Histogram, Compare };
    using StatsFunction = std::function<TensorStats(const Tensor &, int bins)>;
    using HostCopyFunction = std::function<Tensor(const Tensor &)>;
    static constexpr int HistogramBins = 64;

    explicit TensorInspector(QWidget *parent = nullptr);
    ~TensorInspector() override;

    /// Called on a worker thread; an empty function restores computeStatsHost (host data only).
    void setStatsFunction(StatsFunction fn);
    /// Called on the UI thread when a non-CPU tensor is set or compared.
    void setHostCopyFunction(HostCopyFunction fn);

    /// Shows `tensor` (any device, any dtype); starts its statistics. Clears any comparison.
    /// `exportName`: the file name Export suggests (without .npy; default: from `name`).
    void setTensor(const Tensor &tensor, const QString &name = {}, const QString &exportName = {});
    void clear();
    const Tensor &tensor() const { return m_tensor; }
    /// The host tensor the views read (undefined when there is none).
    const Tensor &hostTensor() const { return m_host; }
    QString name() const { return m_name; }
    /// What Export suggests: the export name (else the name) made a safe file name, ".npy".
    QString exportFileName() const;
    /// Why values cannot be shown ("device tensor; copy to host to show values"), or empty.
    QString message() const { return m_message; }

    void setSliceAxes(int rowAxis, int columnAxis);
    void setFixedIndex(int axis, int64_t index);
    const TensorSlice &slice() const;

    /// Puts `widget` (a button acting on the shown tensor) in the header row, before Export.
    void addHeaderWidget(QWidget *widget);
    /// The checkable ⤢ button of the header: maximizeToggled() asks the host to give the
    /// inspector the whole window.
    QToolButton *maximizeButton() const { return m_maximize; }

    void setCurrentTab(Tab tab);
    Tab currentTab() const;

    /// Writes the host tensor to `path` as .npy; false with `error` set on failure.
    bool exportTo(const QString &path, QString *error = nullptr);
    /// Compares the shown tensor (a) with `reference` (b) in the background; compareFinished()
    /// follows. `label` names the reference in the summary.
    void compareWith(const Tensor &reference, const QString &label = {});
    /// Reads `path` (.npy) and compares with it; false with `error` when the file cannot be read.
    bool compareWithFile(const QString &path, QString *error = nullptr);
    void setTolerances(double rtol, double atol);

    bool statsPending() const { return m_statsPending > 0; }
    /// The latest statistics of the shown tensor, once computed.
    const std::optional<TensorStats> &stats() const { return m_stats; }
    QString statsError() const { return m_statsError; }
    bool comparePending() const { return m_comparePending > 0; }
    const TensorCompare::Result &comparison() const { return m_comparison; }

    TensorSliceModel *sliceModel() const { return m_model; }
    QTableView *tableView() const { return m_table; }
    TensorHeatmap *heatmap() const { return m_heatmap; }
    HistogramWidget *histogram() const { return m_histogram; }
    TensorStatsPanel *statsPanel() const { return m_statsPanel; }
    ComparePanel *comparePanel() const { return m_comparePanel; }
    SliceControls *sliceControls() const { return m_sliceControls; }

public slots:
    /// File dialogs around exportTo() and compareWithFile().
    void exportInteractive();
    void compareWithFileInteractive();

signals:
    void maximizeToggled(bool on);
    void statsReady();
    void statsFailed(const QString &message);
    void compareFinished();

private:
    QWidget *buildTableTab();
    QWidget *buildHeatmapTab();
    QWidget *buildHistogramTab();
    void startStats();
    void rerunCompare();
    void sliceChanged();
    void refreshHeatmap();
    void updateFooter();

    Tensor m_tensor;
    Tensor m_host;
    QString m_name;
    QString m_exportName;
    QString m_message;
    StatsFunction m_statsFn;
    HostCopyFunction m_hostCopyFn;

    std::optional<TensorStats> m_stats;
    QString m_statsError;
    int m_statsGeneration = 0;
    int m_statsPending = 0;

    Tensor m_reference;
    QString m_referenceLabel;
    TensorCompare::Result m_comparison;
    int m_compareGeneration = 0;
    int m_comparePending = 0;
    bool m_heatmapDirty = true;

    QLabel *m_header;
    QHBoxLayout *m_headerRow;
    ElidedLabel *m_footer;
    TensorStatsPanel *m_statsPanel;
    SliceControls *m_sliceControls;
    QTabWidget *m_tabs;
    TensorSliceModel *m_model;
    QStackedWidget *m_tableStack;
    QTableView *m_table;
    QLabel *m_tableMessage;
    TensorHeatmap *m_heatmap;
    QToolButton *m_maximize;
    QCheckBox *m_diverging;
    HistogramWidget *m_histogram;
    ComparePanel *m_comparePanel;
};

} // namespace ps
