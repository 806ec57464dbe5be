#include "core/io/typekeycache.h"

namespace ps {

TypeKeyCache &TypeKeyCache::forThread(Format format)
{
    thread_local TypeKeyCache text;
    thread_local TypeKeyCache json;
    thread_local TypeKeyCache jsonRaw;
    return format == Format::PirText ? text : format == Format::PirJson ? json : jsonRaw;
}

void TypeKeyCache::add(std::string_view key, Type type)
{
    if (m_types.size() >= kLimit)
        m_types.clear();
    m_types.emplace(std::string(key), type);
}

} // namespace ps
