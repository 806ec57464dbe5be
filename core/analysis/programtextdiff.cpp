#include "core/analysis/programtextdiff.h"

#include "core/ir/operation.h"
#include "core/ir/pirprinter.h"
#include "core/ir/program.h"
#include "core/ir/valuenumbering.h"

#include <cctype>
#include <string_view>

namespace ps {

namespace {

std::string opLine(const Operation &op, const ValueNumbering &numbering)
{
    int depth = 0;
    for (const Operation *p = op.parentOp(); p; p = p->parentOp())
        ++depth;
    std::string text = PirPrinter::opText(op, numbering);
    if (const size_t newline = text.find('\n'); newline != std::string::npos)
        text.resize(newline);
    return std::string(size_t(depth) * 4, ' ') + text;
}

} // namespace

std::vector<TextDiffLine> ProgramTextDiff::build(
    const Program &before, const Program &after, const OpDiff &diff)
{
    const ValueNumbering numberingBefore(before);
    const ValueNumbering numberingAfter(after);
    const size_t nb = diff.before.size();
    const size_t na = diff.after.size();
    std::vector<TextDiffLine> lines;
    lines.reserve(na + diff.removed);
    std::vector<bool> emitted(nb, false);
    size_t i = 0;
    size_t j = 0;
    while (i < nb || j < na) {
        if (i < nb && emitted[i]) {
            ++i;
            continue;
        }
        if (i < nb && diff.beforeChange[i] == OpChange::Removed) {
            lines.push_back(
                { OpChange::Removed, int32_t(i), -1, opLine(*diff.before[i], numberingBefore), {} });
            ++i;
            continue;
        }
        if (j >= na) {
            ++i; // matched, its partner already listed
            continue;
        }
        TextDiffLine line;
        line.kind = diff.afterChange[j];
        line.after = int32_t(j);
        line.textAfter = opLine(*diff.after[j], numberingAfter);
        if (const int32_t b = diff.beforeOf[j]; b >= 0) {
            line.before = b;
            emitted[size_t(b)] = true;
            line.textBefore = opLine(*diff.before[size_t(b)], numberingBefore);
        }
        lines.push_back(std::move(line));
        ++j;
    }
    return lines;
}

std::string ProgramTextDiff::bothIds(const std::string &before, const std::string &after)
{
    // Split both at their value ids; the rest must agree for the ids to be paired.
    auto idEnd = [](const std::string &s, size_t at) {
        size_t end = at + 1;
        while (end < s.size() && (std::isalnum(static_cast<unsigned char>(s[end])) || s[end] == '_'))
            ++end;
        return end;
    };
    std::string out;
    size_t i = 0;
    size_t j = 0;
    while (i < before.size() && j < after.size()) {
        if (before[i] == '%' && after[j] == '%') {
            const size_t ei = idEnd(before, i);
            const size_t ej = idEnd(after, j);
            const std::string_view idB(before.data() + i, ei - i);
            const std::string_view idA(after.data() + j, ej - j);
            if (idB != idA) {
                out += idB;
                out += "\u2192";
            }
            out += idA;
            i = ei;
            j = ej;
            continue;
        }
        if (before[i] != after[j])
            return after;
        out += after[j];
        ++i;
        ++j;
    }
    return i == before.size() && j == after.size() ? out : after;
}

std::string ProgramTextDiff::unified(const std::vector<TextDiffLine> &lines, int context)
{
    std::vector<bool> keep(lines.size(), context < 0);
    if (context >= 0) {
        for (size_t k = 0; k < lines.size(); ++k) {
            if (lines[k].kind == OpChange::Kept)
                continue;
            const size_t from = k >= size_t(context) ? k - size_t(context) : 0;
            for (size_t m = from; m < lines.size() && m <= k + size_t(context); ++m)
                keep[m] = true;
        }
    }
    std::string out;
    bool skipped = false;
    for (size_t k = 0; k < lines.size(); ++k) {
        if (!keep[k]) {
            skipped = true;
            continue;
        }
        if (skipped)
            out += "  ...\n";
        skipped = false;
        const TextDiffLine &l = lines[k];
        switch (l.kind) {
        case OpChange::Kept:
            out += "  " + (l.textBefore.empty() ? l.textAfter : bothIds(l.textBefore, l.textAfter)) + "\n";
            break;
        case OpChange::Changed:
            out += "~-" + l.textBefore + "\n~+" + l.textAfter + "\n";
            break;
        case OpChange::Removed:
            out += "- " + l.textBefore + "\n";
            break;
        case OpChange::Added:
            out += "+ " + l.textAfter + "\n";
            break;
        }
    }
    if (skipped)
        out += "  ...\n";
    return out;
}

} // namespace ps
