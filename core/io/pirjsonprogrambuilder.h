#pragma once

#include "core/io/pirjsonelementreader.h"
#include "core/ir/value.h"

#include <cstdint>
#include <simdjson.h>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ps {

class Block;
class Program;
class Region;

/// Builds a Program from the parsed simdjson DOM of a PIR JSON document: the program, region,
/// block and op structure, value ids, `p` parameter ops and dialect-compressed op names. Types,
/// attributes and diagnostics are delegated to PirJsonElementReader. Used by PirJsonReader.
class PirJsonProgramBuilder
{
public:
    PirJsonProgramBuilder(PirJsonElementReader &reader, Program &program)
        : m_r(reader)
        , m_program(program)
    {
    }

    /// Reads `{"base_code":..., "program":...}`. Returns false when nothing usable was read.
    bool readDocument(simdjson::dom::element root);
    /// `base_code.version` once readDocument() succeeded.
    int version() const { return m_version; }

private:
    bool readBaseCode(simdjson::dom::element e);
    void readRegion(simdjson::dom::element e, Region &region);
    void readBlock(simdjson::dom::element e, Block &block);
    void readOp(simdjson::dom::element e, Block &block);
    void readParameterOp(simdjson::dom::object op, Block &block);
    void readNamedAttributes(simdjson::dom::element e, std::vector<NamedAttribute> &out);
    bool readResult(simdjson::dom::element e, Type &type, int64_t &id);
    void defineValue(int64_t id, Value v);
    bool lookupValue(int64_t id, Value &out);
    std::string_view decompressName(std::string_view name);
    /// The interned full name of a (compressed) op name, looked up once per distinct name.
    std::string_view internedName(std::string_view name);

    static constexpr int64_t kNoId = INT64_MIN;
    static constexpr int64_t kDenseIdLimit = int64_t(1) << 20;

    PirJsonElementReader &m_r;
    Program &m_program;
    std::vector<ValueImpl *> m_results; ///< id → value for ids 1..kDenseIdLimit
    std::vector<ValueImpl *> m_arguments; ///< -id → value for ids -1..-kDenseIdLimit
    std::unordered_map<int64_t, ValueImpl *> m_otherIds;
    std::string m_nameBuffer;
    std::unordered_map<std::string_view, std::string_view> m_internedNames;
    std::vector<Value> m_operandBuffer;
    std::vector<Type> m_typeBuffer;
    std::vector<int64_t> m_idBuffer;
    std::vector<NamedAttribute> m_attributeBuffer; ///< one op's attributes, moved into the op
    int m_version = 0;
};

} // namespace ps
