#pragma once

#include "core/analysis/programtextdiff.h"
#include "core/graph/diffgraph.h"
#include "core/transform/passtimeline.h"

#include <QWidget>
#include <atomic>
#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;
class QSplitter;
class QTabWidget;
class QTableView;
class QThreadPool;
class QToolButton;

namespace ps {

class PassDiffView;
class PassTextDiffView;
class PassTimelineModel;

/// The pass view: a pipeline's steps as a table with a slider (as iongraph's and Compiler
/// Explorer's pass pipelines), and for the selected step its graph diff (PassDiffView) and text
/// diff (PassTextDiffView) with what it changed, its time and its numeric check. Step diffs are
/// computed off the UI thread (the programs of a log are read then); meanwhile a background
/// task computes every step's counts in order, filling the Changes column.
class PassView : public QWidget
{
    Q_OBJECT

public:
    explicit PassView(QWidget *parent = nullptr);
    ~PassView() override;

    /// Shows `timeline` (null clears). `checkable`: its passes can be switched (PIRScope's own
    /// passes), not a log's. The selected step stays selected when it exists in the new one.
    void setTimeline(std::shared_ptr<const PassTimeline> timeline, bool checkable);
    std::shared_ptr<const PassTimeline> timeline() const { return m_timeline; }
    /// Selects a step and computes its diff (off the UI thread).
    void setCurrentStep(int step);
    int currentStep() const { return m_current; }
    /// The step whose diff is on screen (-1 while none is, or while one is being computed).
    int shownStep() const { return m_shown; }
    /// The diff on screen (its programs before and after the step); null while none is.
    std::shared_ptr<const StepDiff> shownDiff() const { return m_shownDiff; }
    /// "Recomputing passes…" while the pipeline runs again.
    void setBusy(bool busy);
    /// Shows the pipeline choice (PIRScope's default passes or one of Paddle's PassPipeline
    /// pipelines) and the numeric-check switch set to these values, without emitting; hidden for
    /// a log's timeline.
    void setPipelineControls(bool visible, const QString &pipeline, bool checkNumerics);
    /// Diff pictures larger than this many top-level ops show only the changes' neighbourhood.
    void setDiffGraphOptions(const DiffGraph::Options &options) { m_graphOptions = options; }

    PassTimelineModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QSlider *slider() const { return m_slider; }
    PassDiffView *graphDiff() const { return m_graphDiff; }
    PassTextDiffView *textDiff() const { return m_textDiff; }
    QLabel *stepLabel() const { return m_stepLabel; }
    QTabWidget *tabs() const { return m_tabs; }
    QComboBox *pipelineBox() const { return m_pipeline; }
    QCheckBox *numericsBox() const { return m_numerics; }
    QSplitter *splitter() const { return m_splitter; }
    /// The height of the timeline half showing `rows` steps with its controls: what it opens
    /// with (kInitialRows), unless the user moved the splitter before (kept in QSettings).
    int timelineHeight(int rows) const;
    static constexpr int kInitialRows = 8;
    /// Focus mode: the table and the pipeline controls hidden, the slider row left (Alt+←/→ and
    /// the step line still work), the diff taking the rest.
    void setTimelineShown(bool shown);
    /// Moves to the next (`step` 1) or previous (-1) change in the diff tab in front, as F8 and
    /// Shift+F8 do there. Returns the change's index, -1 when there is none.
    int goToChange(int step);
    bool isTimelineShown() const;

signals:
    /// The user switched the pass at `step` of the pipeline in the table (`name` is its Paddle
    /// name; the same pass may be listed at other steps too, which keep their switch).
    void passToggled(int step, const QString &name, bool enabled);
    /// The user chose a pipeline ("": PIRScope's default passes).
    void pipelineChosen(const QString &name);
    /// The user switched the numeric check per pass.
    void checkNumericsChanged(bool on);
    /// Step `step`'s diff is on screen (graph layout may still be running); shownDiff() has it.
    void stepShown(int step);
    /// Every step's counts are known.
    void countsFinished();
    /// setTimeline() showed a timeline of `steps` steps (emitted for a non-null one only).
    void timelineShown(int steps);

protected:
    void showEvent(QShowEvent *event) override;

private:
    struct Computed;
    void compute(int step);
    void showComputed(const std::shared_ptr<Computed> &computed);
    void updateStepLabel();
    void startCounting();
    void stopCounting();

    std::shared_ptr<const PassTimeline> m_timeline;
    PassTimelineModel *m_model;
    QTableView *m_table;
    QSlider *m_slider;
    QLabel *m_position;
    QLabel *m_source;
    QComboBox *m_pipeline;
    QCheckBox *m_numerics;
    QToolButton *m_prev;
    QToolButton *m_next;
    QLabel *m_stepLabel;
    QTabWidget *m_tabs;
    PassDiffView *m_graphDiff;
    PassTextDiffView *m_textDiff;
    QThreadPool *m_pool; ///< one thread: step diffs and the counting task take turns
    DiffGraph::Options m_graphOptions;
    int m_current = -1;
    int m_shown = -1;
    std::shared_ptr<const StepDiff> m_shownDiff;
    quint64 m_generation = 0;
    std::shared_ptr<std::atomic<bool>> m_stopCounting;
    bool m_busy = false;
    QSplitter *m_splitter = nullptr;
    QList<int> m_sizesBeforeFocus;
    bool m_sized = false; ///< the splitter got its first sizes
    bool m_pipelineControls = true; ///< setPipelineControls()'s `visible`
};

} // namespace ps
