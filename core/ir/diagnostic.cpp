#include "core/ir/diagnostic.h"

namespace ps {

std::string SourceLocation::toString() const
{
    std::string out = file.empty() ? std::string("<input>") : file;
    if (line > 0) {
        out += ":" + std::to_string(line);
        if (column > 0)
            out += ":" + std::to_string(column);
    }
    if (!jsonPath.empty())
        out += ": at " + jsonPath;
    else if (byteOffset >= 0 && line <= 0)
        out += ": at byte " + std::to_string(byteOffset);
    return out;
}

std::string Diagnostic::toString() const
{
    const char *label = severity == Severity::Error ? "error"
        : severity == Severity::Warning             ? "warning"
                                                    : "note";
    return location.toString() + ": " + label + ": " + message;
}

void DiagnosticList::error(SourceLocation loc, std::string message)
{
    m_items.push_back({ Diagnostic::Severity::Error, std::move(loc), std::move(message) });
}

void DiagnosticList::warning(SourceLocation loc, std::string message)
{
    m_items.push_back({ Diagnostic::Severity::Warning, std::move(loc), std::move(message) });
}

void DiagnosticList::note(SourceLocation loc, std::string message)
{
    m_items.push_back({ Diagnostic::Severity::Note, std::move(loc), std::move(message) });
}

void DiagnosticList::append(const DiagnosticList &other)
{
    m_items.insert(m_items.end(), other.m_items.begin(), other.m_items.end());
}

bool DiagnosticList::hasErrors() const
{
    return firstError() != nullptr;
}

size_t DiagnosticList::errorCount() const
{
    size_t n = 0;
    for (const auto &d : m_items)
        n += d.severity == Diagnostic::Severity::Error;
    return n;
}

const Diagnostic *DiagnosticList::firstError() const
{
    for (const auto &d : m_items) {
        if (d.severity == Diagnostic::Severity::Error)
            return &d;
    }
    return nullptr;
}

std::string DiagnosticList::toString() const
{
    std::string out;
    for (const auto &d : m_items)
        out += d.toString() + "\n";
    return out;
}

} // namespace ps
