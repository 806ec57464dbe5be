#pragma once

#include "core/ir/operation.h" // complete type for the signal's meta type

#include <QWidget>
#include <memory>

class QLabel;
class QLineEdit;
class QTableView;
class QToolButton;

namespace ps {

class OpFilterProxyModel;
class OpListModel;
class ProgramDocument;

/// The op list with its search field (op name, value name, or `%id`), a switch that hides the
/// builtin.parameter ops (remembered; hidden by default: a real model has hundreds of them, all
/// first) and a hint when nothing matches. Reports the op the user selects (mouse or arrow
/// keys) and the op activated (Enter, double click); selectOp() follows a selection made elsewhere without
/// reporting it back.
class OpListPanel : public QWidget
{
    Q_OBJECT

public:
    explicit OpListPanel(QWidget *parent = nullptr);

    void setDocument(std::shared_ptr<const ProgramDocument> document);
    void selectOp(const Operation *op);
    /// Empties the search field (another file was opened).
    void clearSearch();
    void setParametersShown(bool shown);
    bool parametersShown() const;
    /// Focuses and selects the search text (Ctrl+F).
    void focusSearch();

    OpListModel *model() const { return m_model; }
    OpFilterProxyModel *proxy() const { return m_proxy; }
    QTableView *view() const { return m_view; }
    QLineEdit *searchField() const { return m_search; }
    QToolButton *parametersButton() const { return m_parameters; }
    /// "No op matches …", shown when the filter leaves no row.
    QLabel *emptyHint() const { return m_emptyHint; }

signals:
    void opSelected(ps::Operation *op);
    /// Enter or a double click on a row: drill into the op (its graph shows it and takes the keys).
    void opActivated(ps::Operation *op);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void onCurrentChanged(const QModelIndex &current);
    void selectFirstMatch();
    void updateHints();

    OpListModel *m_model;
    OpFilterProxyModel *m_proxy;
    QLineEdit *m_search;
    QTableView *m_view;
    QToolButton *m_parameters;
    QLabel *m_emptyHint;
    bool m_silent = false;
};

} // namespace ps
