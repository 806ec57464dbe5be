#pragma once

#include "core/io/readcache.h"
#include "core/io/texthash.h"
#include "core/ir/type.h"

#include <string>
#include <string_view>
#include <unordered_map>

namespace ps {

/// Parses one printed PIR type (`tensor<-1x3xf32>`, `builtin.tensor<f32>`,
/// `pd_op.tensor<2xf32>`, `vec[a,b]`, `pd_op.selectedrows<..>`, `pd_op.tensor_array<f32>`,
/// sparse tensors, `<<NULL TYPE>>`, bare element types). Unknown spellings become
/// Type::opaque without complaint; malformed types give an error message and an opaque type
/// (a null type when their brackets do not balance). Successful results are cached by spelling in
/// this thread's TypeKeyCache, so a program with a few hundred distinct types pays the interning
/// mutex only a few hundred times, and a program read again not at all.
class PirTextTypeParser
{
public:
    /// On a syntax error `error` receives a message. `text` must outlive the parser (a view
    /// into the document being read): the spellings it read are kept for the load, in front of
    /// TypeKeyCache, so a repeat costs one flat-table lookup.
    Type parse(std::string_view text, std::string &error);

private:
    Type parseAt(std::string_view s, size_t &pos, std::string &error, int depth);
    Type parseTensorBody(std::string_view s, size_t &pos, std::string_view name, std::string &error);

    ReadCache<std::string_view, Type, TextHash> m_seen { 256 };
};

} // namespace ps
