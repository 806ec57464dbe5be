#include "core/runtime/backend.h"
#include "core/runtime/kernelregistry.h"
#include "kernelcase.h"

#include <QtTest>

/// Runs every case under tests/fixtures/kernels/grad (written by make_grad_cases.py) through the
/// CPU backend's `*_grad` kernels and checks the registry holds the grad ops real programs use.
class TestCpuGradKernels : public QObject
{
    Q_OBJECT

private slots:
    void cases_data();
    void cases();
    void registersProgramGradOps();
};

void TestCpuGradKernels::cases_data()
{
    QTest::addColumn<QString>("dir");
    const QStringList names = kernelcase::cases(QStringLiteral("grad"));
    QVERIFY2(names.size() >= 60, qPrintable(QStringLiteral("only %1 grad cases").arg(names.size())));
    for (const QString &name : names)
        QTest::newRow(qPrintable(name)) << kernelcase::root() + QStringLiteral("/grad/") + name;
}

void TestCpuGradKernels::cases()
{
    QFETCH(QString, dir);
    std::unique_ptr<ps::Backend> backend = ps::createCpuBackend();
    const kernelcase::Outcome outcome = kernelcase::run(dir, *backend);
    QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
    QVERIFY(outcome.compared > 0);
}

void TestCpuGradKernels::registersProgramGradOps()
{
    // Every grad op in the backward programs of tests/fixtures/paddle and tests/fixtures/vjp.
    const char *ops[] = { "add_grad", "subtract_grad", "multiply_grad", "divide_grad", "matmul_grad",
        "bmm_grad", "relu_grad", "gelu_grad", "tanh_grad", "sigmoid_grad", "silu_grad", "swish_grad",
        "hardswish_grad", "sin_grad", "cos_grad", "exp_grad", "log_grad", "sqrt_grad", "rsqrt_grad",
        "square_grad", "abs_grad", "erf_grad", "elu_grad", "softplus_grad", "leaky_relu_grad", "relu6_grad",
        "pow_grad", "clip_grad", "maximum_grad", "where_grad", "softmax_grad", "log_softmax_grad",
        "logsumexp_grad", "layer_norm_grad", "batch_norm_grad", "instance_norm_grad", "group_norm_grad",
        "conv2d_grad", "depthwise_conv2d_grad", "conv2d_transpose_grad", "pool2d_grad", "nearest_interp_grad",
        "mean_grad", "mean_all_grad", "sum_grad", "max_grad", "cumsum_grad", "reshape_grad", "transpose_grad",
        "flatten_grad", "squeeze_grad", "unsqueeze_grad", "concat_grad", "stack_grad", "slice_grad",
        "tile_grad", "expand_grad", "gather_grad", "topk_grad", "pad3d_grad", "set_value_grad",
        "embedding_grad", "cross_entropy_with_softmax_grad", "sigmoid_cross_entropy_with_logits_grad",
        "dropout_grad", "add_n" };
    std::unique_ptr<ps::Backend> backend = ps::createCpuBackend();
    for (const char *op : ops) {
        const std::string name = std::string("pd_op.") + op;
        QVERIFY2(backend->kernels().has(name), name.c_str());
    }
}

QTEST_GUILESS_MAIN(TestCpuGradKernels)
#include "tst_cpugradkernels.moc"
