#pragma once

#include <QFile>
#include <QString>
#include <QTemporaryDir>

/// A program whose inputs cover the input-shape rules: x an image with dynamic batch, height and
/// width; ids dynamic in both dims; s whose batch dim alone is dynamic; y static. x feeds a relu
/// whose result is the output.
inline const char *const kDynamicInputs = R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[-1,3,-1,-1],stop_gradient:[true]} : () -> tensor<-1x3x-1x-1xf32>
    (%1) = "pd_op.data" () {dtype:int64,name:"ids",place:Place(cpu),shape:[-1,-1],stop_gradient:[true]} : () -> tensor<-1x-1xi64>
    (%2) = "pd_op.data" () {dtype:float32,name:"s",place:Place(cpu),shape:[-1,2],stop_gradient:[true]} : () -> tensor<-1x2xf32>
    (%3) = "pd_op.data" () {dtype:float32,name:"y",place:Place(cpu),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>
    (%4) = "pd_op.relu" (%0) {} : (tensor<-1x3x-1x-1xf32>) -> tensor<-1x3x-1x-1xf32>
    () = "builtin.shadow_output" (%4) {output_name:"out"} : (tensor<-1x3x-1x-1xf32>) -> 
}
)";

/// Writes `content` to `name` in `dir`; the path, or "" when it could not be written.
inline QString writeTestFile(const QTemporaryDir &dir, const QString &name, const QByteArray &content)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(content) != content.size())
        return {};
    return path;
}
