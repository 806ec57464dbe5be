#pragma once

#include <QSize>
#include <QString>
#include <optional>

namespace ps {

class MainWindow;

/// Sets the scene of a main window before `pirscope --screenshot` takes it: `--select OP` and
/// `--inspect VALUE` name an op or a value the way `--break` does (ps::OpReference: a position
/// such as `0:12` or `bwd:3`, or a regular expression searched in result names, printer ids and
/// op names), resolved against the programs the window shows (its debug session's target: the
/// Program tab's program, or the forward and backward programs of the split tab). Both go through
/// the window's SelectionModel, so the graph, the Ops list, Properties and the debugger's Values
/// and inspector follow; the op is then centred in its graph, its layers opened and the view
/// zoomed in until it is readable (a layout that may finish later: see GraphView::isLayoutRunning).
class SceneSetup
{
public:
    /// "1280x720" (also "1280X720"), each side in [kMinSide, kMaxSide]; nullopt with `error` set.
    static std::optional<QSize> parseSize(const QString &text, QString &error);

    /// Selects the one op `reference` names; false with `error` saying why (no op, or several:
    /// the first few listed).
    static bool selectOp(MainWindow &window, const QString &reference, QString &error);
    /// Selects the value `reference` names (a printer id such as `%12`, a value name, or an op
    /// reference standing for its first result) and shows it in the tensor inspector. Needs a
    /// started debug session; false with `error` when there is none, the value is unknown or it
    /// holds no tensor yet. When an op is selected that uses or produces the value, the value is
    /// shown at that op.
    static bool inspectValue(MainWindow &window, const QString &reference, QString &error);

    static constexpr int kMinSide = 100;
    static constexpr int kMaxSide = 16384;
};

} // namespace ps
