#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <oneapi/dnnl/dnnl.hpp>
#include <string>
#include <unordered_map>

namespace ps {

class Tensor;

/// The process's oneDNN CPU engine and what the oneDNN kernels keep between calls: primitives
/// by a key of their shapes and attributes (creating one costs 10 us to several ms; executing a
/// cached one costs its work), and weights reordered into a primitive's blocked layout by the
/// storage they came from. Thread-safe: the caches are locked, each thread executes on its own
/// stream with its own scratchpad (primitives are created with a user scratchpad for that).
///
/// Threads: Debian's libdnnl is built with OpenMP (DNNL_CPU_RUNTIME == DNNL_RUNTIME_OMP), so a
/// primitive uses omp_get_max_threads() threads: OMP_NUM_THREADS sets them.
class OneDnnEngine
{
public:
    static OneDnnEngine &instance();

    const dnnl::engine &engine() const { return m_engine; }

    /// The primitive cached under `key`, made by `make` on first use. `make` may throw
    /// dnnl::error (oneDNN has no implementation for those shapes): the failure is cached too
    /// and rethrown as a nullptr result, so a kernel falls back to the plain one once per shape.
    template<class Plan>
    std::shared_ptr<const Plan> plan(const std::string &key, const std::function<Plan()> &make)
    {
        {
            std::lock_guard lock(m_mutex);
            auto it = m_plans.find(key);
            if (it != m_plans.end())
                return std::static_pointer_cast<const Plan>(it->second);
        }
        std::shared_ptr<const Plan> made;
        try {
            made = std::make_shared<const Plan>(make());
        } catch (const dnnl::error &) {
            made = nullptr;
        }
        std::lock_guard lock(m_mutex);
        m_plans.emplace(key, made);
        return made;
    }

    /// `weights` (a host float tensor in `plain` layout) in the layout `wanted`: the tensor
    /// itself when they are equal, else a reorder kept by the weights' storage content id and
    /// offset (Storage::contentId(): a restart's clone of the parameters keeps it, a write into
    /// them drops it), so a parameter is reordered once per layout, not once per run, and a run
    /// reads it only in the reordered layout (hashing its bytes instead cost 14% of ResNet-18's
    /// forward). The kept reorders are dropped together past 1 GiB.
    dnnl::memory weights(
        const Tensor &weights, const dnnl::memory::desc &plain, const dnnl::memory::desc &wanted);

    /// Runs `primitive` on this thread's stream with `args` plus a scratchpad of `desc`'s size,
    /// and waits for it.
    void execute(const dnnl::primitive &primitive, std::unordered_map<int, dnnl::memory> args,
        const dnnl::memory::desc &scratchpad);
    /// A reorder from `from` to `to` (cached by both descriptors), executed at once.
    void reorder(const dnnl::memory &from, const dnnl::memory &to);

    /// Cached plans and reordered weights (tests, memory accounting).
    size_t planCount() const;
    size_t weightCount() const;
    /// Primitives executed so far, reorders included (tests: which path a kernel took).
    uint64_t executions() const { return m_executions.load(std::memory_order_relaxed); }

private:
    OneDnnEngine();

    dnnl::engine m_engine;
    mutable std::mutex m_mutex;
    std::unordered_map<std::string, std::shared_ptr<const void>> m_plans;
    std::unordered_map<std::string, dnnl::memory> m_weights;
    size_t m_weightBytes = 0;
    std::atomic<uint64_t> m_executions { 0 };
};

/// "oneDNN 2.6.3 (OpenMP)": the library's version as it reports it at run time.
std::string oneDnnVersionText();

} // namespace ps
