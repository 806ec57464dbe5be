#include "ui/scenesetup.h"

#include "core/io/numbertext.h"
#include "core/ir/operation.h"
#include "core/runtime/opreference.h"
#include "ui/debugger/debuggerpanel.h"
#include "ui/debugger/debugsession.h"
#include "ui/graphview.h"
#include "ui/mainwindow.h"
#include "ui/mainwindowdebugger.h"
#include "ui/selectionmodel.h"
#include "ui/splitview.h"

namespace ps {

namespace {

/// The graph that shows the current selection.
GraphView *selectionView(MainWindow &window)
{
    const ProgramSide side = window.selection()->currentSide();
    return side == ProgramSide::Origin ? window.graphView() : window.splitView()->view(side);
}

bool touches(const Operation *op, Value value)
{
    for (unsigned i = 0; op && i < op->numOperands(); ++i)
        if (op->operand(i) == value)
            return true;
    for (unsigned i = 0; op && i < op->numResults(); ++i)
        if (op->result(i) == value)
            return true;
    return false;
}

} // namespace

std::optional<QSize> SceneSetup::parseSize(const QString &text, QString &error)
{
    const QStringList sides = text.split(QLatin1Char('x'), Qt::KeepEmptyParts, Qt::CaseInsensitive);
    if (sides.size() != 2) {
        error = QStringLiteral("'%1' is not WIDTHxHEIGHT (e.g. 1280x720)").arg(text);
        return std::nullopt;
    }
    int length[2];
    for (int i = 0; i < 2; ++i) {
        std::string why;
        const std::optional<uint64_t> n
            = NumberText::parseUnsigned(sides[i].toStdString(), kMinSide, kMaxSide, why);
        if (!n) {
            error = QStringLiteral("'%1': the %2 %3")
                        .arg(text, i ? QStringLiteral("height") : QStringLiteral("width"),
                            QString::fromStdString(why));
            return std::nullopt;
        }
        length[i] = int(*n);
    }
    return QSize(length[0], length[1]);
}

bool SceneSetup::selectOp(MainWindow &window, const QString &reference, QString &error)
{
    const DebugSession *session = window.debugger()->session();
    if (!session->hasTarget()) {
        error = QStringLiteral("no program is shown");
        return false;
    }
    std::string why;
    const std::optional<ProgramPosition> position
        = OpReference::resolve(session->segmentPrograms(), reference.toStdString(), why);
    const Operation *op = position ? session->opAt(*position) : nullptr;
    if (!op) {
        error = QString::fromStdString(why.empty() ? "no op at " + position->toString() : why);
        return false;
    }
    window.selection()->selectOp(op);
    if (GraphView *view = selectionView(window))
        view->centerOnOp(op);
    return true;
}

bool SceneSetup::inspectValue(MainWindow &window, const QString &reference, QString &error)
{
    DebuggerPanel *panel = window.debugger()->panel();
    const DebugSession *session = panel->session();
    if (!session->isActive()) {
        error = QStringLiteral("needs a debug session (--steps N)");
        return false;
    }
    std::string why;
    const Value value = OpReference::resolveValue(session->segmentPrograms(), reference.toStdString(), why);
    if (!value) {
        error = QString::fromStdString(why);
        return false;
    }
    if (!session->hostValue(value).defined()) {
        const QString label = session->valueLabel(value);
        const std::optional<ProgramPosition> at = session->position();
        error = QStringLiteral("'%1'").arg(reference)
            + (label == reference ? QString() : QStringLiteral(" (%1)").arg(label))
            + QStringLiteral(" holds no tensor yet")
            + (at ? QStringLiteral(" (paused before %1)").arg(QString::fromStdString(at->toString()))
                  : QString());
        return false;
    }
    SelectionModel *selection = window.selection();
    const Operation *at = touches(selection->currentOp(), value) ? selection->currentOp() : nullptr;
    selection->selectValue(value, at);
    if (panel->inspectedValue() != value) // it was selected already: nothing changed
        panel->inspectValue(value);
    if (const Operation *op = selection->currentOp())
        if (GraphView *view = selectionView(window))
            view->centerOnOp(op);
    return true;
}

} // namespace ps
