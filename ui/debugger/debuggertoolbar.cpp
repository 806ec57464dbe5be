#include "ui/debugger/debuggertoolbar.h"

#include "ui/debugger/debuggeractions.h"
#include "ui/debugger/debugsession.h"
#include "ui/debugger/debugsourcesdialog.h"
#include "ui/debugger/elidingbutton.h"

#include <QComboBox>
#include <QFontMetrics>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QStandardItemModel>

namespace ps {

DebuggerToolBar::DebuggerToolBar(DebugSession *session, DebuggerActions *actions, QWidget *parent)
    : QToolBar(tr("Debug"), parent)
    , m_session(session)
    , m_devices(new QComboBox(this))
    , m_sourcesButton(new ElidingButton(this))
    , m_sourcesAction(new QAction(tr("&Inputs and Parameters…"), this))
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
    m_sourcesButton->setObjectName(QStringLiteral("debugSources"));
    // A push button, framed like the device combo box beside it: a tool button in a toolbar is
    // drawn flat and would read as a plain label.
    addWidget(m_sourcesButton);
    m_sourcesAction->setObjectName(QStringLiteral("debugSourcesAction"));
    m_sourcesAction->setStatusTip(tr("Choose where the debugger's inputs and parameters come from"));
    connect(m_sourcesAction, &QAction::triggered, this, &DebuggerToolBar::editSources);
    connect(m_sourcesButton, &QPushButton::clicked, this, &DebuggerToolBar::editSources);

    connect(m_devices, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0 && !m_session->setDeviceIndex(index))
            fillDevices();
    });
    connect(session, &DebugSession::devicesChanged, this, &DebuggerToolBar::fillDevices);
    connect(session, &DebugSession::sourcesChanged, this, &DebuggerToolBar::fillSources);
    connect(session, &DebugSession::targetChanged, this, &DebuggerToolBar::fillSources);
    // Queued: the refused command returns first, then the dialog opens.
    connect(session, &DebugSession::shapesNeeded, this, &DebuggerToolBar::askForShapes, Qt::QueuedConnection);
    connect(session, &DebugSession::stateChanged, this, [this] {
        const bool busy = m_session->isRunning();
        m_devices->setEnabled(!busy);
        m_sourcesButton->setEnabled(!busy);
        m_sourcesAction->setEnabled(!busy);
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
        auto *item = new QStandardItem(QString::fromStdString(d.label));
        if (!d.available) {
            item->setFlags(item->flags() & ~(Qt::ItemIsEnabled | Qt::ItemIsSelectable));
            item->setToolTip(QString::fromStdString(d.reason));
        } else {
            // cuda-sim takes no index on the command line.
            const std::string flag = d.device.isSimulated() ? "cuda-sim" : d.device.name();
            item->setToolTip(tr("%1\npirscope-cli: --device %2")
                                 .arg(QString::fromStdString(d.label), QString::fromStdString(flag)));
        }
        model->appendRow(item);
    }
    m_devices->setCurrentIndex(m_session->deviceIndex());
}

QString DebuggerToolBar::sourcesText() const
{
    const DebugSources s = m_session->sources();
    return tr("Inputs: %1 · Params: %2")
        .arg(QString::fromStdString(s.inputsText()), QString::fromStdString(s.paramsText()));
}

void DebuggerToolBar::fillSources()
{
    const DebugSources s = m_session->sources();
    // File names lose their middle, not the kinds, when the toolbar is narrow.
    m_sourcesButton->setFullText(sourcesText());
    QString tip = tr("Inputs: %1").arg(QString::fromStdString(DebugSources::kindText(s.inputs)));
    if (DebugSources::needsPath(s.inputs))
        tip += QStringLiteral(" ") + QString::fromStdString(s.inputsPath);
    if (s.inputs == DebugSources::Kind::Image)
        tip += s.imageNetNormalization ? tr(" (ImageNet mean/std)") : tr(" (scaled to [0, 1])");
    tip += QLatin1Char('\n')
        + tr("Parameters: %1").arg(QString::fromStdString(DebugSources::kindText(s.params)));
    if (s.params == DebugSources::Kind::Pdiparams)
        tip += QStringLiteral(" ") + QString::fromStdString(m_session->target().pdiparamsPath);
    else if (DebugSources::needsPath(s.params))
        tip += QStringLiteral(" ") + QString::fromStdString(s.paramsPath);
    tip += QLatin1Char('\n') + tr("Random seed: %1").arg(s.seed) + QLatin1Char('\n')
        + tr("Click to change (applied when the next session starts)");
    m_sourcesButton->setToolTip(tip);
}

void DebuggerToolBar::editSources()
{
    askForShapes({});
}

void DebuggerToolBar::askForShapes(const QStringList &inputs)
{
    DebugSourcesDialog dialog(m_session, this);
    if (!inputs.isEmpty())
        dialog.askForShapes(inputs);
    if (dialog.exec() == QDialog::Accepted)
        m_session->setSources(dialog.sources());
}

} // namespace ps
