#include "core/runtime/cudasim/simgrid.h"

#include "core/runtime/cudasim/simfiber.h"

#include <bit>
#include <memory>
#include <stdexcept>
#include <vector>

namespace ps::cudasim {
namespace {

using namespace api;

enum class State : unsigned char { Ready, AtBarrier, AtWarp, Done };

struct Warp
{
    uint32_t liveMask = 0; ///< lanes that exist and have not exited
    uint32_t arrived = 0; ///< lanes waiting at the current exchange
    uint32_t mask = 0; ///< the mask of the current exchange
    uint64_t generation = 0;
    uint64_t slots[2][32] = {};
};

/// One block in flight on this thread.
struct Block
{
    const std::function<void()> *body = nullptr;
    bool cooperative = false;
    int threads = 0;
    int live = 0;
    int arrived = 0; ///< at the current __syncthreads
    uint64_t barrier = 0; ///< generations of __syncthreads completed
    int current = 0; ///< the running thread
    std::vector<State> state;
    std::vector<uint64_t> waitFor; ///< the generation a waiting thread waits to pass
    std::vector<uint64_t> exchanges; ///< warp exchanges each thread has done
    std::vector<Warp> warps;
    std::vector<unsigned char> shared;
    std::string error;
    SimFiber *fiber(int t);
};

thread_local Block *t_block = nullptr;
thread_local std::vector<std::unique_ptr<SimFiber>> t_fibers;

SimFiber *Block::fiber(int t)
{
    while (int(t_fibers.size()) <= t)
        t_fibers.push_back(std::make_unique<SimFiber>());
    return t_fibers[size_t(t)].get();
}

/// Thrown (only outside fibers) when an independent grid meets a barrier.
struct GridAbort : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

void setCoordinates(const Block &b, int t)
{
    threadIdx.x = unsigned(t) % blockDim.x;
    threadIdx.y = (unsigned(t) / blockDim.x) % blockDim.y;
    threadIdx.z = unsigned(t) / (blockDim.x * blockDim.y);
    (void)b;
}

/// Ends the running fiber with `message` (the scheduler abandons the block).
[[noreturn]] void abortFiber(Block &b, const std::string &message)
{
    if (b.error.empty())
        b.error = message;
    b.state[size_t(b.current)] = State::Done;
    for (;;)
        b.fiber(b.current)->yield();
}

[[noreturn]] void misuse(const std::string &message)
{
    Block *b = t_block;
    if (!b)
        throw GridAbort(message + " outside a kernel");
    if (!b->cooperative)
        throw GridAbort(message);
    abortFiber(*b, message);
}

void releaseWarpIfComplete(Block &b, Warp &w)
{
    if (w.arrived == 0)
        return;
    if ((w.mask & w.liveMask) != w.mask) {
        if (b.error.empty())
            b.error = "a warp shuffle waits for a lane that has exited (mask 0x" + std::to_string(w.mask) + ")";
        return;
    }
    if (uint32_t(std::popcount(w.arrived)) == uint32_t(std::popcount(w.mask))) {
        ++w.generation;
        w.arrived = 0;
    }
}

void releaseBarrierIfComplete(Block &b)
{
    if (b.arrived > 0 && b.arrived == b.live) {
        ++b.barrier;
        b.arrived = 0;
    }
}

void threadEntry(void *arg)
{
    auto *b = static_cast<Block *>(arg);
    try {
        (*b->body)();
    } catch (const std::exception &e) {
        if (b->error.empty())
            b->error = std::string("a kernel thread threw: ") + e.what();
    }
    const int t = b->current;
    b->state[size_t(t)] = State::Done;
    --b->live;
    Warp &w = b->warps[size_t(t / 32)];
    w.liveMask &= ~(1u << (t % 32));
    releaseBarrierIfComplete(*b);
    releaseWarpIfComplete(*b, w);
    for (;;)
        b->fiber(t)->yield();
}

bool runnable(const Block &b, int t)
{
    switch (b.state[size_t(t)]) {
    case State::Ready:
        return true;
    case State::AtBarrier:
        return b.barrier != b.waitFor[size_t(t)];
    case State::AtWarp:
        return b.warps[size_t(t / 32)].generation != b.waitFor[size_t(t)];
    case State::Done:
        break;
    }
    return false;
}

void runCooperative(Block &b)
{
    for (int t = 0; t < b.threads; ++t) {
        b.fiber(t)->start(&threadEntry, &b);
        b.state[size_t(t)] = State::Ready;
    }
    while (b.live > 0 && b.error.empty()) {
        bool progressed = false;
        for (int t = 0; t < b.threads && b.error.empty(); ++t) {
            if (!runnable(b, t))
                continue;
            b.current = t;
            b.state[size_t(t)] = State::Ready;
            setCoordinates(b, t);
            b.fiber(t)->resume();
            progressed = true;
        }
        if (!progressed && b.error.empty())
            b.error = "the block deadlocked: " + std::to_string(b.live)
                + " threads wait at a barrier or shuffle that the others never reach";
    }
}

void runIndependent(Block &b)
{
    for (int t = 0; t < b.threads; ++t) {
        b.current = t;
        setCoordinates(b, t);
        (*b.body)();
    }
}

/// Waits (as a fiber) until the current thread's `generation` moves on.
void waitAt(Block &b, State state, uint64_t generation)
{
    const int t = b.current;
    b.state[size_t(t)] = state;
    b.waitFor[size_t(t)] = generation;
    b.fiber(t)->yield();
    b.current = t;
}

} // namespace

std::string SimGrid::run(dim3 grid, dim3 block, size_t shared, bool cooperative,
    const std::function<void()> &body, const char *name)
{
    Block b;
    b.body = &body;
    b.cooperative = cooperative;
    b.threads = int(block.x * block.y * block.z);
    b.state.assign(size_t(b.threads), State::Ready);
    b.waitFor.assign(size_t(b.threads), 0);
    b.exchanges.assign(size_t(b.threads), 0);
    b.warps.resize(size_t((b.threads + 31) / 32));
    b.shared.resize(shared);
    gridDim = grid;
    blockDim = block;
    Block *outer = t_block;
    t_block = &b;
    std::string error;
    try {
        for (unsigned z = 0; z < grid.z && error.empty(); ++z)
            for (unsigned y = 0; y < grid.y && error.empty(); ++y)
                for (unsigned x = 0; x < grid.x && error.empty(); ++x) {
                    blockIdx = uint3 { x, y, z };
                    b.live = b.threads;
                    b.arrived = 0;
                    std::fill(b.exchanges.begin(), b.exchanges.end(), 0);
                    for (size_t w = 0; w < b.warps.size(); ++w) {
                        const int lanes = std::min(32, b.threads - int(w) * 32);
                        b.warps[w] = Warp {};
                        b.warps[w].liveMask = lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1);
                    }
                    std::fill(b.shared.begin(), b.shared.end(), 0xCD);
                    if (cooperative)
                        runCooperative(b);
                    else
                        runIndependent(b);
                    error = b.error;
                }
    } catch (const std::exception &e) {
        error = e.what();
    }
    t_block = outer;
    if (!error.empty())
        error += std::string(" (in ") + name + ")";
    return error;
}

