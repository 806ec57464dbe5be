#pragma once

// Runs one kernel grid for cuda-sim on the calling thread, block after block. In a cooperative
// grid every thread of a block is a fiber (SimFiber); __syncthreads and the warp shuffles switch
// fibers round-robin until every live thread (lane) has arrived, with CUDA's rules: exited
// threads no longer count at a barrier, a shuffle waits for the live lanes of its mask and a
// lane out of the warp or segment reads its own value. A grid launched as independent runs its
// threads one after another with no fiber; a barrier or shuffle there is an error. Misuse (a
// barrier in an independent grid, a shuffle naming an exited lane, a deadlock) ends the grid
// with a message that SimDevice makes CUDA's sticky cudaErrorLaunchFailure.

#include "core/runtime/cudasim/simapi.h"

#include <cstddef>
#include <functional>
#include <string>

namespace ps::cudasim {

class SimGrid
{
public:
    /// Runs `body` once per thread of `grid` x `block`; empty when it ran to completion, else
    /// what went wrong.
    static std::string run(api::dim3 grid, api::dim3 block, size_t shared, bool cooperative,
        const std::function<void()> &body, const char *name);
};

} // namespace ps::cudasim
