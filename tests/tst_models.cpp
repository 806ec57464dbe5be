#include "core/io/programloader.h"
#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "ui/common/itemroles.h"
#include "ui/diagnosticsmodel.h"
#include "ui/inplacegroupsmodel.h"
#include "ui/opfilterproxymodel.h"
#include "ui/oplistmodel.h"
#include "ui/programdocument.h"
#include "ui/propertiesmodel.h"
#include "ui/valuenamemapmodel.h"

#include <QAbstractItemModelTester>
#include <QFileInfo>
#include <QtTest>

using namespace ps;

namespace {

Type tensor(std::vector<int64_t> dims)
{
    return Type::denseTensor(DataType::Float32, std::move(dims));
}

/// w, x → matmul → relu_ (inplace) → shadow_output "out".
struct Doc
{
    Operation *param, *data, *matmul, *relu, *output;
    std::shared_ptr<const ProgramDocument> doc;

    Doc()
    {
        auto program = std::make_unique<Program>();
        Builder b(*program);
        b.setInsertionPointToEnd(program->block());
        param = b.create(
            "builtin.parameter", {}, { tensor({ 8, 8 }) }, { { "parameter_name", Attribute::string("w") } });
        data = b.create("pd_op.data", {}, { tensor({ -1, 8 }) },
            { { "name", Attribute::string("x") }, { "shape", Attribute::intArray({ -1, 8 }) } });
        matmul = b.create("pd_op.matmul", { data->result(0), param->result(0) }, { tensor({ -1, 8 }) },
            { { "transpose_x", Attribute::boolean(false) }, { "transpose_y", Attribute::boolean(true) } });
        relu = b.create("pd_op.relu_", { matmul->result(0) }, { tensor({ -1, 8 }) });
        output = b.create("builtin.shadow_output", { relu->result(0) }, {},
            { { "output_name", Attribute::string("out") } });
        doc = std::make_shared<ProgramDocument>(
            std::move(program), QStringLiteral("hand.json"), LoadResult::Format::PirJson, 0.001);
    }
};

QStringList childTexts(const QAbstractItemModel &m, const QModelIndex &parent, int column = 0)
{
    QStringList out;
    for (int r = 0; r < m.rowCount(parent); ++r)
        out << m.index(r, column, parent).data().toString();
    return out;
}

QModelIndex findRow(const QAbstractItemModel &m, const QModelIndex &parent, const QString &key)
{
    for (int r = 0; r < m.rowCount(parent); ++r)
        if (m.index(r, 0, parent).data().toString() == key)
            return m.index(r, 0, parent);
    return {};
}

void attachTester(QAbstractItemModel *model, QObject *owner)
{
    new QAbstractItemModelTester(model, QAbstractItemModelTester::FailureReportingMode::QtTest, owner);
}

} // namespace

/// The panel models, each checked by QAbstractItemModelTester and by content.
class TestModels : public QObject
{
    Q_OBJECT

private slots:
    void opList();
    void opFilter_data();
    void opFilter();
    void propertiesOfOp();
    void propertiesOfValue();
    void valueNameMap();
    void inplaceGroups();
    void inplaceRenames();
    void diagnostics();
    void realSampleThroughAllModels();
};

void TestModels::opList()
{
    Doc d;
    OpListModel model;
    attachTester(&model, this);
    model.setDocument(d.doc);
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.columnCount(), int(OpListModel::ColumnCount));
    QCOMPARE(model.index(2, OpListModel::NameColumn).data().toString(), QStringLiteral("pd_op.matmul"));
    QCOMPARE(
        model.index(2, OpListModel::ResultsColumn).data().toString(), d.doc->valueId(d.matmul->result(0)));
    QCOMPARE(model.index(1, OpListModel::NamesColumn).data().toString(), QStringLiteral("x"));
    QCOMPARE(model.index(3, OpListModel::NamesColumn).data().toString(), QStringLiteral("out"));
    QCOMPARE(opFromIndex(model.index(3, 0)), d.relu);
    QCOMPARE(model.rowOf(d.output), 4);
    model.setDocument(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void TestModels::opFilter_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<QStringList>("ops");
    QTest::newRow("empty") << ""
                           << QStringList { "builtin.parameter", "pd_op.data", "pd_op.matmul", "pd_op.relu_",
                                  "builtin.shadow_output" };
    QTest::newRow("op name, any case") << "MATMUL" << QStringList { "pd_op.matmul" };
    QTest::newRow("value name") << "out" << QStringList { "pd_op.relu_", "builtin.shadow_output" };
    QTest::newRow("id: definer and users") << "%2" << QStringList { "pd_op.matmul", "pd_op.relu_" };
    QTest::newRow("id is exact") << "%" << QStringList {};
    QTest::newRow("no match") << "conv2d" << QStringList {};
}

void TestModels::opFilter()
{
    QFETCH(QString, query);
    QFETCH(QStringList, ops);
    Doc d;
    OpListModel model;
    model.setDocument(d.doc);
    QCOMPARE(d.doc->valueId(d.matmul->result(0)), QStringLiteral("%2"));
    OpFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    attachTester(&proxy, this);
    proxy.setQuery(query);
    QCOMPARE(childTexts(proxy, {}, OpListModel::NameColumn), ops);
}

