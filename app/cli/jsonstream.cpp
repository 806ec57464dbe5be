#include "jsonstream.h"

#include <cmath>
#include <cstdio>

void JsonStream::writeEscaped(std::ostream &out, std::string_view s)
{
    out << '"';
    for (unsigned char c : s) {
        switch (c) {
        case '"':
            out << "\\\"";
            break;
        case '\\':
            out << "\\\\";
            break;
        case '\n':
            out << "\\n";
            break;
        case '\r':
            out << "\\r";
            break;
        case '\t':
            out << "\\t";
            break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out << buf;
            } else {
                out << char(c);
            }
        }
    }
    out << '"';
}

void JsonStream::newline()
{
    if (!m_pretty)
        return;
    m_out << '\n';
    for (size_t i = 0; i < m_first.size(); ++i)
        m_out << "  ";
}

void JsonStream::separate()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (m_first.empty())
        return;
    if (!m_first.back())
        m_out << ',';
    m_first.back() = false;
    newline();
}

JsonStream &JsonStream::beginObject()
{
    separate();
    m_out << '{';
    m_first.push_back(true);
    return *this;
}

JsonStream &JsonStream::endObject()
{
    const bool empty = m_first.back();
    m_first.pop_back();
    if (!empty)
        newline();
    m_out << '}';
    return *this;
}

JsonStream &JsonStream::beginArray()
{
    separate();
    m_out << '[';
    m_first.push_back(true);
    return *this;
}

JsonStream &JsonStream::endArray()
{
    const bool empty = m_first.back();
    m_first.pop_back();
    if (!empty)
        newline();
    m_out << ']';
    return *this;
}

JsonStream &JsonStream::key(std::string_view name)
{
    separate();
    writeEscaped(m_out, name);
    m_out << (m_pretty ? ": " : ":");
    m_afterKey = true;
    return *this;
}

JsonStream &JsonStream::value(std::string_view s)
{
    separate();
    writeEscaped(m_out, s);
    return *this;
}

JsonStream &JsonStream::value(int64_t v)
{
    separate();
    m_out << v;
    return *this;
}

JsonStream &JsonStream::value(double v)
{
    separate();
    if (!std::isfinite(v)) {
        m_out << "null";
        return *this;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    m_out << buf;
    return *this;
}

JsonStream &JsonStream::value(bool v)
{
    separate();
    m_out << (v ? "true" : "false");
    return *this;
}

JsonStream &JsonStream::null()
{
    separate();
    m_out << "null";
    return *this;
}

void JsonStream::finish()
{
    m_out << '\n';
}
