#include "core/runtime/onednn/onednnengine.h"

#include "core/runtime/tensor.h"

#include <cstdlib>
#include <cstring>

namespace ps {
namespace {

std::string descKey(const dnnl::memory::desc &d)
{
    const dnnl_memory_desc_t &c = d.data;
    std::string key;
    key.append(reinterpret_cast<const char *>(&c), sizeof(c));
    return key;
}

uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h;
}

uint64_t fingerprint(const Tensor &t)
{
    const auto *bytes = static_cast<const unsigned char *>(t.rawData());
    const size_t element = t.elementSize();
    const size_t n = size_t(t.numElements());
    uint64_t h = n;
    constexpr size_t kSamples = 64;
    for (size_t s = 0; s < kSamples && n > 0; ++s) {
        const size_t i = s == kSamples - 1 ? n - 1 : s * n / kSamples;
        uint64_t v = 0;
        std::memcpy(&v, bytes + i * element, element < sizeof(v) ? element : sizeof(v));
        h = mix(h, v);
    }
    return h;
}

// The per-thread scratchpad: grown, never shrunk, freed with the thread.
struct Scratch
{
    void *data = nullptr;
    size_t bytes = 0;
    ~Scratch() { std::free(data); }
    void *reserve(size_t n)
    {
        if (n > bytes) {
            std::free(data);
            bytes = (n + 63) / 64 * 64;
            data = std::aligned_alloc(64, bytes);
            if (!data) {
                bytes = 0;
                throw std::bad_alloc();
            }
        }
        return data;
    }
};

} // namespace

OneDnnEngine &OneDnnEngine::instance()
{
    static OneDnnEngine engine;
    return engine;
}

OneDnnEngine::OneDnnEngine()
    : m_engine(dnnl::engine::kind::cpu, 0)
{
}

dnnl::memory OneDnnEngine::weights(
    const Tensor &w, const dnnl::memory::desc &plain, const dnnl::memory::desc &wanted)
{
    dnnl::memory user(plain, m_engine, const_cast<void *>(w.rawData()));
    if (plain == wanted)
        return user;
    std::string key = descKey(wanted);
    const void *address = w.rawData();
    key.append(reinterpret_cast<const char *>(&address), sizeof(address));
    const uint64_t print = fingerprint(w);
    {
        std::lock_guard lock(m_mutex);
        auto it = m_weights.find(key);
        if (it != m_weights.end() && it->second.fingerprint == print) {
            const std::shared_ptr<void> alive = it->second.storage.lock();
            if (alive && alive.get() == static_cast<void *>(w.storage().get()))
                return it->second.memory;
        }
    }
    dnnl::memory reordered(wanted, m_engine);
    reorder(user, reordered);
    std::lock_guard lock(m_mutex);
    // Weights of freed storages are dropped every 64 insertions, so a long session that loads
    // many programs does not keep their reorders.
    if (++m_weightInserts % 64 == 0)
        std::erase_if(m_weights, [](const auto &entry) { return entry.second.storage.expired(); });
    m_weights[key] = KeptWeights { w.storage(), print, reordered };
    return reordered;
}

void OneDnnEngine::execute(const dnnl::primitive &primitive, std::unordered_map<int, dnnl::memory> args,
    const dnnl::memory::desc &scratchpad)
{
    thread_local dnnl::stream stream(m_engine);
    thread_local Scratch scratch;
    if (const size_t bytes = scratchpad.get_size(); bytes > 0)
        args.emplace(DNNL_ARG_SCRATCHPAD, dnnl::memory(scratchpad, m_engine, scratch.reserve(bytes)));
    primitive.execute(stream, args);
    stream.wait();
    m_executions.fetch_add(1, std::memory_order_relaxed);
}

void OneDnnEngine::reorder(const dnnl::memory &from, const dnnl::memory &to)
{
    const dnnl::memory::desc src = from.get_desc(), dst = to.get_desc();
    struct ReorderPlan
    {
        dnnl::reorder primitive;
        dnnl::memory::desc scratchpad;
    };
    const auto plan = this->plan<ReorderPlan>("reorder" + descKey(src) + descKey(dst), [&] {
        dnnl::primitive_attr attr;
        attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
        dnnl::reorder::primitive_desc pd(m_engine, src, m_engine, dst, attr);
        return ReorderPlan { dnnl::reorder(pd), pd.scratchpad_desc() };
    });
    if (!plan)
        throw dnnl::error(dnnl_unimplemented, "no reorder between these layouts");
    execute(plan->primitive, { { DNNL_ARG_FROM, from }, { DNNL_ARG_TO, to } }, plan->scratchpad);
}

size_t OneDnnEngine::planCount() const
{
    std::lock_guard lock(m_mutex);
    return m_plans.size();
}

size_t OneDnnEngine::weightCount() const
{
    std::lock_guard lock(m_mutex);
    return m_weights.size();
}

std::string oneDnnVersionText()
{
    const dnnl_version_t *v = dnnl_version();
    std::string text = "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "."
        + std::to_string(v->patch);
    switch (v->cpu_runtime) {
    case DNNL_RUNTIME_OMP:
        return text + " (OpenMP)";
    case DNNL_RUNTIME_TBB:
        return text + " (TBB)";
    case DNNL_RUNTIME_THREADPOOL:
        return text + " (threadpool)";
    case DNNL_RUNTIME_SEQ:
        return text + " (sequential)";
    default:
        return text;
    }
}

} // namespace ps
