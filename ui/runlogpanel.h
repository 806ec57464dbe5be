#pragma once

#include <QWidget>
#include <memory>

class QLabel;
class QSortFilterProxyModel;
class QTableView;
class QToolButton;

namespace ps {

class ElidedLabel;
class Operation;
class RunLogModel;
struct RunLogResult;

/// The "Paddle run log" dock: a summary line (records, matched, compared, divergent, the first
/// divergent record), the legend of the graph's colours, buttons for the window's run-log
/// actions and the records (RunLogModel) in a sortable table, sorted by error, largest first.
/// Clicking a matched row reports its op (opActivated), which the window selects.
class RunLogPanel : public QWidget
{
    Q_OBJECT

public:
    explicit RunLogPanel(QWidget *parent = nullptr);

    /// Shows `result` (null: no log); `stale` says the window no longer shows its programs.
    void setResult(std::shared_ptr<const RunLogResult> result, bool stale = false);
    /// A line instead of the summary while a log is being checked.
    void setBusy(const QString &text);
    /// Buttons for `actions` beside the summary.
    void addButtons(const QList<QAction *> &actions);
    /// The float64 referee's verdict under the summary ("" hides it).
    void setVerdict(const QString &text);
    QLabel *verdict() const { return m_verdict; }
    /// The record of the table's current row, or -1.
    long currentRecord() const;

    RunLogModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QTableView *view() const { return m_view; }
    ElidedLabel *summary() const { return m_summary; }
    QWidget *legend() const { return m_legend; }

signals:
    void opActivated(const ps::Operation *op);

private:
    void onRowActivated(const QModelIndex &index);

    RunLogModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_view;
    ElidedLabel *m_summary;
    QWidget *m_legend;
    QWidget *m_buttons;
    QLabel *m_verdict;
};

} // namespace ps
