#include "ui/debugger/debuggertoolbar.h"

#include "ui/debugger/debuggeractions.h"
#include "ui/debugger/debugsession.h"

#include <QActionGroup>
#include <QComboBox>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QSignalBlocker>
#include <QStandardItemModel>
#include <QToolButton>

namespace ps {

DebuggerToolBar::DebuggerToolBar(DebugSession *session, DebuggerActions *actions, QWidget *parent)
    : QToolBar(tr("Debug"), parent)
    , m_session(session)
    , m_devices(new QComboBox(this))
    , m_sourcesButton(new QToolButton(this))
    , m_sourcesMenu(new QMenu(this))
{
    setObjectName(QStringLiteral("debugToolBar"));
    for (QAction *a : actions->actions()) {
        if (a == actions->toggleBreakpointAction() || a == actions->breakOnNanInfAction())
            continue;
        if (a)
            addAction(a);
        else
            addSeparator();
    }
    addAction(actions->breakOnNanInfAction());
    addSeparator();
    addWidget(new QLabel(tr("Device "), this));
    m_devices->setObjectName(QStringLiteral("debugDevice"));
    // The default model is a QStandardItemModel too; owning it explicitly lets items be disabled.
    m_devices->setModel(new QStandardItemModel(m_devices));
    m_devices->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    addWidget(m_devices);
    m_sourcesButton->setText(tr("Inputs"));
    m_sourcesButton->setToolTip(tr("Where inputs and parameters come from"));
    m_sourcesButton->setMenu(m_sourcesMenu);
    m_sourcesButton->setPopupMode(QToolButton::InstantPopup);
    addWidget(m_sourcesButton);

    connect(m_devices, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0 && !m_session->setDeviceIndex(index))
            fillDevices();
    });
    connect(session, &DebugSession::devicesChanged, this, &DebuggerToolBar::fillDevices);
    connect(session, &DebugSession::sourcesChanged, this, &DebuggerToolBar::fillSources);
    connect(session, &DebugSession::targetChanged, this, &DebuggerToolBar::fillSources);
    connect(session, &DebugSession::stateChanged, this, [this] {
        const bool busy = m_session->isRunning();
        m_devices->setEnabled(!busy);
        m_sourcesButton->setEnabled(!busy);
    });
    fillDevices();
    fillSources();
}

void DebuggerToolBar::fillDevices()
{
    const QSignalBlocker block(m_devices);
    auto *model = qobject_cast<QStandardItemModel *>(m_devices->model());
    model->clear();
    for (const DeviceOption &d : m_session->devices()) {
        auto *item = new QStandardItem(d.label);
        if (!d.available) {
            item->setFlags(item->flags() & ~(Qt::ItemIsEnabled | Qt::ItemIsSelectable));
            item->setToolTip(d.reason);
        } else {
            item->setToolTip(QString::fromStdString(d.device.name()));
        }
        model->appendRow(item);
    }
    m_devices->setCurrentIndex(m_session->deviceIndex());
}

void DebuggerToolBar::fillSources()
{
    m_sourcesMenu->clear();
    const DebugSources current = m_session->sources();
    auto section = [this, current](const QString &title, bool params) {
        m_sourcesMenu->addSection(title);
        auto *group = new QActionGroup(m_sourcesMenu);
        const QList<DebugSources::Kind> kinds = params
            ? QList<DebugSources::Kind> { DebugSources::Kind::Bundle, DebugSources::Kind::Pdiparams,
                  DebugSources::Kind::Random }
            : QList<DebugSources::Kind> { DebugSources::Kind::Bundle, DebugSources::Kind::Random };
        for (DebugSources::Kind kind : kinds) {
            QAction *a = m_sourcesMenu->addAction(DebugSources::kindText(kind));
            a->setCheckable(true);
            a->setChecked((params ? current.params : current.inputs) == kind);
            a->setEnabled(m_session->sourceAvailable(kind));
            group->addAction(a);
            connect(a, &QAction::triggered, this, [this, kind, params] {
                DebugSources s = m_session->sources();
                (params ? s.params : s.inputs) = kind;
                m_session->setSources(s);
            });
        }
    };
    section(tr("Inputs"), false);
    section(tr("Parameters"), true);
    m_sourcesMenu->addSeparator();
    m_sourcesMenu->addAction(tr("Random seed: %1…").arg(current.seed), this, &DebuggerToolBar::askSeed);
    m_sourcesButton->setText(
        tr("Inputs: %1 / params: %2")
            .arg(DebugSources::kindText(current.inputs), DebugSources::kindText(current.params)));
}

void DebuggerToolBar::askSeed()
{
    bool ok = false;
    const int seed
        = QInputDialog::getInt(this, tr("Random seed"), tr("Seed of the random inputs and parameters:"),
            int(m_session->sources().seed), 0, std::numeric_limits<int>::max(), 1, &ok);
    if (!ok)
        return;
    DebugSources s = m_session->sources();
    s.seed = quint64(seed);
    m_session->setSources(s);
}

} // namespace ps
