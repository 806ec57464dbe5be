#pragma once

#include <QToolBar>

class QComboBox;
class QMenu;
class QToolButton;

namespace ps {

class DebugSession;
class DebuggerActions;

/// The Debug toolbar: the debugger actions, the device list (CPU, CUDA:n; an unavailable CUDA is
/// listed disabled with the reason as its tooltip) and a menu of input and parameter sources
/// (trace bundle .npy, the .pdiparams next to the program, seeded random).
class DebuggerToolBar : public QToolBar
{
    Q_OBJECT

public:
    DebuggerToolBar(DebugSession *session, DebuggerActions *actions, QWidget *parent = nullptr);

    QComboBox *deviceCombo() const { return m_devices; }
    QToolButton *sourcesButton() const { return m_sourcesButton; }
    QMenu *sourcesMenu() const { return m_sourcesMenu; }

private:
    void fillDevices();
    void fillSources();
    void askSeed();

    DebugSession *m_session;
    QComboBox *m_devices;
    QToolButton *m_sourcesButton;
    QMenu *m_sourcesMenu;
};

} // namespace ps