void *dynamicShared()
{
    return t_block ? t_block->shared.data() : nullptr;
}

uint64_t warpExchange(unsigned mask, uint64_t bits, int (*source)(int, int, int), int arg, int width)
{
    Block *b = t_block;
    if (!b || !b->cooperative)
        misuse("a warp shuffle in a kernel launched as independent (launch it with launchKernel)");
    if (width <= 0 || width > 32 || (width & (width - 1)) != 0)
        misuse("a warp shuffle with width " + std::to_string(width) + " (a power of two up to 32)");
    const int t = b->current, lane = t % 32;
    Warp &w = b->warps[size_t(t / 32)];
    const uint32_t existing = (b->threads - (t / 32) * 32) >= 32 ? 0xffffffffu
                                                                 : ((1u << (b->threads - (t / 32) * 32)) - 1);
    if ((mask & ~existing) != 0)
        misuse("a warp shuffle's mask names lanes the block does not have");
    if (!(mask & (1u << lane)))
        misuse("a warp shuffle by a lane outside its own mask");
    const uint64_t sequence = b->exchanges[size_t(t)]++;
    const int parity = int(sequence & 1);
    w.slots[parity][lane] = bits;
    if (w.arrived == 0)
        w.mask = mask;
    else if (w.mask != mask)
        misuse("lanes of one warp shuffle with different masks");
    w.arrived |= 1u << lane;
    const uint64_t generation = w.generation;
    releaseWarpIfComplete(*b, w);
    if (!b->error.empty())
        abortFiber(*b, b->error);
    if (w.generation == generation)
        waitAt(*b, State::AtWarp, generation);
    if (!b->error.empty())
        abortFiber(*b, b->error);
    const int src = source(lane, arg, width);
    if (src < 0 || src >= 32 || !(mask & (1u << src)))
        return bits;
    return w.slots[parity][src];
}

int shuffleDownSource(int lane, int delta, int width)
{
    const int base = lane / width * width, within = lane % width + delta;
    return within >= width ? lane : base + within;
}

int shuffleUpSource(int lane, int delta, int width)
{
    const int base = lane / width * width, within = lane % width - delta;
    return within < 0 ? lane : base + within;
}

int shuffleXorSource(int lane, int laneMask, int width)
{
    const int src = lane ^ laneMask;
    return src / width == lane / width ? src : lane;
}

int shuffleIndexSource(int lane, int srcLane, int width)
{
    return lane / width * width + ((srcLane % width) + width) % width;
}

namespace api {

void __syncthreads()
{
    Block *b = t_block;
    if (!b || !b->cooperative)
        misuse("__syncthreads in a kernel launched as independent (launch it with launchKernel)");
    ++b->arrived;
    const uint64_t generation = b->barrier;
    releaseBarrierIfComplete(*b);
    if (b->barrier == generation)
        waitAt(*b, State::AtBarrier, generation);
}

void __syncwarp(unsigned mask)
{
    (void)warpExchange(mask, 0, &shuffleIndexSource, 0, 32);
}

void __threadfence()
{
    std::atomic_thread_fence(std::memory_order_seq_cst);
}

} // namespace api

} // namespace ps::cudasim
