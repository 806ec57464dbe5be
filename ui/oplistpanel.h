#pragma once

#include "core/ir/operation.h" // complete type for the signal's meta type

#include <QWidget>
#include <memory>

class QLineEdit;
class QTableView;

namespace ps {

class OpFilterProxyModel;
class OpListModel;
class ProgramDocument;

/// The op list with its search field (op name, value name, or `%id`). Reports the op the
/// user selects; selectOp() follows a selection made elsewhere without reporting it back.
class OpListPanel : public QWidget
{
    Q_OBJECT

public:
    explicit OpListPanel(QWidget *parent = nullptr);

    void setDocument(std::shared_ptr<const ProgramDocument> document);
    void selectOp(const Operation *op);
    /// Focuses and selects the search text (Ctrl+F).
    void focusSearch();

    OpListModel *model() const { return m_model; }
    OpFilterProxyModel *proxy() const { return m_proxy; }
    QTableView *view() const { return m_view; }
    QLineEdit *searchField() const { return m_search; }

signals:
    void opSelected(ps::Operation *op);

private:
    void onCurrentChanged(const QModelIndex &current);
    void selectFirstMatch();

    OpListModel *m_model;
    OpFilterProxyModel *m_proxy;
    QLineEdit *m_search;
    QTableView *m_view;
    bool m_silent = false;
};

} // namespace ps
