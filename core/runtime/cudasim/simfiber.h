#pragma once

// A fiber for cuda-sim's block emulation: its own stack and a cooperative switch to and from the
// thread that runs it. On x86-64 the switch saves the callee-saved registers and the float
// control words (tens of nanoseconds, no system call); elsewhere it falls back to ucontext.

#include <cstddef>

namespace ps::cudasim {

class SimFiber
{
public:
    using Entry = void (*)(void *arg);

    /// A fiber with a stack of `stackBytes` (a guard page below it catches an overflow).
    explicit SimFiber(size_t stackBytes = size_t(256) << 10);
    ~SimFiber();
    SimFiber(const SimFiber &) = delete;
    SimFiber &operator=(const SimFiber &) = delete;

    /// Prepares the fiber to run entry(arg) from the start at the next resume(). A fiber may be
    /// restarted after it finished or was abandoned (its stack is simply reused).
    void start(Entry entry, void *arg);
    /// Switches from the calling thread to the fiber until it calls yield().
    void resume();
    /// Switches from the fiber back to the thread that resumed it.
    void yield();

    /// Internal: the first frame of every fiber (runs the entry; it must never return).
    static void trampoline(SimFiber *self);

private:
    void *m_stack = nullptr;
    size_t m_stackBytes = 0;
    void *m_fiberContext = nullptr; ///< saved stack pointer (x86-64) or ucontext_t
    void *m_callerContext = nullptr;
    Entry m_entry = nullptr;
    void *m_arg = nullptr;
};

} // namespace ps::cudasim
