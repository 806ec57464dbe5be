#include "core/io/pirjsonfastreader.h"

#include "core/dialect/ops.h"
#include "core/io/pirjsonupgrader.h"
#include "core/io/typekeycache.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/opnames.h"
#include "core/ir/program.h"
#include "core/ir/region.h"

#include <cstring>

namespace ps {

namespace {

using simdjson::SUCCESS;
namespace od = simdjson::ondemand;

/// The key's raw text between its quotes; empty when it holds an escape (no key the reader
/// knows does, so such a key sends the document to the DOM reader).
std::string_view keyOf(od::field &f)
{
    const char *p = f.key().raw();
    const char *q = p;
    while (*q != '"') {
        if (*q == '\\')
            return {};
        ++q;
    }
    return { p, size_t(q - p) };
}

/// Calls `read(key, value)` for each field of `obj` in document order; false as soon as a field
/// does not parse or `read` returns false (a key out of place: the DOM reader decides).
template<class Read> bool forEachField(od::object &obj, Read &&read)
{
    for (auto item : obj) {
        od::field f;
        if (std::move(item).get(f) != SUCCESS || !read(keyOf(f), f.value()))
            return false;
    }
    return true;
}

template<size_t N> bool is(std::string_view k, const char (&lit)[N])
{
    return PirJsonElementReader::isKey(k, lit);
}

/// JSON bool, or an integer meaning 0/1 (as PirJsonElementReader::readFlag).
bool readFlag(od::value &v, bool &out)
{
    // Paddle writes integers; a scalar that is not one is left where it is (INCORRECT_TYPE).
    int64_t i;
    if (v.get_int64().get(i) == SUCCESS) {
        out = i != 0;
        return true;
    }
    od::json_type t;
    return v.type().get(t) == SUCCESS && t == od::json_type::boolean && v.get_bool().get(out) == SUCCESS;
}

// On-Demand keeps a value's iterator and the document iterator's token position to itself;
// readRecent() needs both to jump past an object whose tokens it already knows. An explicit
// instantiation may name private members, so this reaches them without touching simdjson.
template<class Tag, typename Tag::type Member> struct MemberAccess
{
    friend typename Tag::type memberOf(Tag) { return Member; }
};
struct ValueIteratorTag
{
    using type = od::value_iterator od::value::*;
    friend type memberOf(ValueIteratorTag);
};
struct TokenIteratorTag
{
    using type = od::token_iterator od::json_iterator::*;
    friend type memberOf(TokenIteratorTag);
};
template struct MemberAccess<ValueIteratorTag, &od::value::iter>;
template struct MemberAccess<TokenIteratorTag, &od::json_iterator::token>;

od::json_iterator &documentIterator(od::value &v)
{
    return (v.*memberOf(ValueIteratorTag {})).json_iter();
}

bool isEmptyArray(od::value &v)
{
    od::array a;
    bool empty = false;
    return v.get_array().get(a) == SUCCESS && a.is_empty().get(empty) == SUCCESS && empty;
}

} // namespace

PirJsonFastReader::PirJsonFastReader(const std::string &fileName)
    : m_fragmentReader(fileName, m_scratchDiagnostics)
{
}

PirJsonFastReader::~PirJsonFastReader() = default;

std::unique_ptr<Program> PirJsonFastReader::read(simdjson::padded_string_view json, int &version)
{
    m_values.clear();
    m_documentEnd = json.data() + json.size();
    // Like the DOM reader's, one parser per thread for documents up to kReuseLimit.
    constexpr size_t kReuseLimit = size_t(32) << 20;
    thread_local od::parser sharedParser;
    std::unique_ptr<od::parser> ownParser;
    if (json.size() > kReuseLimit)
        ownParser = std::make_unique<od::parser>();
    od::parser &parser = ownParser ? *ownParser : sharedParser;
    od::document doc;
    od::object top;
    if (parser.iterate(json).get(doc) != SUCCESS || doc.get_object().get(top) != SUCCESS)
        return nullptr;
    auto program = std::make_unique<Program>();
    m_program = program.get();
    bool hasBaseCode = false, hasProgram = false;
    const bool read = forEachField(top, [&](std::string_view k, od::value &value) {
        od::object obj;
        if (value.get_object().get(obj) != SUCCESS)
            return false;
        if (is(k, "base_code") && !hasBaseCode && !hasProgram)
            return hasBaseCode = readBaseCode(obj, *program, version);
        if (is(k, "program") && hasBaseCode && !hasProgram)
            return hasProgram = readProgram(obj, *program);
        return false;
    });
    if (!read)
        return nullptr;
    // Trailing content: the DOM parser refuses it; past the root, no token is left.
    const char *trailing = nullptr;
    if (!hasProgram || doc.current_location().get(trailing) == SUCCESS)
        return nullptr;
    return program;
}

bool PirJsonFastReader::readBaseCode(JsonObject obj, Program &program, int &version)
{
    bool hasMagic = false, hasVersion = false, hasTrainable = false;
    const bool read = forEachField(obj, [&](std::string_view k, od::value &value) {
        if (is(k, "magic") && !hasMagic) {
            std::string_view magic;
            return hasMagic = value.get_string().get(magic) == SUCCESS && magic == "pir";
        }
        if (is(k, "version") && !hasVersion) {
            int64_t v;
            if (value.get_int64().get(v) != SUCCESS || v < 0 || v > PirJsonUpgrader::kLatestVersion)
                return false;
            version = int(v);
            return hasVersion = true;
        }
        if (is(k, "trainable") && !hasTrainable) {
            bool trainable;
            if (!readFlag(value, trainable))
                return false;
            program.trainable = trainable;
            return hasTrainable = true;
        }
        return false;
    });
    if (!read)
        return false;
    if (!hasMagic || !hasVersion)
        return false;
    program.serializationVersion = version;
    return true;
}

bool PirJsonFastReader::readProgram(JsonObject obj, Program &program)
{
    bool hasRegions = false;
    for (auto item : obj) {
        od::field f;
        if (std::move(item).get(f) != SUCCESS || !is(keyOf(f), "regions") || hasRegions)
            return false;
        // Exactly one region (the DOM reader refuses others). No count_elements(): it would
        // scan the whole document.
        od::array regions;
        if (f.value().get_array().get(regions) != SUCCESS)
            return false;
        bool hasRegion = false;
        for (auto region : regions) {
            od::object regionObject;
            if (hasRegion || region.get_object().get(regionObject) != SUCCESS)
                return false;
            hasRegion = true;
            if (!readRegionFields(regionObject, &program.block(), nullptr))
                return false;
        }
        if (!hasRegion)
            return false;
        hasRegions = true;
    }
    return hasRegions;
}

bool PirJsonFastReader::readBlocks(JsonValue v, Block *only, Region *region)
{
    od::array blocks;
    if (v.get_array().get(blocks) != SUCCESS)
        return false;
    // The DOM reader warns about a program region with several blocks, and refuses none.
    size_t count = 0;
    for (auto item : blocks) {
        od::object obj;
        if ((only && count > 0) || item.get_object().get(obj) != SUCCESS
            || !readBlock(obj, only ? *only : region->addBlock()))
            return false;
        ++count;
    }
    return !only || count == 1;
}

bool PirJsonFastReader::readBlock(JsonObject obj, Block &block)
{
    bool hasOps = false;
    const bool read = forEachField(obj, [&](std::string_view k, od::value &value) {
        if (hasOps)
            return false;
        if (is(k, "#")) {
            std::string_view ignored;
            return value.get_string().get(ignored) == SUCCESS;
        }
        if (is(k, "args") || is(k, "kwargs"))
            return isEmptyArray(value); // block arguments are left to the DOM reader
        if (!is(k, "ops"))
            return false;
        od::array ops;
        if (value.get_array().get(ops) != SUCCESS)
            return false;
        for (auto op : ops) {
            od::object opObject;
            if (op.get_object().get(opObject) != SUCCESS || !readOp(opObject, block))
                return false;
        }
        return hasOps = true;
    });
    if (!read)
        return false;
    return hasOps;
}

std::string_view PirJsonFastReader::internedName(std::string_view name)
{
    const size_t hash = textHash(name);
    if (const std::string_view *interned = m_internedNames.find(name, hash))
        return *interned;
    std::string_view full = name;
    const size_t dot = name.find('.');
    static constexpr std::string_view kDialects[] = { "builtin", "pd_op", "cf", "custom_op", "dist" };
    if (dot == 1 && name[0] >= '0' && name[0] <= '4') {
        m_nameBuffer.assign(kDialects[name[0] - '0']);
        m_nameBuffer.append(name.substr(dot));
        full = m_nameBuffer;
    }
    const std::string_view interned = internOpName(full);
    m_internedNames.add(name, hash, interned);
    return interned;
}

bool PirJsonFastReader::readOp(JsonObject obj, Block &block)
{
    m_operands.clear();
    m_resultTypes.clear();
    m_resultIds.clear();
    m_attributes.clear();
    m_outputFlags.clear();
    // Paddle writes the keys sorted: "#", "A", "I", "O", "OA", "regions" (a parameter op: "#",
    // "A", "DA", "O", "OA", "QA"); other orders go to the DOM reader.
    std::string_view fullName;
    bool parameter = false;
    int stage = 0;
    Operation *created = nullptr;
    const bool read = forEachField(obj, [&](std::string_view k, od::value &value) {
        if (stage == 0) {
            std::string_view name;
            if (!is(k, "#") || value.get_string().get(name) != SUCCESS || name.empty())
                return false;
            parameter = name == "p";
            if (!parameter)
                fullName = internedName(name);
            static constexpr char kParameterPlace = 0;
            m_currentOpName = parameter ? &kParameterPlace : fullName.data();
            stage = 1;
            return true;
        }
        if (parameter)
            return readParameterField(k, value, stage);
        if (is(k, "A") && stage < 2) {
            stage = 2;
            return readNamedAttributes(value, m_attributes);
        }
        if (is(k, "I") && stage < 3) {
            stage = 3;
            return readOperands(value);
        }
        if (is(k, "O") && stage < 4) {
            stage = 4;
            od::array results;
            if (value.get_array().get(results) != SUCCESS)
                return false;
            for (auto result : results) {
                od::value r;
                if (std::move(result).get(r) != SUCCESS || !readResult(r))
                    return false;
            }
            return true;
        }
        if (is(k, "OA") && stage < 5) {
            stage = 5;
            return readNamedAttributes(value, m_attributes);
        }
        if (!is(k, "regions") || stage >= 6)
            return false;
        stage = 6;
        od::array regions;
        if (value.get_array().get(regions) != SUCCESS)
            return false;
        created = Operation::create(
            m_program->arena(), fullName, m_operands, m_resultTypes, std::span(m_attributes), 0);
        block.push_back(created);
        // Like Paddle, results become visible only after the op's regions are read.
        const std::vector<int64_t> ids = m_resultIds;
        for (auto region : regions) {
            od::object regionObject;
            if (region.get_object().get(regionObject) != SUCCESS
                || !readRegion(regionObject, created->addRegion()))
                return false;
        }
        return defineResults(created, ids);
    });
    if (!read)
        return false;
    if (stage == 0)
        return false;
    if (parameter) {
        // PirJsonProgramBuilder's order: A's flags and name, DA's, QA's, then OA's flags.
        if ((stage & kParameterA) == 0 || (stage & kParameterO) == 0)
            return false;
        for (NamedAttribute &flag : m_outputFlags)
            m_attributes.push_back(std::move(flag));
        created = Operation::create(
            m_program->arena(), ops::kParameter, {}, m_resultTypes, std::span(m_attributes), 0);
        block.push_back(created);
        return defineResults(created, m_resultIds);
    }
    if (created)
        return true;
    created = Operation::create(
        m_program->arena(), fullName, m_operands, m_resultTypes, std::span(m_attributes), 0);
    block.push_back(created);
    return defineResults(created, m_resultIds);
}

bool PirJsonFastReader::readRegion(JsonObject obj, Region &region)
{
    return readRegionFields(obj, nullptr, &region);
}

bool PirJsonFastReader::readRegionFields(JsonObject &obj, Block *only, Region *region)
{
    bool hasBlocks = false;
    const bool read = forEachField(obj, [&](std::string_view k, od::value &value) {
        if (is(k, "#")) {
            std::string_view ignored;
            return value.get_string().get(ignored) == SUCCESS;
        }
        if (is(k, "blocks") && !hasBlocks)
            return hasBlocks = readBlocks(value, only, region);
        return false;
    });
    return read && hasBlocks;
}

bool PirJsonFastReader::readOperands(JsonValue v)
{
    od::array list;
    if (v.get_array().get(list) != SUCCESS)
        return false;
    for (auto item : list) {
        od::object obj;
        if (item.get_object().get(obj) != SUCCESS)
            return false;
        bool hasId = false;
        for (auto field : obj) {
            od::field f;
            int64_t id;
            if (std::move(field).get(f) != SUCCESS || !is(keyOf(f), "%") || hasId
                || f.value().get_int64().get(id) != SUCCESS)
                return false;
            if (id == 0) {
                m_operands.emplace_back();
            } else {
                if (id < 0 || id >= int64_t(m_values.size()) || !m_values[size_t(id)])
                    return false;
                m_operands.push_back(Value(m_values[size_t(id)]));
            }
            hasId = true;
        }
        if (!hasId)
            return false;
    }
    return true;
}

bool PirJsonFastReader::readResult(JsonValue v)
{
    od::object obj;
    if (v.get_object().get(obj) != SUCCESS)
        return false;
    int64_t id = 0;
    Type type;
    bool hasId = false, hasType = false;
    const bool read = forEachField(obj, [&](std::string_view k, od::value &value) {
        if (is(k, "%") && !hasId)
            return hasId = value.get_int64().get(id) == SUCCESS;
        if (is(k, "TT") && !hasType)
            return hasType = readRecent(
                       value, type, m_recentTypes, [this](od::value &x, Type &t) { return readType(x, t); });
        return false;
    });
    if (!read)
        return false;
    if (!hasId || !hasType)
        return false;
    m_resultTypes.push_back(type);
    m_resultIds.push_back(id);
    return true;
}

bool PirJsonFastReader::defineResults(Operation *op, const std::vector<int64_t> &ids)
{
    for (unsigned i = 0; i < op->numResults(); ++i) {
        const int64_t id = ids[i];
        if (id == 0)
            continue;
        if (id < 0 || id >= kIdLimit)
            return false;
        if (size_t(id) >= m_values.size())
            m_values.resize(std::max(size_t(id) + 1, m_values.size() * 2), nullptr);
        if (m_values[size_t(id)])
            return false; // defined twice: the DOM reader warns
        m_values[size_t(id)] = op->result(i).impl();
    }
    return true;
}

bool PirJsonFastReader::readNamedAttributes(JsonValue v, std::vector<NamedAttribute> &out)
{
    od::array list;
    if (v.get_array().get(list) != SUCCESS)
        return false;
    for (auto item : list) {
        od::object obj;
        if (item.get_object().get(obj) != SUCCESS)
            return false;
        std::string_view name;
        bool hasName = false, hasValue = false;
        Attribute value;
        const bool read = forEachField(obj, [&](std::string_view k, od::value &field) {
            if (is(k, "N") && !hasName)
                return hasName = field.get_string().get(name) == SUCCESS;
            if (is(k, "AT") && !hasValue)
                return hasValue = readRecent(field, value, m_recentAttributes,
                           [this](od::value &x, Attribute &a) { return readAttribute(x, a); });
            return false;
        });
        if (!read || !hasName)
            return false;
        if (!hasValue)
            continue; // Paddle's patches delete attributes by dropping "AT"
        for (const NamedAttribute &existing : out) {
            if (existing.name == name)
                return false; // the DOM reader warns
        }
        out.push_back(NamedAttribute { std::string(name), std::move(value) });
    }
    return true;
}

bool PirJsonFastReader::parseFragment(std::string_view raw, simdjson::dom::element &out)
{
    thread_local simdjson::dom::parser parser;
    m_fragmentBuffer.resize(raw.size() + simdjson::SIMDJSON_PADDING);
    std::memcpy(m_fragmentBuffer.data(), raw.data(), raw.size());
    std::memset(m_fragmentBuffer.data() + raw.size(), 0, simdjson::SIMDJSON_PADDING);
    return parser.parse(m_fragmentBuffer.data(), raw.size(), false).get(out) == SUCCESS;
}

size_t PirJsonFastReader::recentSlot(size_t ordinal)
{
    const uint64_t key = (uint64_t(reinterpret_cast<uintptr_t>(m_currentOpName)) << 8) ^ uint64_t(ordinal);
    const size_t hash = PlaceHash()(key);
    if (const uint32_t *slot = m_recentSlots.find(key, hash))
        return *slot;
    const auto slot = uint32_t(m_recentTypes.size());
    m_recentTypes.emplace_back();
    m_recentAttributes.emplace_back();
    m_recentSlots.add(key, hash, slot);
    return slot;
}

template<class T, class ReadSlow>
bool PirJsonFastReader::readRecent(
    JsonValue v, T &out, std::vector<RecentTexts<T>> &recent, ReadSlow &&readSlow)
{
    od::json_iterator &it = documentIterator(v);
    const od::token_position start = it.position();
    const char *text = reinterpret_cast<const char *>(it.peek(start));
    const size_t available = size_t(m_documentEnd - text);
    const size_t ordinal = std::is_same_v<T, Type> ? m_resultTypes.size() : m_attributes.size();
    if (*text != '{' || ordinal > 255)
        return readSlow(v, out);
    RecentTexts<T> &texts = recent[recentSlot(ordinal)];
    for (auto &t : texts.texts) {
        if (t.text && t.length <= available && std::memcmp(t.text, text, t.length) == 0) {
            (it.*memberOf(TokenIteratorTag {})).set_position(start + t.tokens);
            it.ascend_to(it.depth() - 1);
            out = t.value;
            return true;
        }
    }
    const od::depth_t depth = it.depth();
    if (!readSlow(v, out))
        return false;
    const od::token_position end = it.position();
    if (it.depth() != depth - 1 || end <= start)
        return true;
    const char *endText = reinterpret_cast<const char *>(it.peek(end - 1));
    auto &t = texts.texts[texts.next++ % std::size(texts.texts)];
    t.text = text;
    t.length = uint32_t(endText + 1 - text);
    t.tokens = uint32_t(end - start);
    t.value = out;
    return true;
}

bool PirJsonFastReader::readType(JsonValue v, Type &out)
{
    od::object obj;
    std::string_view raw;
    if (v.get_object().get(obj) != SUCCESS || obj.raw_json().get(raw) != SUCCESS)
        return false;
    const size_t hash = textHash(raw);
    if (const Type *seen = m_typeCache.find(raw, hash)) {
        out = *seen;
        return true;
    }
    TypeKeyCache &known = TypeKeyCache::forThread(TypeKeyCache::Format::PirJsonRaw);
    if (const Type *t = known.find(raw)) {
        out = *t;
        m_typeCache.add(raw, hash, out);
        return true;
    }
    simdjson::dom::element e;
    if (!parseFragment(raw, e) || !m_fragmentReader.readType(e, out) || !m_scratchDiagnostics.empty())
        return false;
    known.add(raw, out);
    m_typeCache.add(raw, hash, out);
    return true;
}

bool PirJsonFastReader::readAttribute(JsonValue v, Attribute &out)
{
    od::object obj;
    std::string_view raw;
    if (v.get_object().get(obj) != SUCCESS || obj.raw_json().get(raw) != SUCCESS)
        return false;
    const size_t hash = textHash(raw);
    if (const Attribute *cached = m_attributeCache.find(raw, hash)) {
        out = *cached;
        return true;
    }
    simdjson::dom::element e;
    if (!parseFragment(raw, e) || !m_fragmentReader.readAttribute(e, out) || !m_scratchDiagnostics.empty())
        return false;
    m_attributeCache.add(raw, hash, out);
    return true;
}

bool PirJsonFastReader::readFlags(JsonValue v, size_t first, size_t count, std::vector<NamedAttribute> &out)
{
    od::array list;
    if (v.get_array().get(list) != SUCCESS)
        return false;
    size_t i = 0;
    for (auto item : list) {
        od::value x;
        bool flag;
        if (i == count || item.get(x) != SUCCESS || !readFlag(x, flag))
            return false;
        out.push_back(PirJsonElementReader::parameterFlag(first + i, flag));
        ++i;
    }
    return i == count;
}

bool PirJsonFastReader::readParameterField(std::string_view k, JsonValue v, int &stage)
{
    // `stage` is 1 plus a bit per key seen; DA must come before QA (both append to the list).
    if (is(k, "A") && (stage & kParameterA) == 0) {
        stage |= kParameterA;
        od::array list;
        if (v.get_array().get(list) != SUCCESS)
            return false;
        size_t i = 0;
        for (auto item : list) {
            od::value x;
            if (i == 4 || std::move(item).get(x) != SUCCESS)
                return false;
            if (i < 3) {
                bool flag;
                if (!readFlag(x, flag))
                    return false;
                m_attributes.push_back(PirJsonElementReader::parameterFlag(i, flag));
            } else {
                std::string_view name;
                if (x.get_string().get(name) != SUCCESS)
                    return false;
                m_attributes.push_back({ "parameter_name", Attribute::string(std::string(name)) });
            }
            ++i;
        }
        return i == 4;
    }
    if (is(k, "DA") && (stage & kParameterA) && (stage & (kParameterDA | kParameterQA)) == 0) {
        stage |= kParameterDA;
        return readNamedAttributes(v, m_attributes);
    }
    if (is(k, "QA") && (stage & kParameterA) && (stage & kParameterQA) == 0) {
        stage |= kParameterQA;
        return readNamedAttributes(v, m_attributes);
    }
    if (is(k, "OA") && (stage & kParameterOA) == 0) {
        stage |= kParameterOA;
        return readFlags(v, 3, 3, m_outputFlags);
    }
    if (is(k, "O") && (stage & kParameterO) == 0) {
        stage |= kParameterO;
        return readResult(v);
    }
    return false;
}

} // namespace ps
