#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/nestsequence.h"
#include "paddlebundle.h"

#include <QtTest>

using namespace ps;

namespace {

Type f32()
{
    return Type::denseTensor(DataType::Float32, { 2 });
}

Value data(Builder &b, const char *name)
{
    return b.create("pd_op.data", {}, { f32() }, { { "name", Attribute::string(name) } })->result(0);
}

NestNode fromJson(const QJsonObject &node, const QJsonArray &outputs, const Program &program, int &duplicates)
{
    const QString kind = node.value("kind").toString();
    if (kind == "tensor") {
        duplicates += node.value("duplicate").toBool();
        const QJsonObject def
            = outputs.at(node.value("index").toInt()).toObject().value("defined_by").toObject();
        return NestNode::leaf(program.block()
                                  .op(size_t(def.value("op_index").toInt()))
                                  ->result(unsigned(def.value("result_index").toInt())));
    }
    if (kind == "constant")
        return NestNode::constantLeaf(node.value("value").toVariant().toString().toStdString());
    std::vector<NestNode> items;
    std::vector<std::pair<std::string, NestNode>> entries;
    for (const QJsonValue &item : node.value("items").toArray()) {
        const QJsonObject o = item.toObject();
        if (kind == "dict")
            entries.emplace_back(o.value("key").toString().toStdString(),
                fromJson(o.value("value").toObject(), outputs, program, duplicates));
        else
            items.push_back(fromJson(o, outputs, program, duplicates));
    }
    if (kind == "dict")
        return NestNode::dict(std::move(entries));
    return kind == "tuple" ? NestNode::tuple(std::move(items)) : NestNode::list(std::move(items));
}

} // namespace

/// NestSequence: flatten order, de-duplication, restore.
class TestNestSequence : public QObject
{
    Q_OBJECT

private slots:
    void flattenDedupRestore()
    {
        Program p;
        Builder b(p);
        const Value v1 = data(b, "v1");
        const Value v2 = data(b, "v2");
        const Value v3 = data(b, "v3");
        // [v1, {"z": v2, "a": (v3, 7)}, v1]: dict entries flatten by sorted key.
        const NestNode raw = NestNode::list({ NestNode::leaf(v1),
            NestNode::dict({ { "z", NestNode::leaf(v2) },
                { "a", NestNode::tuple({ NestNode::leaf(v3), NestNode::constantLeaf("7") }) } }),
            NestNode::leaf(v1) });
        const NestSequence seq(raw);
        QCOMPARE(seq.varList(), std::vector<Value>({ v1, v3, v2 }));
        QCOMPARE(seq.size(), size_t(3));
        QCOMPARE(seq.flatten().size(), size_t(5));
        QCOMPARE(seq.flatten()[2]->constant, std::string("7"));
        QCOMPARE(seq.quickIndexMap(), std::vector<size_t>({ 0, 1, 2, 0 }));
        QCOMPARE(seq.duplicates().size(), size_t(1));
        QCOMPARE(seq.duplicates()[0]->value, v1);

        // restore: one value per distinct entry; the duplicate gets the same replacement.
        const Value t1 = data(b, "t1");
        const Value t2 = data(b, "t2");
        const Value t3 = data(b, "t3");
        NestNode restored;
        QVERIFY(!seq.restore({ t1, t2 }, restored));
        QVERIFY(seq.restore({ t1, t3, t2 }, restored));
        QCOMPARE(restored.kind, NestNode::Kind::List);
        QCOMPARE(restored.items[0].value, t1);
        QCOMPARE(restored.items[2].value, t1);
        QCOMPARE(restored.items[1].keys, std::vector<std::string>({ "z", "a" })); // structure kept as given
        QCOMPARE(restored.items[1].items[0].value, t2);
        QCOMPARE(restored.items[1].items[1].items[0].value, t3);
        QCOMPARE(restored.items[1].items[1].items[1].constant, std::string("7"));
    }

    void emptyAndConstantsOnly()
    {
        const NestSequence empty;
        QVERIFY(empty.varList().empty());
        const NestSequence constants(
            NestNode::tuple({ NestNode::constantLeaf("1"), NestNode::constantLeaf("x") }));
        QVERIFY(constants.varList().empty());
        QVERIFY(constants.quickIndexMap().empty());
        NestNode out;
        QVERIFY(constants.restore({}, out));
        QCOMPARE(out.items.size(), size_t(2));
    }

    /// The nested_output bundle: a dict/list/tuple output with a repeated tensor, a constant and
    /// the input itself; var_list order is the order of the manifest's outputs.
    void nestedOutputBundle()
    {
        const QString d = bundle::dir("nested_output");
        if (!QFileInfo::exists(d + "/manifest.json"))
            QSKIP("golden bundle missing");
        const QJsonObject manifest = bundle::readJson(d + "/manifest.json");
        auto program = bundle::loadText(d + "/program.txt");
        QVERIFY(program);
        const QJsonArray outputs = manifest.value("outputs").toArray();
        int flaggedDuplicates = 0;
        const NestSequence seq(
            fromJson(manifest.value("output_structure").toObject(), outputs, *program, flaggedDuplicates));
        QCOMPARE(seq.size(), size_t(outputs.size()));
        for (int i = 0; i < outputs.size(); ++i) {
            const QJsonObject def = outputs.at(i).toObject().value("defined_by").toObject();
            QCOMPARE(seq.varList()[size_t(i)],
                program->block().op(size_t(def.value("op_index").toInt()))->result(0));
        }
        QCOMPARE(seq.duplicates().size(), size_t(flaggedDuplicates));
        QVERIFY(flaggedDuplicates > 0);
        // Flatten order (dict keys sorted) is the manifest's flat order, constants included.
        const QJsonArray flat = manifest.value("output_structure_flat").toArray();
        const std::vector<const NestNode *> leaves = seq.flatten();
        QCOMPARE(leaves.size(), size_t(flat.size()));
        for (int i = 0; i < flat.size(); ++i) {
            const QJsonObject leaf = flat.at(i).toObject();
            if (leaf.value("kind").toString() == "constant") {
                QCOMPARE(leaves[size_t(i)]->kind, NestNode::Kind::Constant);
                continue;
            }
            QCOMPARE(leaves[size_t(i)]->value, seq.varList()[size_t(leaf.value("index").toInt())]);
        }
    }
};

QTEST_GUILESS_MAIN(TestNestSequence)
#include "tst_nestsequence.moc"
