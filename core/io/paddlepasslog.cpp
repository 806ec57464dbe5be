#include "core/io/paddlepasslog.h"

#include "core/dialect/ops.h"
#include "core/io/inputfile.h"
#include "core/io/pirtextreader.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <unordered_map>

namespace ps {

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

bool isSeparator(std::string_view t)
{
    return t.size() >= 8 && t.starts_with("===-") && t.ends_with("-===");
}

/// The text between `open` and the next `close` after `key`, or empty.
std::string_view bracketAfter(std::string_view line, std::string_view key)
{
    const size_t k = line.find(key);
    if (k == std::string_view::npos)
        return {};
    const size_t from = k + key.size();
    const size_t to = line.find(']', from);
    return to == std::string_view::npos ? std::string_view() : line.substr(from, to - from);
}

bool isKernelOpLine(std::string_view line)
{
    const size_t quote = line.find('"');
    if (quote == std::string_view::npos)
        return false;
    const size_t close = line.find('"', quote + 1);
    const std::string_view name
        = line.substr(quote + 1, close == std::string_view::npos ? 0 : close - quote - 1);
    return name.ends_with("(phi_kernel)") || name.find("_kernel.") != std::string_view::npos
        || name.ends_with("(legacy_kernel)");
}

/// What the next program in the log is.
enum class Role {
    None,
    Before,
    After,
    AfterOnly,
    LoweringBefore,
    LoweringAfter,
    SplitForward,
    SplitBackward
};

struct Open
{
    LoggedStep step;
};

class Scanner
{
public:
    Scanner(PassLogIndex &index, size_t file)
        : m_ix(index)
        , m_file(file)
        , m_s(index.files[file]->bytes())
    {
    }

    void run()
    {
        while (nextLine())
            handleLine();
        if (m_role != Role::None)
            note(m_bannerLine, "the banner announces a program that the log does not contain");
        for (const Open &o : m_stack)
            m_ix.diagnostics.warning(
                where(o.step.line), "'" + o.step.pass + "' has no 'after' banner: the log ends inside it");
        m_ix.lines += size_t(m_lineNo);
        finish();
    }

private:
    bool nextLine()
    {
        if (m_pos >= m_s.size())
            return false;
        m_lineBegin = m_pos;
        const void *nl = std::memchr(m_s.data() + m_pos, '\n', m_s.size() - m_pos);
        m_lineEnd = nl ? size_t(static_cast<const char *>(nl) - m_s.data()) : m_s.size();
        m_pos = nl ? m_lineEnd + 1 : m_s.size();
        ++m_lineNo;
        return true;
    }

    std::string_view line() const { return m_s.substr(m_lineBegin, m_lineEnd - m_lineBegin); }

    SourceLocation where(int line) const
    {
        SourceLocation loc;
        loc.file = m_ix.files[m_file]->path();
        loc.line = line;
        loc.column = line > 0 ? 1 : 0;
        return loc;
    }

    void note(int line, std::string message) { m_ix.diagnostics.warning(where(line), std::move(message)); }

    int depth() const { return int(m_stack.size()); }

    int lastAt(int d) const { return d < int(m_last.size()) ? m_last[size_t(d)] : -1; }
    void setLast(int d, int program)
    {
        if (d >= int(m_last.size()))
            m_last.resize(size_t(d) + 1, -1);
        m_last[size_t(d)] = program;
    }

