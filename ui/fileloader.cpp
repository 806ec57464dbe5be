#include "ui/fileloader.h"

#include "core/session/pipelinesource.h"
#include "ui/programdocument.h"

#include <QEventLoop>
#include <QThread>

namespace ps {

OpenedFile FileLoader::load(const std::function<OpenedFile()> &read)
{
    OpenedFile file;
    const std::unique_ptr<QThread> worker(QThread::create([&file, &read] {
        file = read();
        if (file.source)
            file.document = std::make_shared<ProgramDocument>(
                file.source->origin, file.path, file.source->format, file.source->loadSeconds);
    }));
    worker->setObjectName(QStringLiteral("file loader"));
    worker->setStackSize(kStackSize);
    QEventLoop wait;
    QObject::connect(worker.get(), &QThread::finished, &wait, &QEventLoop::quit);
    worker->start();
    wait.exec(QEventLoop::ExcludeUserInputEvents);
    // The loop also ends when the application quits; the file is still read to the end.
    worker->wait();
    return file;
}

} // namespace ps
