#pragma once

#include "ui/common/elidedlabel.h"

#include <QWidget>

class QTreeView;

namespace ps {

class PassListModel;

/// The pass list (PassListModel) with a line saying whether the pipeline is being recomputed.
class PassPanel : public QWidget
{
    Q_OBJECT

public:
    explicit PassPanel(QWidget *parent = nullptr);

    PassListModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    /// Shows "Recomputing…" while the pipeline runs.
    void setBusy(bool busy);
    ElidedLabel *statusLabel() const { return m_status; }

private:
    PassListModel *m_model;
    QTreeView *m_view;
    ElidedLabel *m_status;
};

} // namespace ps