    void handleLine()
    {
        const std::string_view raw = line();
        const std::string_view t = trim(raw);
        if (t.empty())
            return;
        if (isSeparator(t)) {
            handleSeparator();
            return;
        }
        if (t.starts_with("IR before lowering") || t.starts_with("IR after lowering")) {
            const bool before = t.starts_with("IR before");
            const size_t brace = raw.find('{');
            m_bannerLine = m_lineNo;
            if (before) {
                openStep(LoggedStep::Kind::Lowering, "pd_op_to_kernel_pass", "program");
                m_role = Role::LoweringBefore;
            } else {
                m_role = Role::LoweringAfter;
            }
            if (brace != std::string_view::npos)
                readProgram(m_lineBegin + brace, false);
            return;
        }
        if ((t.starts_with("IR After ") || t.starts_with("IR Before ")) && t.ends_with("---")) {
            std::string_view name = t.substr(t.starts_with("IR After ") ? 9 : 10);
            name = trim(name.substr(0, name.find(" -")));
            m_pendingPass = std::string(name);
            m_role = t.starts_with("IR After ") ? Role::AfterOnly : Role::None;
            m_bannerLine = m_lineNo;
            return;
        }
        if (t.starts_with("Splited Program")) {
            m_splitSource = lastAt(depth());
            return;
        }
        if (t.starts_with("ForwardProgram is") || t.starts_with("BackwardProgram is")) {
            m_role = t.starts_with("Forward") ? Role::SplitForward : Role::SplitBackward;
            m_bannerLine = m_lineNo;
            return;
        }
        if (t.starts_with("PassTiming on ")) {
            readTiming();
            return;
        }
        if (const std::string_view name = bracketAfter(raw, "--- Running PIR pass ["); !name.empty()) {
            m_runs.push_back({ std::string(name), size_t(m_lineNo), {} });
            m_runningPass = std::string(name);
            return;
        }
        if (const std::string_view stats = bracketAfter(raw, "--- detected [");
            !stats.empty() && raw.find("subgraphs") != std::string_view::npos) {
            attachStatistics(std::string(stats));
            return;
        }
        if (raw.starts_with("{") && t == "{") {
            readProgram(m_lineBegin, false);
            return;
        }
        if (m_role != Role::None && t.starts_with("(") && m_printOp) {
            // IRPrinting on an op other than builtin.module prints that op, not a program.
            readProgram(m_lineBegin, true);
            return;
        }
    }

    void handleSeparator()
    {
        const size_t save = m_pos;
        const int saveLine = m_lineNo;
        if (!nextLine())
            return;
        const std::string_view t = trim(line());
        constexpr std::string_view kKey = "IRPrinting on ";
        if (!t.starts_with(kKey)) {
            m_pos = save;
            m_lineNo = saveLine;
            return;
        }
        // "IRPrinting on <op> before|after <pass> pass"
        std::string_view rest = t.substr(kKey.size());
        const size_t sp1 = rest.find(' ');
        const std::string target(rest.substr(0, sp1));
        rest = sp1 == std::string_view::npos ? std::string_view() : trim(rest.substr(sp1 + 1));
        const bool before = rest.starts_with("before ");
        const bool after = rest.starts_with("after ");
        std::string_view pass = rest.substr(before ? 7 : after ? 6 : 0);
        if (pass.ends_with(" pass"))
            pass.remove_suffix(5);
        const int bannerLine = m_lineNo;
        const size_t afterBanner = m_pos;
        if (nextLine() && !isSeparator(trim(line()))) {
            m_pos = afterBanner;
            --m_lineNo;
        }
        m_bannerLine = bannerLine;
        m_printOp = target != ops::kModule;
        if (before) {
            openStep(LoggedStep::Kind::Pass, std::string(pass), target);
            m_role = Role::Before;
        } else if (after) {
            m_pendingPass = std::string(pass);
            m_pendingTarget = target;
            m_role = Role::After;
        } else {
            note(bannerLine, "IRPrinting banner without 'before' or 'after': ignored");
        }
    }

    /// Reads the program starting at byte `begin` (its '{', or its first op line when
    /// `opPrint`) and gives it the pending role.
    void readProgram(size_t begin, bool opPrint)
    {
        LoggedProgram p;
        p.file = m_file;
        p.begin = begin;
        p.line = m_lineNo;
        const int startLine = m_lineNo;
        // The rest of the first line ("IR before lowering = {" has the '{' mid-line).
        countOpLine(m_s.substr(begin, m_lineEnd - begin), p);
        bool closed = false;
        int braces = opPrint ? braceDelta(m_s.substr(begin, m_lineEnd - begin)) : 0;
        while (nextLine()) {
            const std::string_view raw = line();
            if (!opPrint) {
                if (raw.starts_with("}") && trim(raw) == "}") {
                    p.end = m_lineEnd;
                    closed = true;
                    break;
                }
            } else {
                if (trim(raw).empty() && braces <= 0) {
                    p.end = m_lineBegin;
                    closed = true;
                    break;
                }
                braces += braceDelta(raw);
            }
            countOpLine(raw, p);
        }
        if (!closed) {
            p.end = m_s.size();
            if (!opPrint)
                m_ix.diagnostics.error(where(startLine),
                    "the program that starts here is cut off: no closing '}' before the end of the log");
        }
        const int index = int(m_ix.programs.size());
        m_ix.programs.push_back(p);
        assign(index);
    }

