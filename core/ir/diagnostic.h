#pragma once

#include <string>
#include <vector>

namespace ps {

/// Where a diagnostic points: text position (1-based line and column), JSON path, byte offset.
struct SourceLocation
{
    std::string file;
    int line = 0; ///< 0: unknown
    int column = 0;
    std::string jsonPath; ///< e.g. "program.regions[0].blocks[0].ops[12].O[0].TT"
    long long byteOffset = -1;

    /// "file:line:col", "file: at program.regions[0]...", "file: at byte N", or "file".
    std::string toString() const;
};

/// One error, warning or note from a reader, the verifier or an analysis.
struct Diagnostic
{
    enum class Severity { Error, Warning, Note };
    Severity severity = Severity::Error;
    SourceLocation location;
    std::string message;

    /// "file:3:14: error: message".
    std::string toString() const;
};

/// Diagnostics in report order.
class DiagnosticList
{
public:
    void error(SourceLocation loc, std::string message);
    void warning(SourceLocation loc, std::string message);
    void note(SourceLocation loc, std::string message);
    void add(Diagnostic d) { m_items.push_back(std::move(d)); }
    void append(const DiagnosticList &other);

    bool hasErrors() const;
    size_t errorCount() const;
    bool empty() const { return m_items.empty(); }
    size_t size() const { return m_items.size(); }
    const std::vector<Diagnostic> &items() const { return m_items; }
    const Diagnostic &operator[](size_t i) const { return m_items[i]; }
    /// The first error, or nullptr.
    const Diagnostic *firstError() const;
    /// All diagnostics, one per line.
    std::string toString() const;

private:
    std::vector<Diagnostic> m_items;
};

} // namespace ps