void TestModels::propertiesOfOp()
{
    Doc d;
    PropertiesModel model;
    attachTester(&model, this);
    model.setDocument(d.doc);
    QCOMPARE(model.rowCount(), 0);
    model.showOp(d.matmul);
    QCOMPARE(model.currentOp(), d.matmul);
    QCOMPARE(childTexts(model, {}), (QStringList { "Operation", "Attributes", "Operands", "Results" }));
    const QModelIndex op = findRow(model, {}, "Operation");
    QCOMPARE(model.index(op.row(), 1).data().toString(), QStringLiteral("pd_op.matmul"));
    QCOMPARE(model.index(1, 1, op).data().toString(), QStringLiteral("compute"));

    const QModelIndex attrs = findRow(model, {}, "Attributes");
    QCOMPARE(childTexts(model, attrs), (QStringList { "transpose_x", "transpose_y" }));
    QCOMPARE(childTexts(model, attrs, 1), (QStringList { "false", "true" }));

    const QModelIndex operands = findRow(model, {}, "Operands");
    QCOMPARE(model.rowCount(operands), 2);
    const QModelIndex first = model.index(0, 0, operands);
    QCOMPARE(first.data().toString(), QStringLiteral("0: %1").arg(d.doc->valueId(d.data->result(0))));
    QVERIFY(model.index(0, 1, operands).data().toString().contains(QStringLiteral("?x8xf32")));
    QVERIFY(model.index(0, 1, operands).data().toString().contains(QStringLiteral("x")));
    QCOMPARE(valueFromIndex(first), d.data->result(0));
    QCOMPARE(opFromIndex(first), d.data);

    const QModelIndex results = findRow(model, {}, "Results");
    const QModelIndex r0 = model.index(0, 0, results);
    const QModelIndex users = findRow(model, r0, "Users");
    QVERIFY(users.isValid());
    QCOMPARE(model.rowCount(users), 1);
    QCOMPARE(opFromIndex(model.index(0, 0, users)), d.relu);

    model.clear();
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.currentOp());
}

void TestModels::propertiesOfValue()
{
    Doc d;
    PropertiesModel model;
    attachTester(&model, this);
    model.setDocument(d.doc);
    const Value out = d.relu->result(0);
    model.showValue(out);
    QCOMPARE(model.currentValue(), out);
    const QModelIndex ident = findRow(model, {}, "Value");
    QCOMPARE(model.index(ident.row(), 1).data().toString(), d.doc->valueId(out));
    const QModelIndex names = findRow(model, ident, "Names");
    QCOMPARE(model.index(names.row(), 1, ident).data().toString(), QStringLiteral("out (shadow_output)"));
    const QModelIndex def = findRow(model, ident, "Defined by");
    QCOMPARE(opFromIndex(def), d.relu);
    const QModelIndex group = findRow(model, {}, "Inplace group");
    QVERIFY(group.isValid());
    QCOMPARE(model.index(group.row(), 1).data().toString(), d.doc->valueId(out));
}

void TestModels::valueNameMap()
{
    Doc d;
    ValueNameMapModel model;
    attachTester(&model, this);
    model.setDocument(d.doc);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(childTexts(model, {}, ValueNameMapModel::NameColumn), (QStringList { "w", "x", "out" }));
    QCOMPARE(childTexts(model, {}, ValueNameMapModel::SourceColumn),
        (QStringList { "parameter", "data", "shadow_output" }));
    QCOMPARE(valueFromIndex(model.index(2, 0)), d.relu->result(0));
    QCOMPARE(opFromIndex(model.index(2, 0)), d.output);
    QVERIFY(model.index(0, ValueNameMapModel::OpColumn).data().toString().startsWith("builtin.parameter"));
}