    static int braceDelta(std::string_view s)
    {
        int d = 0;
        bool quoted = false;
        for (size_t i = 0; i < s.size(); ++i) {
            const char c = s[i];
            if (c == '\\' && quoted)
                ++i;
            else if (c == '"')
                quoted = !quoted;
            else if (!quoted && c == '{')
                ++d;
            else if (!quoted && c == '}')
                --d;
        }
        return d;
    }

    static void countOpLine(std::string_view raw, LoggedProgram &p)
    {
        const std::string_view t = trim(raw);
        if (!t.starts_with("(") || t.find(" = ") == std::string_view::npos)
            return;
        ++p.opLines;
        if (!p.kernelDialect && isKernelOpLine(t))
            p.kernelDialect = true;
    }

    void addStep(LoggedStep step, size_t endLine)
    {
        m_ix.steps.push_back(std::move(step));
        m_stepEndLines.push_back(endLine);
    }

    /// A step that starts at the pending banner with the program printed last (or `before`).
    LoggedStep stepHere(LoggedStep::Kind kind, std::string pass, std::string target, int before = -1) const
    {
        LoggedStep step;
        step.kind = kind;
        step.pass = std::move(pass);
        step.target = std::move(target);
        step.depth = depth();
        step.line = m_bannerLine;
        step.before = before >= 0 ? before : lastAt(step.depth);
        return step;
    }

    /// A step whose program before comes next, ended by a later `after` banner.
    void openStep(LoggedStep::Kind kind, std::string pass, std::string target)
    {
        Open o;
        o.step = stepHere(kind, std::move(pass), std::move(target));
        o.step.before = -1;
        m_stack.push_back(std::move(o));
    }

    /// Ends `step` with `program` after it.
    void finishStep(LoggedStep step, int program)
    {
        step.after = program;
        setLast(step.depth, program);
        addStep(std::move(step), size_t(m_lineNo));
    }

    void assign(int program)
    {
        const Role role = m_role;
        m_role = Role::None;
        m_printOp = false;
        switch (role) {
        case Role::Before:
        case Role::LoweringBefore:
            if (!m_stack.empty() && m_stack.back().step.before < 0) {
                m_stack.back().step.before = program;
                setLast(m_stack.back().step.depth, program);
            }
            return;
        case Role::After:
        case Role::LoweringAfter: {
            const std::string pass = role == Role::After ? m_pendingPass : "pd_op_to_kernel_pass";
            auto it = std::find_if(
                m_stack.rbegin(), m_stack.rend(), [&](const Open &o) { return o.step.pass == pass; });
            if (it == m_stack.rend()) {
                // No `before` banner (filtered, or the log starts inside the pass).
                finishStep(role == Role::After ? stepHere(LoggedStep::Kind::Pass, pass, m_pendingTarget)
                                               : stepHere(LoggedStep::Kind::Lowering, pass, "program"),
                    program);
                return;
            }
            LoggedStep step = std::move(it->step);
            m_stack.erase(std::next(it).base(), m_stack.end());
            finishStep(std::move(step), program);
            return;
        }
        case Role::AfterOnly:
            finishStep(stepHere(LoggedStep::Kind::Pass, m_pendingPass, "program"), program);
            return;
        case Role::SplitForward:
        case Role::SplitBackward:
            finishStep(stepHere(LoggedStep::Kind::Split, "split_program",
                           role == Role::SplitForward ? "forward" : "backward", m_splitSource),
                program);
            return;
        case Role::None: {
            const int line = m_ix.programs[size_t(program)].line;
            LoggedStep step = stepHere(
                LoggedStep::Kind::Printed, "program printed at line " + std::to_string(line), "program");
            step.line = line;
            finishStep(std::move(step), program);
            return;
        }
        }
    }

    void attachStatistics(std::string stats)
    {
        for (size_t k = m_ix.steps.size(); k-- > m_firstStep;) {
            LoggedStep &s = m_ix.steps[k];
            if (s.pass == m_runningPass && s.statistics.empty()) {
                s.statistics = std::move(stats);
                return;
            }
            if (m_stepEndLines[k - m_firstStep] + 200 < size_t(m_lineNo))
                break;
        }
        if (!m_runs.empty() && m_runs.back().name == m_runningPass)
            m_runs.back().statistics = std::move(stats);
    }

