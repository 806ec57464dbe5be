#pragma once

#include "ui/common/itemroles.h"

#include <QWidget>

class QComboBox;

namespace ps {

/// A view with a "Program:" chooser above it (origin, forward, backward): the Value names and
/// Inplace groups docks show one program at a time through it.
class ProgramPickerPanel : public QWidget
{
    Q_OBJECT

public:
    ProgramPickerPanel(QWidget *view, QWidget *parent = nullptr);

    ProgramSide side() const;
    /// Switches the chooser (emits sideChanged when it changes).
    void setSide(ProgramSide side);
    /// Disables the split sides while there is no split to show.
    void setSplitAvailable(bool available);
    QComboBox *comboBox() const { return m_combo; }

signals:
    void sideChanged(ps::ProgramSide side);

private:
    QComboBox *m_combo;
};

} // namespace ps
