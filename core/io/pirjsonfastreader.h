#pragma once

#include "core/io/pirjsonelementreader.h"
#include "core/io/readcache.h"
#include "core/io/texthash.h"
#include "core/ir/attribute.h"
#include "core/ir/diagnostic.h"
#include "core/ir/value.h"

#include <memory>
#include <simdjson.h>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

class Block;
class Operation;
class Program;
class Region;

/// The fast path of PirJsonReader: builds a Program from a PIR JSON document as Paddle writes it
/// with simdjson On-Demand (no DOM, no tape), and gives up on anything else.
///
/// Type (`"TT"`) and attribute (`"AT"`) objects are not walked: each is looked up by its raw JSON
/// text (types per thread across loads, like the DOM reader's; attributes per load, so repeats
/// share one value), and only a text seen for the first time is parsed, by simdjson's DOM parser
/// and PirJsonElementReader, which validates it completely. Everything else is read (and so
/// validated) by On-Demand as it goes.
///
/// Contract: read() returns a program only when the DOM reader (PirJsonProgramBuilder) would
/// build the same program from the document without any diagnostic; in every other case (a
/// syntax error, an unknown key, a block argument, a duplicate value id, a warning, ...) it
/// returns nullptr and the caller reads the document with the DOM reader, which reports. It
/// never reports anything itself.
/// Hash of a reader's place key (an address and an ordinal packed into 64 bits).
struct PlaceHash
{
    size_t operator()(uint64_t k) const
    {
        k *= 0x9E3779B97F4A7C15ull;
        return size_t(k ^ (k >> 29));
    }
};

class PirJsonFastReader
{
public:
    explicit PirJsonFastReader(const std::string &fileName);
    ~PirJsonFastReader();

    /// `json` must carry simdjson's padding. On success `version` is `base_code.version`.
    std::unique_ptr<Program> read(simdjson::padded_string_view json, int &version);

private:
    using JsonValue = simdjson::ondemand::value;
    using JsonObject = simdjson::ondemand::object;

    bool readBaseCode(JsonObject obj, Program &program, int &version);
    bool readProgram(JsonObject obj, Program &program);
    /// The blocks of a region; `only` is the program's block (exactly one block then).
    bool readBlocks(JsonValue v, Block *only, Region *region);
    bool readBlock(JsonObject obj, Block &block);
    bool readRegion(JsonObject obj, Region &region);
    /// A region's fields: its blocks into `only` (the program's one block) or new blocks of
    /// `region`.
    bool readRegionFields(JsonObject &obj, Block *only, Region *region);
    bool readOp(JsonObject obj, Block &block);
    /// One field after "#" of a parameter op (`"#": "p"`).
    bool readParameterField(std::string_view k, JsonValue v, int &stage);
    bool readOperands(JsonValue v);
    bool readResult(JsonValue v);
    bool readNamedAttributes(JsonValue v, std::vector<NamedAttribute> &out);
    bool readFlags(JsonValue v, size_t first, size_t count, std::vector<NamedAttribute> &out);
    bool readType(JsonValue v, Type &out);
    bool readAttribute(JsonValue v, Attribute &out);
    /// The last few raw texts read in one place (an op name and the attribute's or result's
    /// ordinal), each with its token count and value: a text that starts where such a text
    /// lies is that object (a complete JSON object ends where its text ends), so the reader
    /// jumps past its tokens instead of skipping them one by one.
    template<class T> struct RecentTexts
    {
        struct Text
        {
            const char *text = nullptr;
            uint32_t length = 0;
            uint32_t tokens = 0;
            T value {};
        };
        Text texts[4];
        unsigned next = 0;
    };
    template<class T, class ReadSlow>
    bool readRecent(JsonValue v, T &out, std::vector<RecentTexts<T>> &recent, ReadSlow &&readSlow);
    size_t recentSlot(size_t ordinal);
    /// Parses a raw type or attribute object with the DOM parser; false on a syntax error.
    bool parseFragment(std::string_view raw, simdjson::dom::element &out);
    bool defineResults(Operation *op, const std::vector<int64_t> &ids);
    std::string_view internedName(std::string_view name);

    static constexpr int64_t kIdLimit = int64_t(1) << 22;
    static constexpr int kParameterA = 2, kParameterDA = 4, kParameterQA = 8, kParameterOA = 16,
                         kParameterO = 32;

    Program *m_program = nullptr;
    DiagnosticList m_scratchDiagnostics; ///< the fragment reader's; any entry means give up
    PirJsonElementReader m_fragmentReader;
    std::vector<char> m_fragmentBuffer;
    std::vector<ValueImpl *> m_values; ///< id → value, ids 1..kIdLimit
    std::vector<Value> m_operands;
    std::vector<Type> m_resultTypes;
    std::vector<int64_t> m_resultIds;
    std::vector<NamedAttribute> m_attributes;
    std::vector<NamedAttribute> m_outputFlags; ///< a parameter op's OA flags, appended last
    std::string m_nameBuffer;
    /// Op names as the document spells them (`1.conv2d`) → interned full names; keys view the
    /// parser's string buffer, which outlives the load.
    ReadCache<std::string_view, std::string_view, TextHash> m_internedNames { 256 };
    /// This load's types by their raw JSON text, in front of the thread's TypeKeyCache (a
    /// flat-table probe instead of a node-based map's).
    ReadCache<std::string_view, Type, TextHash> m_typeCache { 512 };
    /// This load's attributes by their raw JSON text (views into the document).
    ReadCache<std::string_view, Attribute, TextHash> m_attributeCache;
    /// RecentTexts by place: (op name address, ordinal) → index into m_recentTypes and
    /// m_recentAttributes (the same index for both).
    ReadCache<uint64_t, uint32_t, PlaceHash> m_recentSlots { 256 };
    std::vector<RecentTexts<Type>> m_recentTypes;
    std::vector<RecentTexts<Attribute>> m_recentAttributes;
    const char *m_currentOpName = nullptr; ///< the place's op name (nullptr: a parameter op)
    const char *m_documentEnd = nullptr;
};

} // namespace ps
