#pragma once

class QString;
class QThreadPool;

namespace ps {

/// A pool for work that recurses on deep programs (readers, the interpreter, the pass
/// pipeline): `threads` workers with a 64 MiB stack, owned by the application so that it lives
/// until exit and a closing window never waits for a running task. Makes a new pool on every
/// call: keep it in a function-local static.
QThreadPool *makeWorkerPool(const QString &name, int threads);

} // namespace ps
