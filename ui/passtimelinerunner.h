#pragma once

#include "core/transform/passmanager.h"
#include "core/transform/passoptions.h"
#include "core/transform/passtimeline.h"
#include "ui/pipelinesnapshot.h"

#include <QObject>
#include <QString>
#include <atomic>
#include <functional>
#include <map>
#include <memory>

namespace ps {

class ParameterStore;
class Program;
class ProgramDocument;

/// Runs PIRScope's pass pipeline on a program off the UI thread and records it as a
/// PassTimeline (PassTimelineRecorder), for the pass view and the Program tab. Switching a
/// pass re-runs only the passes from that one on: the steps before it and their programs are
/// reused. Only the newest request's result is delivered. When the enabled passes changed the
/// program, the result also comes as a ProgramDocument (built on the worker) for the Program tab.
class PassTimelineRunner : public QObject
{
    Q_OBJECT

public:
    /// Builds the pipeline with the options the worker prepared (constant folding's evaluator).
    using PipelineFactory = std::function<PassManager(const PassOptions &)>;

    explicit PassTimelineRunner(QObject *parent = nullptr);
    ~PassTimelineRunner() override;

    /// The pipeline run (default: PassManager::withDefaultPasses); takes effect at the next run.
    void setPipeline(PipelineFactory factory) { m_factory = std::move(factory); }
    /// Runs one of Paddle's pipelines (PassPipeline) from the start, or the default one for an
    /// empty name; false for an unknown name.
    bool setPipelineName(const std::string &name);
    const std::string &pipelineName() const { return m_pipelineName; }
    /// Checks every pass numerically (PassTimelineNumerics: the CPU oracle, random inputs and
    /// parameters of seed 0) and re-runs from the start. Default: on for programs of at most
    /// kNumericsOpLimit ops, where a run per pass stays short.
    void setCheckNumerics(bool on);
    bool checkNumerics() const { return m_checkNumerics; }
    static constexpr size_t kNumericsOpLimit = 500;
    /// Ops one run of the numeric check may execute (a loop that never ends is "not run").
    static constexpr uint64_t kNumericsMaxOps = 10'000'000;
    /// Runs the pipeline on `program` from the start with the switches kept; null clears.
    /// `path` names the result document.
    void setInput(std::shared_ptr<const Program> program, const QString &path);
    /// Switches every instance of a pass (Paddle name or alias) and re-runs from the first.
    void setPassEnabled(const std::string &name, bool enabled);
    /// Switches the `index`th pass of the pipeline only (a pipeline may list a pass twice) and
    /// re-runs from it; ignored when out of range.
    void setPassEnabledAt(size_t index, bool enabled);
    const PassSwitches &switches() const { return m_switches.byName; }
    /// Whether the user switched a pass since the last setInput().
    bool switchedByUser() const { return m_switchedByUser; }

    std::shared_ptr<const PassTimeline> current() const { return m_current; }
    std::shared_ptr<const ProgramDocument> resultDocument() const { return m_result; }
    bool isBusy() const { return m_busy; }
    /// The first step the latest delivered run recomputed (0: all of them).
    size_t lastRunFrom() const { return m_lastRunFrom; }

signals:
    /// `result` is null when the passes left the program unchanged.
    void timelineReady(
        std::shared_ptr<const ps::PassTimeline> timeline, std::shared_ptr<const ps::ProgramDocument> result);
    void busyChanged(bool busy);

private:
    /// The user's switches: by name, then per pipeline position (applied after the names).
    struct Switches
    {
        PassSwitches byName;
        std::map<size_t, bool> byIndex;
        void applyTo(PassManager &pm) const;
    };
    struct Result;
    void request(size_t fromStep);
    void rerunChanged();
    void setBusy(bool busy);
    PassManager makePipeline(const Switches &switches, const PassOptions &options = {}) const;

    PipelineFactory m_factory;
    std::string m_pipelineName;
    bool m_checkNumerics = false;
    bool m_numericsChosen = false; ///< setCheckNumerics was called: no default by size
    /// Parameters of the program (random, seed 0), shared by the runs of one input so the
    /// parameters constant folding made stay there for a re-run; used only on the worker.
    std::shared_ptr<ParameterStore> m_store;
    std::shared_ptr<const Program> m_input;
    QString m_path;
    Switches m_switches;
    bool m_switchedByUser = false;
    std::shared_ptr<const PassTimeline> m_current;
    Switches m_currentSwitches; ///< the switches m_current was computed with
    std::shared_ptr<const ProgramDocument> m_result;
    size_t m_lastRunFrom = 0;
    quint64 m_generation = 0;
    std::shared_ptr<std::atomic<quint64>> m_latest;
    bool m_busy = false;
};

} // namespace ps
