#pragma once

#include "core/ir/value.h"
#include "ui/common/itemroles.h"

#include <QObject>
#include <memory>
#include <vector>

class QAction;
class QDockWidget;
class QTabWidget;

namespace ps {

class MainWindow;
class Operation;
class PirListing;
class PirTextView;
class Program;
struct DiffGraph;
struct StepDiff;

/// Puts the PIR text view (PirTextView) into the main window: the "PIR Text" dock (View ▸ PIR
/// Text, Ctrl+Shift+T), tabbed beside Program attributes. It shows, as its "Program:" chooser
/// says, the program of the graph in view (Follow): the Program tab's program, in the split view
/// the forward or backward program (the pane last clicked or holding the focus), on the Passes
/// tab the selected step's program after the pass; or always the program, forward or backward.
///
/// It follows and makes the window's one selection (SelectionModel), as the Ops list does: a
/// line picked selects its op, which the graph brings into view; an op or value selected
/// elsewhere is marked and scrolled to. On the Passes tab it follows the diff graph's selection
/// (ops the step kept or added) and selects there. The op a debug session is stopped before is
/// marked too.
///
/// Each program is printed once (PirListing), when the dock is first shown with it; the few
/// listings of the programs on screen are kept. A program of more than backgroundPrintOps() ops
/// is printed on a worker thread ("Printing…" meanwhile).
class MainWindowPirText : public QObject
{
    Q_OBJECT

public:
    /// The chooser's items, in order.
    enum class Source { Follow, Origin, Forward, Backward };

    MainWindowPirText(MainWindow *window, QTabWidget *tabs);

    QDockWidget *dock() const { return m_dock; }
    PirTextView *view() const { return m_view; }
    /// View ▸ PIR Text: shows the dock, raised, with the keyboard focus on the text.
    QAction *showAction() const { return m_show; }
    Source source() const;
    void setSource(Source source);
    /// The side of the program shown (Origin for the Program and Passes tabs).
    ProgramSide shownSide() const { return m_side; }
    /// Whether the shown program is a pass step's (the Passes tab).
    bool showsPassStep() const { return m_passStep; }
    /// Shows the program the chooser and the window say, now (what showing the dock does).
    void refresh();
    /// Programs with more ops than this are printed off the UI thread (5000: about 40 ms).
    size_t backgroundPrintOps() const { return m_backgroundPrintOps; }
    void setBackgroundPrintOps(size_t ops) { m_backgroundPrintOps = ops; }
    /// Whether a listing is being printed on the worker thread.
    bool isPrinting() const { return m_printing != nullptr; }

private:
    /// The program to show and its side; false for a pass step.
    std::shared_ptr<const Program> wanted(ProgramSide &side, bool &passStep) const;
    /// The kept listing of `program` (made the most recent), or null.
    std::shared_ptr<const PirListing> keptListing(const std::shared_ptr<const Program> &program);
    void keep(std::shared_ptr<const PirListing> listing);
    /// Prints `program` on the worker thread, then refreshes.
    void printInBackground(std::shared_ptr<const Program> program);
    void showSelection();
    void onOpPicked(const Operation *op);
    void onValuePicked(Value value, const Operation *at);
    /// The diff graph's op for an op of the shown step's program after the pass, and back.
    const Operation *diffOpOf(const Operation *afterOp) const;
    const Operation *afterOpOf(const Operation *diffOp) const;
    bool isShown() const;

    MainWindow *m_window;
    QTabWidget *m_tabs;
    PirTextView *m_view;
    QDockWidget *m_dock;
    QAction *m_show;
    ProgramSide m_side = ProgramSide::Origin;
    /// The split pane the user was last in (Follow on the split tab).
    ProgramSide m_splitSide = ProgramSide::Forward;
    bool m_passStep = false;
    std::shared_ptr<const StepDiff> m_stepDiff;
    std::vector<std::shared_ptr<const PirListing>> m_listings; ///< most recent first
    std::shared_ptr<const Program> m_printing; ///< being printed on the worker thread
    size_t m_backgroundPrintOps = 5000;
};

} // namespace ps
