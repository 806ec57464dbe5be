#pragma once

#ifdef PIRSCOPE_HAVE_MIMALLOC
#    include <mimalloc.h>
#endif

/// Called first thing in main() by the executables that link mimalloc (pirscope, pirscope-cli).
///
/// mimalloc gives a freed page back to the OS (decommits it) 25 ms after its last block went, so
/// a program run again after more than that (a debugger's restart, each run of `bench run`: a
/// ResNet-18 forward takes 35 ms) faults every output buffer in again, zeroed by the kernel: about
/// 2000 page faults, 0.4 ms, per ResNet-18 run here, and none with this delay. At one second a
/// run's freed memory still goes back to the OS once the process idles, so memory the debugger
/// no longer uses is not held for long.
inline void tuneAllocator()
{
#ifdef PIRSCOPE_HAVE_MIMALLOC
    mi_option_set(mi_option_decommit_delay, 1000);
#endif
}

/// For a process that runs many different programs once each and exits (`passes
/// --check-numerics`: two runs per changed pass, each with its own values and copies): mimalloc's
/// own 25 ms decommit delay again, as nothing is run again to reuse the pages. On PP-OCRv5 server
/// det (1x3x320x320, inference-gpu) peak RSS 608 -> 545 MB for about 5% more CPU time; a delay of
/// 0 gave 483 MB but 1.7 times the CPU time (every freed buffer faulted in again).
inline void decommitPromptly()
{
#ifdef PIRSCOPE_HAVE_MIMALLOC
    mi_option_set(mi_option_decommit_delay, 25);
#endif
}
