#include "core/analysis/programdiff.h"

#include "core/analysis/programequality.h"
#include "core/ir/block.h"
#include "core/ir/pirprinter.h"
#include "core/ir/program.h"
#include "core/ir/valuenumbering.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace ps {

namespace {

/// The top-level op index a programsEqual message starts with ("op 12 (...): ..."), or -1.
long leadingOpIndex(const std::string &message)
{
    if (message.rfind("op ", 0) != 0 || message.rfind("op count", 0) == 0)
        return -1;
    char *end = nullptr;
    const long index = std::strtol(message.c_str() + 3, &end, 10);
    return end == message.c_str() + 3 ? -1 : index;
}

std::vector<std::string> kwargKeys(const Program &program)
{
    std::vector<std::string> keys;
    for (const Value &kw : program.block().kwargs())
        keys.push_back(kw.keyword());
    return keys;
}

void printOp(std::ostream &os, const std::string &label, const std::string &text)
{
    os << "  " << label << ":\n";
    if (text.empty()) {
        os << "    (no op)\n";
        return;
    }
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line))
        os << "    " << line << "\n";
}

} // namespace

ProgramDifference ProgramDiff::compare(const Program &a, const Program &b)
{
    ProgramDifference d;
    d.opsA = a.block().size();
    d.opsB = b.block().size();
    d.equal = programsEqual(a, b, &d.message);
    if (d.equal)
        return d;
    long index = leadingOpIndex(d.message);
    if (d.message.rfind("op count", 0) == 0)
        index = long(std::min(d.opsA, d.opsB));
    if (d.message.rfind("kwarg", 0) == 0) {
        d.kwargsA = kwargKeys(a);
        d.kwargsB = kwargKeys(b);
    }
    d.opIndex = index;
    if (index >= 0) {
        if (size_t(index) < d.opsA)
            d.opTextA = PirPrinter::opText(*a.block().op(size_t(index)), ValueNumbering(a));
        if (size_t(index) < d.opsB)
            d.opTextB = PirPrinter::opText(*b.block().op(size_t(index)), ValueNumbering(b));
    }
    return d;
}

std::string ProgramDifference::toString(const std::string &nameA, const std::string &nameB) const
{
    if (equal)
        return "equal (" + std::to_string(opsA) + " top-level ops)";
    std::ostringstream os;
    os << "different: " << message << "\n";
    os << "  top-level ops: " << opsA << " in " << nameA << ", " << opsB << " in " << nameB << "\n";
    if (opIndex >= 0) {
        os << "  at top-level op " << opIndex << "\n";
        printOp(os, nameA, opTextA);
        printOp(os, nameB, opTextB);
    }
    if (!kwargsA.empty() || !kwargsB.empty()) {
        for (const auto *list : { &kwargsA, &kwargsB }) {
            os << "  kwargs of " << (list == &kwargsA ? nameA : nameB) << ":";
            for (const std::string &k : *list)
                os << " " << k;
            os << "\n";
        }
    }
    return os.str();
}

} // namespace ps