    void readTiming()
    {
        // "  Total Execution Time: 0.012 seconds", "  ----Walk Time----  ----Name----",
        // "     0.004 ( 33.3%)  name", until a blank line.
        while (nextLine()) {
            const std::string_view t = trim(line());
            if (t.empty() && !m_timing.empty())
                break;
            if (isSeparator(t) || t.starts_with("Total") || t.starts_with("----") || t.empty())
                continue;
            double seconds = 0;
            auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), seconds);
            const size_t close = t.find("%)");
            if (ec != std::errc() || close == std::string_view::npos)
                break;
            m_timing.emplace_back(std::string(trim(t.substr(close + 2))), seconds);
        }
    }

    /// Shares programs that are printed twice unchanged, puts Unlogged steps where the program
    /// changed between two steps without a banner, and applies pass timings.
    void finish()
    {
        // Steps were recorded as they ended; list them as they began (a pass before the steps
        // it ran inside it).
        std::vector<size_t> order(m_ix.steps.size() - m_firstStep);
        for (size_t k = 0; k < order.size(); ++k)
            order[k] = k;
        std::stable_sort(order.begin(), order.end(), [this](size_t a, size_t b) {
            return m_ix.steps[m_firstStep + a].line < m_ix.steps[m_firstStep + b].line;
        });
        std::vector<LoggedStep> steps;
        std::vector<size_t> endLines;
        for (size_t k : order) {
            steps.push_back(std::move(m_ix.steps[m_firstStep + k]));
            endLines.push_back(m_stepEndLines[k]);
        }
        m_stepEndLines = std::move(endLines);
        m_ix.steps.resize(m_firstStep);
        std::vector<int> recent; // top-level programs after steps, newest last
        size_t prevEnd = 0;
        for (size_t k = 0; k < steps.size(); ++k) {
            LoggedStep &s = steps[k];
            if (s.depth == 0 && s.before >= 0 && s.kind != LoggedStep::Kind::Printed && !recent.empty()
                && std::find(recent.begin(), recent.end(), s.before) == recent.end()) {
                int source = -1;
                for (auto r = recent.rbegin(); r != recent.rend() && source < 0; ++r)
                    if (sameText(*r, s.before))
                        source = *r;
                if (source >= 0) {
                    s.before = source;
                } else {
                    const int from = closest(recent, s.before);
                    m_ix.steps.push_back(unlogged(from, s.before, prevEnd, size_t(s.line), s.pass));
                }
            }
            if (s.depth == 0 && s.after >= 0) {
                recent.push_back(s.after);
                if (recent.size() > 4)
                    recent.erase(recent.begin());
                prevEnd = m_stepEndLines[k];
            }
            m_ix.steps.push_back(std::move(s));
        }
        for (const auto &[name, seconds] : m_timing) {
            size_t count = 0;
            for (const LoggedStep &s : m_ix.steps)
                count += s.pass == name;
            for (LoggedStep &s : m_ix.steps)
                if (s.pass == name && count == 1)
                    s.seconds = seconds;
        }
    }

    bool sameText(int a, int b) const
    {
        const LoggedProgram &x = m_ix.programs[size_t(a)];
        const LoggedProgram &y = m_ix.programs[size_t(b)];
        return m_ix.text(x) == m_ix.text(y);
    }

    /// The candidate whose op count is nearest to program `p`'s (the newest on ties).
    int closest(const std::vector<int> &candidates, int p) const
    {
        int best = candidates.back();
        size_t bestDistance = SIZE_MAX;
        for (auto r = candidates.rbegin(); r != candidates.rend(); ++r) {
            const size_t a = m_ix.programs[size_t(*r)].opLines;
            const size_t b = m_ix.programs[size_t(p)].opLines;
            const size_t distance = a > b ? a - b : b - a;
            if (distance < bestDistance) {
                best = *r;
                bestDistance = distance;
            }
        }
        return best;
    }

    LoggedStep unlogged(int from, int to, size_t fromLine, size_t toLine, const std::string &nextPass) const
    {
        LoggedStep step;
        step.kind = LoggedStep::Kind::Unlogged;
        step.target = "program";
        step.before = from;
        step.after = to;
        std::vector<std::string> names;
        std::vector<std::string> stats;
        for (const Run &r : m_runs) {
            if (r.line <= fromLine || r.line >= toLine || r.name == nextPass)
                continue;
            if (std::find(names.begin(), names.end(), r.name) == names.end())
                names.push_back(r.name);
            if (!r.statistics.empty())
                stats.push_back(r.name + ": " + r.statistics);
        }
        if (m_ix.programs[size_t(to)].kernelDialect && !m_ix.programs[size_t(from)].kernelDialect)
            names.push_back("pd_op_to_kernel_pass");
        for (const std::string &n : names)
            step.pass += (step.pass.empty() ? "" : ", ") + n;
        if (step.pass.empty())
            step.pass = "unlogged change";
        for (const std::string &s : stats)
            step.statistics += (step.statistics.empty() ? "" : "; ") + s;
        return step;
    }

    struct Run
    {
        std::string name;
        size_t line = 0;
        std::string statistics;
    };

    PassLogIndex &m_ix;
    size_t m_file;
    std::string_view m_s;
    size_t m_pos = 0;
    size_t m_lineBegin = 0;
    size_t m_lineEnd = 0;
    int m_lineNo = 0;
    size_t m_firstStep = m_ix.steps.size();
    Role m_role = Role::None;
    bool m_printOp = false;
    int m_bannerLine = 0;
    std::string m_pendingPass;
    std::string m_pendingTarget;
    std::string m_runningPass;
    std::vector<Open> m_stack;
    std::vector<int> m_last;
    std::vector<size_t> m_stepEndLines;
    std::vector<Run> m_runs;
    std::vector<std::pair<std::string, double>> m_timing;
    int m_splitSource = -1; ///< the program split_program split (the one printed last)
};

} // namespace

