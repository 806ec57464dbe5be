#pragma once

#include "ui/openedfile.h"

#include <functional>

namespace ps {

/// Reads a file off the UI thread and waits for it without freezing the window: the reading and
/// the document's construction (O(ops + uses), the graph model included) run on a thread of their
/// own with the pipeline workers' roomy stack, while a local event loop keeps the UI thread
/// painting and delivering layouts, pipeline results and timers. User input waits until the file
/// is read, so no second open starts meanwhile. Callers get the file as if they had read it
/// themselves: MainWindow::openFile still returns whether it opened (scripts, `--screenshot` and
/// the tests rely on that).
class FileLoader
{
public:
    /// Runs `read` on a worker thread, builds the document of the source it returns there too, and
    /// returns the result once both are done. `read` must not touch QObjects of the UI thread.
    static OpenedFile load(const std::function<OpenedFile()> &read);

    /// The worker's stack: deep programs recurse in the readers and the graph builder.
    static constexpr unsigned kStackSize = 64u << 20;
};

} // namespace ps
