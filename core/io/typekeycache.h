#pragma once

#include "core/io/texthash.h"
#include "core/ir/type.h"

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace ps {

/// Types by a reader's key for them (the PIR text spelling, or the binary encoding of a PIR JSON
/// type object), kept per thread across loads. Types are interned process-wide and never die,
/// so a second program with the same types (or the same file opened again) reads each known
/// type with one hash lookup: no type parse, no interning (a mutex and a hash of the type's
/// storage). Holds at most kLimit keys; when full it starts over.
///
/// Only a type read without any diagnostic may be added: a reader reports its warnings again at
/// every load. Not thread-safe: use one per thread (forThread()).
class TypeKeyCache
{
public:
    /// PirJson keys are the binary encoding of a parsed type object, PirJsonRaw its JSON text.
    enum class Format { PirText, PirJson, PirJsonRaw };

    /// This thread's cache for `format`.
    static TypeKeyCache &forThread(Format format);

    /// nullptr when `key` is not known.
    const Type *find(std::string_view key) const
    {
        const auto it = m_types.find(key);
        return it == m_types.end() ? nullptr : &it->second;
    }
    void add(std::string_view key, Type type);
    size_t size() const { return m_types.size(); }

    static constexpr size_t kLimit = size_t(1) << 16;

private:
    std::unordered_map<std::string, Type, TextHash, std::equal_to<>> m_types;
};

} // namespace ps