void PaddlePassLog::scan(PassLogIndex &index, size_t file)
{
    index.bytes += index.files[file]->size();
    Scanner(index, file).run();
}

std::shared_ptr<const PassLogIndex> PaddlePassLog::index(const std::string &path, DiagnosticList &diagnostics)
{
    std::string error;
    std::shared_ptr<const MappedFile> file = MappedFile::open(path, error);
    if (!file) {
        InputFile::report(error, path, diagnostics);
        return nullptr;
    }
    auto index = std::make_shared<PassLogIndex>();
    index->path = path;
    index->files.push_back(std::move(file));
    scan(*index, 0);
    diagnostics.append(index->diagnostics);
    return index;
}

std::shared_ptr<const PassLogIndex> PaddlePassLog::indexText(std::string text, const std::string &name)
{
    auto index = std::make_shared<PassLogIndex>();
    index->path = name;
    index->files.push_back(MappedFile::fromString(std::move(text), name));
    scan(*index, 0);
    return index;
}

bool PaddlePassLog::looksLikeLog(std::string_view head)
{
    for (std::string_view key :
        { "IRPrinting on ", "IR before lowering", "IR after lowering", "Splited Program" })
        if (head.find(key) != std::string_view::npos)
            return true;
    size_t at = 0;
    while ((at = head.find("IR After ", at)) != std::string_view::npos) {
        const size_t eol = head.find('\n', at);
        if (head.substr(at, eol == std::string_view::npos ? std::string_view::npos : eol - at).find("---")
            != std::string_view::npos)
            return true;
        ++at;
    }
    return false;
}

bool PaddlePassLog::looksLikeLogFile(const std::string &path)
{
    std::string error;
    std::optional<InputFile> file = InputFile::open(path, error);
    if (!file)
        return false;
    std::string head(size_t(std::min<uint64_t>(file->size(), 64 * 1024)), '\0');
    if (!file->read(head.data(), head.size(), error))
        return false;
    return looksLikeLog(std::string_view(head));
}

LoadResult PaddlePassLog::readProgram(const PassLogIndex &index, size_t i, PirTextReader::OpIdMap *opIds)
{
    const LoggedProgram &p = index.programs[i];
    LoadResult parsed = opIds ? PirTextReader::readString(index.text(p), index.fileOf(p), *opIds)
                              : PirTextReader::readString(index.text(p), index.fileOf(p));
    // Diagnostics name the log's lines: the text starts at line p.line of the file.
    DiagnosticList shifted;
    for (Diagnostic d : parsed.diagnostics.items()) {
        if (d.location.line > 0)
            d.location.line += p.line - 1;
        shifted.add(std::move(d));
    }
    parsed.diagnostics = std::move(shifted);
    return parsed;
}

} // namespace ps
