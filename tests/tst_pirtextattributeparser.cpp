#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"

#include <QtTest>

using namespace ps;

namespace {

// Ops 0 and 1 repeat every attribute; ops 2 and 3 repeat `shape:[1]` and `value:1` in another
// context (an op outside the registry, not pd_op) and a value that warns.
const char *const kProgram
    = "{\n"
      "    (%0) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[1],"
      "stop_gradient:[true],value:1} : () -> tensor<1xf32>\n"
      "    (%1) = \"pd_op.full\" () {dtype:float32,place:Place(cpu),shape:[1],"
      "stop_gradient:[true],value:1} : () -> tensor<1xf32>\n"
      "    (%2) = \"custom.foo\" () {shape:[1],value:1,w:@x@,w2:@x@} : () -> tensor<1xf32>\n"
      "    (%3) = \"custom.foo\" () {shape:[1],value:1,w:@x@} : () -> tensor<1xf32>\n"
      "}\n";

} // namespace

/// PirTextAttributeParser reads a repeated `name:value` once per op context and load.
class TestPirTextAttributeParser : public QObject
{
    Q_OBJECT

private slots:
    void repeatedValuesKeepTheirContext()
    {
        const LoadResult r = PirTextReader::readString(kProgram, "t.txt");
        QVERIFY(r.program);
        const std::vector<Operation *> &ops = r.program->block().ops();
        QCOMPARE(ops.size(), size_t(4));
        QCOMPARE(ops[0]->attributes().size(), size_t(5));
        for (size_t i = 0; i < 5; ++i)
            QCOMPARE(ops[1]->attributes()[i], ops[0]->attributes()[i]);
        // The same spelling means another kind for another op: the registry's types for
        // pd_op.full, the spelling rules elsewhere (IntArray shapes only for pd_op ops).
        QCOMPARE(ops[0]->attribute("shape")->kind(), Attribute::Kind::IntArray);
        QCOMPARE(ops[2]->attribute("shape")->kind(), Attribute::Kind::Array);
        QCOMPARE(ops[2]->attribute("value")->kind(), Attribute::Kind::Int32);
        QVERIFY(ops[0]->attribute("value")->kind() != Attribute::Kind::Int32);
        QCOMPARE(*ops[3]->attribute("value"), *ops[2]->attribute("value"));
    }

    /// A value read with a warning is read again (and warns again) every time, at its own column.
    void warningsRepeat()
    {
        const LoadResult r = PirTextReader::readString(kProgram, "t.txt");
        QVERIFY(r.program);
        QCOMPARE(QString::fromStdString(r.diagnostics.toString()),
            QString(
                "t.txt:4:49: warning: unrecognised attribute value '@x@' kept as an unknown attribute\n"
                "t.txt:4:56: warning: unrecognised attribute value '@x@' kept as an unknown attribute\n"
                "t.txt:5:49: warning: unrecognised attribute value '@x@' kept as an unknown attribute\n"));
        QCOMPARE(r.program->block().ops().back()->attribute("w")->kind(), Attribute::Kind::Unknown);
    }
};

QTEST_GUILESS_MAIN(TestPirTextAttributeParser)
#include "tst_pirtextattributeparser.moc"
