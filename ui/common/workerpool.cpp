#include "ui/common/workerpool.h"

#include <QCoreApplication>
#include <QString>
#include <QThreadPool>

namespace ps {

QThreadPool *makeWorkerPool(const QString &name, int threads)
{
    auto *pool = new QThreadPool(QCoreApplication::instance());
    pool->setObjectName(name);
    pool->setMaxThreadCount(threads);
    pool->setStackSize(64u << 20);
    return pool;
}

} // namespace ps
