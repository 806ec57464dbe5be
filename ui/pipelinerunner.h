#pragma once

#include "ui/pipelinesnapshot.h"

#include <QObject>
#include <array>
#include <atomic>
#include <memory>

namespace ps {

struct PipelineSource;

/// Computes PipelineSnapshots off the UI thread (QtConcurrent on a private pool). Every request
/// (a new source, a pass switched, the mode changed without a cached result) gets a generation
/// number; only the newest request's result is delivered, older ones are dropped and a task
/// that starts after being superseded returns at once. Results per mode are cached until the
/// source or the passes change, so flipping train/infer back is instant.
class PipelineRunner : public QObject
{
    Q_OBJECT

public:
    explicit PipelineRunner(QObject *parent = nullptr);
    ~PipelineRunner() override;

    /// Starts over with `source` (null clears), in `training` mode, the passes at the
    /// flavour's defaults.
    void setSource(std::shared_ptr<const PipelineSource> source, bool training);
    std::shared_ptr<const PipelineSource> source() const { return m_source; }

    void setTraining(bool training);
    bool isTraining() const { return m_training; }
    /// Switches a pass (by name or alias) and recomputes.
    void setPassEnabled(const std::string &name, bool enabled);
    const PassSwitches &passSwitches() const { return m_passes; }

    /// The snapshot shown now: of the current mode, possibly older than the last request.
    std::shared_ptr<const PipelineSnapshot> current() const { return m_current; }
    bool isBusy() const { return m_busy; }
    quint64 generation() const { return m_generation; }

signals:
    /// A snapshot for the current source, mode and passes replaced current().
    void snapshotReady(std::shared_ptr<const ps::PipelineSnapshot> snapshot);
    void busyChanged(bool busy);

private:
    void request();
    void deliver(quint64 generation, std::shared_ptr<const PipelineSnapshot> snapshot);
    void setBusy(bool busy);

    std::shared_ptr<const PipelineSource> m_source;
    bool m_training = false;
    PassSwitches m_passes;
    quint64 m_generation = 0;
    /// Shared with the tasks so they can see they were superseded.
    std::shared_ptr<std::atomic<quint64>> m_latest;
    std::array<std::shared_ptr<const PipelineSnapshot>, 2> m_cache; ///< [infer, train]
    std::shared_ptr<const PipelineSnapshot> m_current;
    bool m_busy = false;
};

} // namespace ps
