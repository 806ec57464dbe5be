#pragma once

namespace ps {

/// Keeps Graphviz 2.42's dot from crashing after many layouts in one process.
///
/// dot's component search (lib/dotgen/decompose.c) numbers its passes with a static 8-bit
/// counter, `Cmark`, that wraps every 255 calls (two or more per layout); a layout during which
/// it wraps can segfault inside decompose() (reproduced: the 107th group layout of the test
/// suite, and at once in isolation when the counter is set to the same value). The counter is
/// not reachable through any API, so this finds it through decompose()'s own first
/// instructions (x86-64: the `movzbl Cmark(%rip)` that increments it, checked against the
/// store that follows) and, when the next layout could wrap it, lays out tiny graphs (each
/// advances it by two) until it has wrapped. It only reads Graphviz's memory; where the code
/// does not match (another Graphviz build or CPU), it does nothing. Call it under the Graphviz
/// mutex before each gvLayout.
class DotCounterGuard
{
public:
    /// `gvc`: a Graphviz context (GVC_t *) to lay out the tiny graphs with.
    static void beforeLayout(void *gvc);
    /// The counter's current value, or -1000 when it was not found (tests).
    static int counter();
};

} // namespace ps