void TestModels::inplaceGroups()
{
    Doc d;
    InplaceGroupsModel model;
    attachTester(&model, this);
    model.setDocument(d.doc);
    QCOMPARE(model.rowCount(), 1);
    const QModelIndex group = model.index(0, 0);
    QCOMPARE(group.data(GroupRole).toInt(), 0);
    QCOMPARE(model.index(0, InplaceGroupsModel::NameColumn).data().toString(), QStringLiteral("out"));
    QCOMPARE(model.rowCount(group), 2);
    QSet<ValueImpl *> members;
    for (int r = 0; r < 2; ++r)
        members.insert(valueFromIndex(model.index(r, 0, group)).impl());
    QCOMPARE(members, (QSet<ValueImpl *> { d.matmul->result(0).impl(), d.relu->result(0).impl() }));
    QCOMPARE(model.parent(model.index(1, 2, group)), group);
    model.setDocument(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

// a = relu(x) is shadow-output as "middle_0", b = relu_(a) as "out_1": a's shadow_output is
// renamed to the root's name, and the panel lists it as the CLI does.
void TestModels::inplaceRenames()
{
    auto program = std::make_unique<Program>();
    Builder b(*program);
    b.setInsertionPointToEnd(program->block());
    Operation *x = b.create("pd_op.data", {}, { tensor({ 4 }) }, { { "name", Attribute::string("x") } });
    Operation *a = b.create("pd_op.relu", { x->result(0) }, { tensor({ 4 }) });
    Operation *shadowA = b.create(
        "builtin.shadow_output", { a->result(0) }, {}, { { "output_name", Attribute::string("middle_0") } });
    Operation *r = b.create("pd_op.relu_", { a->result(0) }, { tensor({ 4 }) });
    b.create(
        "builtin.shadow_output", { r->result(0) }, {}, { { "output_name", Attribute::string("out_1") } });
    auto doc = std::make_shared<ProgramDocument>(
        std::move(program), QStringLiteral("renames.txt"), LoadResult::Format::PirText, 0.001);

    InplaceGroupsModel model;
    attachTester(&model, this);
    model.setDocument(doc);
    QCOMPARE(model.rowCount(), 2); // the group, then the renames
    const QModelIndex renames = model.index(1, 0);
    QCOMPARE(renames.data().toString(), QStringLiteral("Renames"));
    QCOMPARE(
        model.index(1, InplaceGroupsModel::NameColumn).data().toString(), QStringLiteral("1 shadow output"));
    QCOMPARE(model.rowCount(renames), 1);
    const QModelIndex rename = model.index(0, 0, renames);
    QCOMPARE(rename.data().toString(), doc->valueId(a->result(0)));
    QCOMPARE(model.index(0, InplaceGroupsModel::NameColumn, renames).data().toString(),
        QStringLiteral("middle_0 → out_1"));
    QCOMPARE(model.index(0, InplaceGroupsModel::DetailColumn, renames).data().toString(),
        QStringLiteral("builtin.shadow_output  #%1").arg(doc->indexOf(shadowA)));
    QCOMPARE(valueFromIndex(rename), a->result(0));
    QCOMPARE(opFromIndex(rename), shadowA);
    QVERIFY(!model.index(1, 0).data(GroupRole).isValid());
    QCOMPARE(model.parent(rename), renames);
}

void TestModels::diagnostics()
{
    DiagnosticsModel model;
    attachTester(&model, this);
    DiagnosticList list;
    list.error(SourceLocation { "bad.txt", 3, 14, {}, -1 }, "expected '='");
    list.warning(SourceLocation { "bad.txt", 0, 0, "program.regions[0]", -1 }, "odd");
    model.setDiagnostics(list);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, DiagnosticsModel::SeverityColumn).data().toString(), QStringLiteral("error"));
    QCOMPARE(
        model.index(0, DiagnosticsModel::LocationColumn).data().toString(), QStringLiteral("bad.txt:3:14"));
    QCOMPARE(
        model.index(0, DiagnosticsModel::MessageColumn).data().toString(), QStringLiteral("expected '='"));
    QCOMPARE(model.index(1, DiagnosticsModel::SeverityColumn).data().toString(), QStringLiteral("warning"));
    model.setDiagnostics({});
    QCOMPARE(model.rowCount(), 0);
}

void TestModels::realSampleThroughAllModels()
{
    const QString path
        = QStringLiteral(PIRSCOPE_SAMPLES_DIR "/json/PP-OCRv5_mobile_det_infer.inference.json");
    if (!QFileInfo::exists(path))
        QSKIP("PP-OCRv5_mobile_det sample not available");
    LoadResult r = loadProgram(path.toStdString());
    QVERIFY2(r.ok(), r.diagnostics.toString().c_str());
    auto doc = std::make_shared<ProgramDocument>(std::move(r.program), path, r.format, 0);
    QCOMPARE(doc->ops().size(), size_t(668));

    OpListModel ops;
    OpFilterProxyModel proxy;
    proxy.setSourceModel(&ops);
    PropertiesModel props;
    ValueNameMapModel names;
    InplaceGroupsModel groups;
    for (QAbstractItemModel *m :
        std::initializer_list<QAbstractItemModel *> { &ops, &proxy, &props, &names, &groups })
        attachTester(m, this);
    ops.setDocument(doc);
    props.setDocument(doc);
    names.setDocument(doc);
    groups.setDocument(doc);
    QCOMPARE(ops.rowCount(), 668);
    proxy.setQuery(QStringLiteral("conv2d"));
    QVERIFY(proxy.rowCount() > 10);
    for (int row = 0; row < proxy.rowCount(); ++row)
        QVERIFY(proxy.index(row, OpListModel::NameColumn).data().toString().contains("conv2d")
            || proxy.index(row, OpListModel::NamesColumn).data().toString().contains("conv2d"));
    props.showOp(doc->ops()[300]);
    QVERIFY(props.rowCount() >= 3);
    QVERIFY(names.rowCount() > 200); // parameters, the data op, the fetch
    QVERIFY(groups.rowCount() > 0); // batch_norm_ is inplace
}

QTEST_MAIN(TestModels)
#include "tst_models.moc"
