#include "core/transform/programsnapshot.h"

#include "core/ir/program.h"

namespace ps {

std::shared_ptr<const ProgramSnapshot> ProgramSnapshot::of(
    std::shared_ptr<const Program> program, OpKeys keys)
{
    std::shared_ptr<ProgramSnapshot> s(new ProgramSnapshot);
    auto loaded = std::make_shared<LoadedProgram>();
    s->m_opCount = program ? program->numOpsTotal() : 0;
    loaded->program = std::move(program);
    loaded->keys = std::move(keys);
    s->m_held = std::move(loaded);
    return s;
}

std::shared_ptr<const ProgramSnapshot> ProgramSnapshot::lazy(Loader loader, size_t opCount)
{
    std::shared_ptr<ProgramSnapshot> s(new ProgramSnapshot);
    s->m_loader = std::move(loader);
    s->m_opCount = opCount;
    return s;
}

std::shared_ptr<const LoadedProgram> ProgramSnapshot::load() const
{
    if (m_held)
        return m_held;
    std::lock_guard lock(m_mutex);
    if (auto cached = m_cache.lock())
        return cached;
    auto loaded = std::make_shared<const LoadedProgram>(m_loader());
    m_cache = loaded;
    return loaded;
}

bool ProgramSnapshot::isLoaded() const
{
    if (m_held)
        return true;
    std::lock_guard lock(m_mutex);
    return !m_cache.expired();
}

} // namespace ps
