#include "ui/common/devicetext.h"

#include <QCoreApplication>

namespace ps {

QString DeviceText::of(Device device)
{
    if (device.isPlainCpu())
        return QCoreApplication::translate("DeviceText", "CPU (plain kernels)");
    if (device.isCpu())
        return QCoreApplication::translate("DeviceText", "CPU");
    const QString cuda = QStringLiteral("CUDA:%1").arg(device.index);
    if (device.isSimulated())
        return QCoreApplication::translate("DeviceText", "%1 (emulated on the CPU)").arg(cuda);
    return cuda;
}

} // namespace ps
