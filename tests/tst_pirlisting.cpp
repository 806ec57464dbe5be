#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/pirlisting.h"
#include "core/ir/pirprinter.h"
#include "core/ir/program.h"
#include "core/ir/region.h"

#include <QtTest>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace ps;

namespace {

std::shared_ptr<const Program> readFixture(const char *relative)
{
    std::ifstream in(std::filesystem::path(PIRSCOPE_FIXTURES_DIR) / relative);
    std::stringstream text;
    text << in.rdbuf();
    LoadResult r = PirTextReader::readString(text.str(), relative);
    return r.ok() ? std::shared_ptr<const Program>(std::move(r.program)) : nullptr;
}

/// Line `n` (from 0) of `text`.
std::string lineOf(const std::string &text, int n)
{
    std::istringstream in(text);
    std::string line;
    for (int i = 0; i <= n && std::getline(in, line); ++i) { }
    return line;
}

const Operation *firstNamed(const Program &program, std::string_view name)
{
    const Operation *found = nullptr;
    program.block().walk([&](Operation *op) {
        if (!found && op->name() == name)
            found = op;
    });
    return found;
}

} // namespace

/// PirListing: the printer's text with every op's lines, for the GUI's PIR text view.
class TestPirListing : public QObject
{
    Q_OBJECT

private slots:
    /// The text is the printer's, byte for byte; every op's first line is its `(%N) = "name"` line.
    void textAndLinesAreThePrinters()
    {
        const auto program = readFixture("paddle/control_flow/infer_program.txt");
        QVERIFY(program);
        const PirListing listing(program);
        QCOMPARE(listing.text(), PirPrinter::toString(*program));
        size_t ops = 0;
        program->block().walk([&](Operation *op) {
            ++ops;
            const PirListing::Lines lines = listing.linesOf(op);
            QVERIFY(lines.valid());
            const std::string first = lineOf(listing.text(), lines.first);
            QVERIFY2(first.find("= \"" + std::string(op->name()) + "\"") != std::string::npos, first.c_str());
        });
        QCOMPARE(listing.opCount(), ops);
        QCOMPARE(listing.opAt(0), nullptr); // the program's brace
        QCOMPARE(listing.opAt(listing.lineCount() - 1), nullptr);
        QCOMPARE(listing.opAt(listing.lineCount()), nullptr);
        QCOMPARE(listing.lineCount(), int(std::count(listing.text().begin(), listing.text().end(), '\n')));
    }

    /// An if spans its regions' lines; a line inside belongs to the innermost op, the closing
    /// braces and `} else {` to the if.
    void regionsNestInTheirOp()
    {
        const auto program = readFixture("paddle/control_flow/infer_program.txt");
        QVERIFY(program);
        const PirListing listing(program);
        const Operation *ifOp = firstNamed(*program, "pd_op.if");
        QVERIFY(ifOp);
        const PirListing::Lines ifLines = listing.linesOf(ifOp);
        const Operation *inner = ifOp->region(0).block(0).ops().front();
        const PirListing::Lines innerLines = listing.linesOf(inner);
        QCOMPARE(innerLines.first, ifLines.first + 1);
        QCOMPARE(innerLines.last, innerLines.first);
        QCOMPARE(listing.opAt(innerLines.first), inner);
        QCOMPARE(listing.opAt(ifLines.first), ifOp);
        QCOMPARE(listing.opAt(ifLines.last), ifOp);
        QCOMPARE(lineOf(listing.text(), ifLines.last), std::string("    }"));
        int elseLine = -1;
        for (int l = ifLines.first; l <= ifLines.last; ++l)
            if (lineOf(listing.text(), l) == "    } else {")
                elseLine = l;
        QVERIFY(elseLine > ifLines.first);
        QCOMPARE(listing.opAt(elseLine), ifOp);
        // Nested text is indented by the printer.
        QVERIFY(lineOf(listing.text(), innerLines.first).starts_with("        ("));
    }

    /// A value's definition is its op's line, or the `^%arg_N` line of a block argument; its
    /// uses are the lines of the ops that read it.
    void valueDefinitionAndUses()
    {
        const auto program = readFixture("bounded/endless_while.txt");
        QVERIFY(program);
        const PirListing listing(program);
        const Operation *whileOp = firstNamed(*program, "pd_op.while");
        const Operation *relu = firstNamed(*program, "pd_op.relu");
        QVERIFY(whileOp && relu);
        const Value arg = whileOp->region(0).block(0).argument(0);
        const int argLine = listing.definitionLine(arg);
        QCOMPARE(argLine, listing.linesOf(whileOp).first + 1);
        QVERIFY(lineOf(listing.text(), argLine).find("^%arg_0") != std::string::npos);
        QCOMPARE(listing.useLines(arg), std::vector<int> { listing.linesOf(relu).first });

        const Value x = program->block().ops().front()->result(0);
        QCOMPARE(listing.definitionLine(x), 1);
        QCOMPARE(listing.useLines(x), std::vector<int> { listing.linesOf(whileOp).first });
        QCOMPARE(listing.definitionLine(Value()), -1);
        QVERIFY(listing.useLines(Value()).empty());
        QCOMPARE(listing.numbering().name(x), std::string("%0"));
    }
};

QTEST_GUILESS_MAIN(TestPirListing)
#include "tst_pirlisting.moc"
