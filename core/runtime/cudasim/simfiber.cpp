#include "core/runtime/cudasim/simfiber.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sys/mman.h>
#include <unistd.h>

#if !defined(__x86_64__)
#    include <ucontext.h>
#endif

#if defined(__x86_64__)
// void ps_cudasim_switch(void **saveSp, void *loadSp): pushes the callee-saved registers and the
// MXCSR/x87 control words, stores the stack pointer into *saveSp, loads loadSp and pops the
// same from it. A new fiber's stack is prepared so that the pop "returns" into its trampoline.
asm(R"(
    .text
    .globl ps_cudasim_switch
    .type ps_cudasim_switch, @function
ps_cudasim_switch:
    .cfi_startproc
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .cfi_endproc
    .size ps_cudasim_switch, .-ps_cudasim_switch

    .globl ps_cudasim_fiber_start
    .type ps_cudasim_fiber_start, @function
ps_cudasim_fiber_start:
    .cfi_startproc
    .cfi_undefined rip
    movq %rbx, %rdi
    callq *%r12
    ud2
    .cfi_endproc
    .size ps_cudasim_fiber_start, .-ps_cudasim_fiber_start
)");
extern "C" void ps_cudasim_switch(void **saveSp, void *loadSp);
extern "C" void ps_cudasim_fiber_start();
#endif

namespace ps::cudasim {

SimFiber::SimFiber(size_t stackBytes)
{
    const size_t page = size_t(sysconf(_SC_PAGESIZE));
    m_stackBytes = (stackBytes + page - 1) / page * page;
    void *p = mmap(nullptr, m_stackBytes + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
        -1, 0);
    if (p == MAP_FAILED) {
        std::fprintf(stderr, "cuda-sim: cannot map a fiber stack of %zu bytes\n", m_stackBytes);
        std::abort();
    }
    mprotect(p, page, PROT_NONE); // guard page: a stack overflow faults instead of corrupting
    m_stack = static_cast<char *>(p) + page;
#if !defined(__x86_64__)
    m_fiberContext = new ucontext_t;
    m_callerContext = new ucontext_t;
#endif
}

SimFiber::~SimFiber()
{
    const size_t page = size_t(sysconf(_SC_PAGESIZE));
    munmap(static_cast<char *>(m_stack) - page, m_stackBytes + page);
#if !defined(__x86_64__)
    delete static_cast<ucontext_t *>(m_fiberContext);
    delete static_cast<ucontext_t *>(m_callerContext);
#endif
}

void SimFiber::trampoline(SimFiber *self)
{
    self->m_entry(self->m_arg);
    std::fprintf(stderr, "cuda-sim: a fiber returned from its entry instead of yielding\n");
    std::abort();
}

#if defined(__x86_64__)

void SimFiber::start(Entry entry, void *arg)
{
    m_entry = entry;
    m_arg = arg;
    // Stack top, 16-byte aligned; then (growing down) the start routine's address, which the
    // switch's `ret` pops (leaving rsp 16-byte aligned for its call), the six saved registers
    // (rbx = this, r12 = trampoline) and the control words' slot.
    auto *top = reinterpret_cast<uint64_t *>((reinterpret_cast<uintptr_t>(m_stack) + m_stackBytes) & ~uintptr_t(15));
    uint64_t *sp = top;
    *--sp = reinterpret_cast<uint64_t>(&ps_cudasim_fiber_start);
    *--sp = 0; // rbp
    *--sp = reinterpret_cast<uint64_t>(this); // rbx
    *--sp = reinterpret_cast<uint64_t>(&SimFiber::trampoline); // r12
    *--sp = 0; // r13
    *--sp = 0; // r14
    *--sp = 0; // r15
    uint32_t mxcsr = 0;
    uint16_t fpucw = 0;
    asm volatile("stmxcsr %0" : "=m"(mxcsr));
    asm volatile("fnstcw %0" : "=m"(fpucw));
    *--sp = uint64_t(mxcsr) | (uint64_t(fpucw) << 32);
    m_fiberContext = sp;
}

void SimFiber::resume()
{
    ps_cudasim_switch(&m_callerContext, m_fiberContext);
}

void SimFiber::yield()
{
    ps_cudasim_switch(&m_fiberContext, m_callerContext);
}

#else

namespace {
void ucontextEntry(unsigned hi, unsigned lo)
{
    auto *self = reinterpret_cast<SimFiber *>((uintptr_t(hi) << 32) | uintptr_t(lo));
    SimFiber::trampoline(self);
}
} // namespace

void SimFiber::start(Entry entry, void *arg)
{
    m_entry = entry;
    m_arg = arg;
    auto *ctx = static_cast<ucontext_t *>(m_fiberContext);
    getcontext(ctx);
    ctx->uc_stack.ss_sp = m_stack;
    ctx->uc_stack.ss_size = m_stackBytes;
    ctx->uc_link = nullptr;
    const uintptr_t self = reinterpret_cast<uintptr_t>(this);
    makecontext(ctx, reinterpret_cast<void (*)()>(&ucontextEntry), 2, unsigned(self >> 32), unsigned(self));
}

void SimFiber::resume()
{
    swapcontext(static_cast<ucontext_t *>(m_callerContext), static_cast<ucontext_t *>(m_fiberContext));
}

void SimFiber::yield()
{
    swapcontext(static_cast<ucontext_t *>(m_fiberContext), static_cast<ucontext_t *>(m_callerContext));
}

#endif

} // namespace ps::cudasim
