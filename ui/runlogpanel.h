#pragma once

#include <QWidget>
#include <memory>

class QAbstractItemModel;
class QLabel;
class QSortFilterProxyModel;
class QTableView;
class QToolButton;

namespace ps {

class ElidedLabel;
class IntermediatesModel;
class Operation;
class RunLogModel;
struct IntermediatesResult;
struct RunLogResult;

/// The "Compare with Paddle" dock: a summary line (records, matched, compared, divergent, the
/// first divergent record), the legend of the graph's colours, buttons for the window's
/// comparison actions and a sortable table, sorted by error, largest first: a run log's records
/// (RunLogModel) or Paddle's intermediates (IntermediatesModel). Clicking a row with an op
/// reports it (opActivated), which the window selects.
class RunLogPanel : public QWidget
{
    Q_OBJECT

public:
    explicit RunLogPanel(QWidget *parent = nullptr);

    /// Shows `result` (null: no log); `stale` says the window no longer shows its programs.
    void setResult(std::shared_ptr<const RunLogResult> result, bool stale = false);
    /// Shows Paddle's intermediates instead of a run log (null: none).
    void setIntermediates(std::shared_ptr<const IntermediatesResult> result, bool stale = false);
    /// A line instead of the summary while a log is being checked.
    void setBusy(const QString &text);
    /// Buttons for `actions` beside the summary.
    void addButtons(const QList<QAction *> &actions);
    /// The float64 referee's verdict under the summary ("" hides it).
    void setVerdict(const QString &text);
    QLabel *verdict() const { return m_verdict; }
    /// The record of the table's current row, or -1 (also while intermediates are shown).
    long currentRecord() const;

    RunLogModel *model() const { return m_model; }
    IntermediatesModel *intermediatesModel() const { return m_intermediates; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QTableView *view() const { return m_view; }
    ElidedLabel *summary() const { return m_summary; }
    QWidget *legend() const { return m_legend; }

signals:
    void opActivated(const ps::Operation *op);

private:
    void onRowActivated(const QModelIndex &index);
    void showModel(QAbstractItemModel *model, int sortRole, int errorColumn);
    void setSummary(const QString &text, bool stale, const QString &description);

    RunLogModel *m_model;
    IntermediatesModel *m_intermediates;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_view;
    ElidedLabel *m_summary;
    QWidget *m_legend;
    QWidget *m_buttons;
    QLabel *m_verdict;
};

} // namespace ps
