#pragma once

#include <algorithm>
#include <chrono>

/// Runs `fn` until at least `minSeconds` have passed and at least `minRuns` times; returns the
/// best (smallest) time of one run in seconds. Best-of is the least noisy statistic on a shared
/// 2-core machine.
template<class Fn> double bestOf(Fn &&fn, double minSeconds = 1.0, int minRuns = 5)
{
    using Clock = std::chrono::steady_clock;
    double best = 1e30;
    const auto start = Clock::now();
    for (int runs = 0;
         runs < minRuns || std::chrono::duration<double>(Clock::now() - start).count() < minSeconds; ++runs) {
        const auto t0 = Clock::now();
        fn();
        best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
    }
    return best;
}
