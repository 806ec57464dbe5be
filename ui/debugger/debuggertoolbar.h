#pragma once

#include "ui/debugger/elidingbutton.h"

#include <QToolBar>

class QAction;
class QComboBox;

namespace ps {

class DebugSession;
class DebuggerActions;

/// The Debug toolbar: the debugger actions, the device list (CPU, CUDA:n; an unavailable CUDA is
/// listed disabled with the reason as its tooltip) and a button showing where inputs and
/// parameters come from, which opens DebugSourcesDialog (sourcesAction(), also in the Debug menu).
class DebuggerToolBar : public QToolBar
{
    Q_OBJECT

public:
    DebuggerToolBar(DebugSession *session, DebuggerActions *actions, QWidget *parent = nullptr);

    QComboBox *deviceCombo() const { return m_devices; }
    /// Shows the sources, elided to the room the toolbar has (the whole text in its tooltip).
    ElidingButton *sourcesButton() const { return m_sourcesButton; }
    /// "Inputs and Parameters…": opens the dialog.
    QAction *sourcesAction() const { return m_sourcesAction; }
    /// The button's text for the session's sources ("Inputs: random (seed 0) · Params: .pdiparams").
    QString sourcesText() const;

public slots:
    /// Opens DebugSourcesDialog; OK applies its choice to the session.
    void editSources();
    /// Opens the dialog asking for the shapes of `inputs` (DebugSession::shapesNeeded).
    void askForShapes(const QStringList &inputs);

private:
    void fillDevices();
    void fillSources();

    DebugSession *m_session;
    QComboBox *m_devices;
    ElidingButton *m_sourcesButton;
    QAction *m_sourcesAction;
};

} // namespace ps
