#pragma once

#include "core/ir/value.h"

#include <QWidget>

class QFrame;
class QLabel;
class QLineEdit;
class QPushButton;
class QSplitter;
class QTabWidget;
class QTableView;

namespace ps {

class BreakpointsModel;
class DebugSession;
class ExecutedOpsModel;
class FramesModel;
class OpValuesModel;
class Operation;
class TensorInspector;
class WatchModel;

/// The debugger dock's content. Left: the stop status, an error box (the failed op with its
/// operands, and "Provide outputs from .npy…" for a missing kernel; for a NaN/Inf stop, which
/// input caused it) and tabs for the executed-op timeline, the call stack, the breakpoints and
/// the watches (Enter or a double click opens a watch in the inspector). Right: the operands and
/// results of the op last executed (or chosen) and the tensor inspector of the value selected
/// there, with "Compare with Paddle" when the trace bundle has the tensor and "Compare with CPU"
/// on a CUDA device.
class DebuggerPanel : public QWidget
{
    Q_OBJECT

public:
    explicit DebuggerPanel(DebugSession *session, QWidget *parent = nullptr);

    /// Lists `op`'s operands and results (the values pane).
    void showOp(const Operation *op);
    /// Shows `value` in the inspector (also lists its op) and keeps it there across stops; false
    /// when it holds no tensor now. Without a chosen value the inspector follows the run (the
    /// first result of the op that just ran).
    bool inspectValue(Value value);
    /// Shows the value the watch `name` names in the inspector and selects it (Enter or a double
    /// click on its row); false when the name names no program value (unknown, a scope variable
    /// only, or no session yet).
    bool inspectWatch(const QString &name);
    Value inspectedValue() const { return m_inspected; }
    /// Follows the window's selection: lists `op`'s values, selects its row in the timeline and
    /// shows `value` in the inspector. `chosen`: the user picked it (a value stays in the inspector
    /// across stops; an op alone shows its first computed result); otherwise (the selection
    /// follows a stop) the inspector keeps following the run.
    void showSelection(const Operation *op, Value value, bool chosen);

    bool compareWithReference();
    bool compareWithCpu();
    /// Interactive: asks for one .npy per result of the failed op.
    void provideOutputsInteractive();

    DebugSession *session() const { return m_session; }
    ExecutedOpsModel *executedOpsModel() const { return m_executed; }
    FramesModel *framesModel() const { return m_frames; }
    BreakpointsModel *breakpointsModel() const { return m_breakpoints; }
    WatchModel *watchModel() const { return m_watches; }
    OpValuesModel *valuesModel() const { return m_values; }
    TensorInspector *inspector() const { return m_inspector; }
    QTableView *executedView() const { return m_executedView; }
    QTableView *valuesView() const { return m_valuesView; }
    QTabWidget *tabs() const { return m_tabs; }
    QLabel *statusLabel() const { return m_status; }
    QFrame *errorBox() const { return m_errorBox; }
    QLabel *errorLabel() const { return m_errorLabel; }
    QPushButton *provideButton() const { return m_provide; }
    QPushButton *compareReferenceButton() const { return m_compareReference; }
    QPushButton *compareCpuButton() const { return m_compareCpu; }

protected:
    void showEvent(QShowEvent *event) override;

signals:
    /// The user picked an op in the timeline, call stack or breakpoints (mouse or keys).
    void opActivated(const ps::Operation *op);
    /// The user picked an operand or result row of the values of `op`.
    void valueActivated(ps::Value value, const ps::Operation *op);
    /// The inspector's ⤢ button: the panel shows the inspector alone (on) or everything again.
    void inspectorMaximized(bool on);

private:
    QWidget *buildLeft();
    QWidget *buildRight();
    QWidget *buildBreakpointsTab();
    QWidget *buildWatchesTab();
    /// `onlyTensors`: leave the inspector as it is when `value` holds no tensor.
    bool inspect(Value value, bool onlyTensors = false);
    void onStopped();
    void updateStatus();
    /// Selects `row` of `view` without reporting it as the user's pick.
    void selectRowQuietly(QTableView *view, int row);
    void updateErrorBox();
    void updateCompareButtons();
    void updateWatches();
    void addWatch();
    void addNameBreakpoint();

    DebugSession *m_session;
    ExecutedOpsModel *m_executed;
    FramesModel *m_frames;
    BreakpointsModel *m_breakpoints;
    WatchModel *m_watches;
    OpValuesModel *m_values;
    Value m_inspected;
    /// The user chose m_inspected: keep it across stops instead of following the last op.
    bool m_pinned = false;
    /// Set while a view follows a selection made elsewhere: its row changes are not the user's.
    bool m_following = false;

    QLabel *m_status;
    QFrame *m_errorBox;
    QLabel *m_errorLabel;
    QPushButton *m_provide;
    QTabWidget *m_tabs;
    QTableView *m_executedView;
    QTableView *m_framesView;
    QTableView *m_breakpointsView;
    QLineEdit *m_breakpointPattern;
    QTableView *m_watchesView;
    QLineEdit *m_watchName;
    QLabel *m_valuesTitle;
    QSplitter *m_valuesSplitter;
    bool m_sized = false; ///< the values / inspector split was set at the first show
    QTableView *m_valuesView;
    QPushButton *m_compareReference;
    QPushButton *m_compareCpu;
    TensorInspector *m_inspector;
};

} // namespace ps
