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
    std::string key = descKey(plain) + descKey(wanted);
    const uint64_t content[2] = { w.storage()->contentId(), w.byteOffset() };
    key.append(reinterpret_cast<const char *>(content), sizeof(content));
    {
        std::lock_guard lock(m_mutex);
        if (auto it = m_weights.find(key); it != m_weights.end())
            return it->second;
    }
    dnnl::memory reordered(wanted, m_engine);
    reorder(user, reordered);
    constexpr size_t kMaxBytes = size_t(1) << 30;
    std::lock_guard lock(m_mutex);
    if (m_weightBytes + wanted.get_size() > kMaxBytes) {
        m_weights.clear();
        m_weightBytes = 0;
    }
    if (m_weights.emplace(key, reordered).second)
        m_weightBytes += wanted.get_size();
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
    if (src == dst) { // oneDNN's reorder between equal blocked layouts is its scalar loop
        std::memcpy(to.get_data_handle(), from.get_data_handle(), src.get_size());
        m_executions.fetch_add(1, std::memory_order_relaxed);
        return;
    }
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
