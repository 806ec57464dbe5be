#include "core/io/pirjsonprogrambuilder.h"

#include "core/dialect/ops.h"
#include "core/io/pirjsonupgrader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/opnames.h"
#include "core/ir/program.h"
#include "core/ir/region.h"

namespace ps {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;
using Scope = JsonPath::Scope;

namespace {

constexpr auto isKey
    = [](std::string_view k, const auto &lit) { return PirJsonElementReader::isKey(k, lit); };

} // namespace

bool PirJsonProgramBuilder::readDocument(element root)
{
    object top;
    if (!m_r.readObject(root, top, "the document"))
        return false;
    element baseCode, programElement;
    bool hasBaseCode = false, hasProgram = false;
    for (const auto field : top) {
        if (isKey(field.key, "base_code")) {
            baseCode = field.value;
            hasBaseCode = true;
        } else if (isKey(field.key, "program")) {
            programElement = field.value;
            hasProgram = true;
        }
    }
    if (!hasBaseCode) {
        Scope scope(m_r.path(), "base_code");
        m_r.error("missing \"base_code\" (not a PIR JSON program)");
        return false;
    }
    {
        Scope scope(m_r.path(), "base_code");
        if (!readBaseCode(baseCode))
            return false;
    }
    if (!hasProgram) {
        Scope scope(m_r.path(), "program");
        m_r.error("missing \"program\"");
        return false;
    }
    Scope programScope(m_r.path(), "program");
    object programObject;
    if (!m_r.readObject(programElement, programObject, "\"program\""))
        return false;
    element regionsElement;
    if (programObject["regions"].get(regionsElement) != simdjson::SUCCESS) {
        Scope scope(m_r.path(), "regions");
        m_r.error("missing \"regions\"");
        return false;
    }
    Scope regionsScope(m_r.path(), "regions");
    array regions;
    if (!m_r.readArray(regionsElement, regions, "\"regions\""))
        return false;
    if (regions.size() != 1) {
        m_r.error("the program must have exactly one region, found " + std::to_string(regions.size()));
        return false;
    }
    Scope regionScope(m_r.path(), size_t(0));
    object region;
    element blocksElement;
    array blocks;
    if (!m_r.readObject(*regions.begin(), region, "a region"))
        return false;
    if (region["blocks"].get(blocksElement) != simdjson::SUCCESS) {
        m_r.error("a region needs \"blocks\"");
        return false;
    }
    Scope blocksScope(m_r.path(), "blocks");
    if (!m_r.readArray(blocksElement, blocks, "\"blocks\""))
        return false;
    if (blocks.size() == 0) {
        m_r.error("the program region has no block");
        return false;
    }
    if (blocks.size() > 1)
        m_r.warning(
            "the program region has " + std::to_string(blocks.size()) + " blocks; only the first is read");
    Scope blockScope(m_r.path(), size_t(0));
    readBlock(*blocks.begin(), m_program.block());
    return true;
}

bool PirJsonProgramBuilder::readBaseCode(element e)
{
    object baseCode;
    if (!m_r.readObject(e, baseCode, "\"base_code\""))
        return false;
    bool hasMagic = false, hasVersion = false;
    for (const auto field : baseCode) {
        Scope scope(m_r.path(), field.key);
        if (isKey(field.key, "magic")) {
            std::string_view magic;
            if (!m_r.readString(field.value, magic, "\"magic\""))
                return false;
            if (magic != "pir") {
                m_r.error("wrong magic '" + std::string(magic) + "' (expected 'pir')");
                return false;
            }
            hasMagic = true;
        } else if (isKey(field.key, "version")) {
            int64_t v;
            if (!m_r.readInt(field.value, v, "\"version\""))
                return false;
            if (v < 0 || v > PirJsonUpgrader::kLatestVersion) {
                m_r.error("unsupported PIR serialization version " + std::to_string(v) + " (supported: 0.."
                    + std::to_string(PirJsonUpgrader::kLatestVersion) + ")");
                return false;
            }
            m_version = int(v);
            hasVersion = true;
        } else if (isKey(field.key, "trainable")) {
            bool trainable;
            if (!m_r.readFlag(field.value, trainable, "\"trainable\""))
                return false;
            m_program.trainable = trainable;
        }
    }
    if (!hasMagic) {
        Scope scope(m_r.path(), "magic");
        m_r.error("missing \"magic\"");
        return false;
    }
    if (!hasVersion) {
        Scope scope(m_r.path(), "version");
        m_r.error("missing \"version\"");
        return false;
    }
    m_program.serializationVersion = m_version;
    return true;
}

void PirJsonProgramBuilder::defineValue(int64_t id, Value v)
{
    ValueImpl **slot;
    if (id > 0 && id < kDenseIdLimit) {
        if (size_t(id) >= m_results.size())
            m_results.resize(std::max(size_t(id) + 1, m_results.size() * 2), nullptr);
        slot = &m_results[size_t(id)];
    } else if (id < 0 && id > -kDenseIdLimit) {
        if (size_t(-id) >= m_arguments.size())
            m_arguments.resize(std::max(size_t(-id) + 1, m_arguments.size() * 2), nullptr);
        slot = &m_arguments[size_t(-id)];
    } else {
        slot = &m_otherIds[id];
    }
    if (*slot)
        m_r.warning("value id " + std::to_string(id) + " is defined twice; the later definition wins");
    *slot = v.impl();
}

bool PirJsonProgramBuilder::lookupValue(int64_t id, Value &out)
{
    ValueImpl *impl = nullptr;
    if (id == 0) {
        out = Value();
        return true;
    }
    if (id > 0 && id < kDenseIdLimit) {
        impl = size_t(id) < m_results.size() ? m_results[size_t(id)] : nullptr;
    } else if (id < 0 && id > -kDenseIdLimit) {
        impl = size_t(-id) < m_arguments.size() ? m_arguments[size_t(-id)] : nullptr;
    } else {
        const auto it = m_otherIds.find(id);
        impl = it == m_otherIds.end() ? nullptr : it->second;
    }
    out = Value(impl);
    return impl != nullptr;
}

void PirJsonProgramBuilder::readRegion(element e, Region &region)
{
    object obj;
    if (!m_r.readObject(e, obj, "a region"))
        return;
    element blocksElement;
    if (obj["blocks"].get(blocksElement) != simdjson::SUCCESS) {
        m_r.error("a region needs \"blocks\"");
        return;
    }
    Scope scope(m_r.path(), "blocks");
    array blocks;
    if (!m_r.readArray(blocksElement, blocks, "\"blocks\""))
        return;
    size_t i = 0;
    for (const element b : blocks) {
        Scope item(m_r.path(), i++);
        readBlock(b, region.addBlock());
    }
}

void PirJsonProgramBuilder::readBlock(element e, Block &block)
{
    object obj;
    if (!m_r.readObject(e, obj, "a block"))
        return;
    element args, kwargs, ops;
    bool hasArgs = false, hasKwargs = false, hasOps = false;
    for (const auto field : obj) {
        if (isKey(field.key, "args")) {
            args = field.value;
            hasArgs = true;
        } else if (isKey(field.key, "kwargs")) {
            kwargs = field.value;
            hasKwargs = true;
        } else if (isKey(field.key, "ops")) {
            ops = field.value;
            hasOps = true;
        }
    }
    for (int pass = 0; pass < 2; ++pass) {
        const bool keyword = pass == 1;
        if (!(keyword ? hasKwargs : hasArgs))
            continue;
        Scope scope(m_r.path(), keyword ? "kwargs" : "args");
        array list;
        if (!m_r.readArray(keyword ? kwargs : args, list, keyword ? "\"kwargs\"" : "\"args\""))
            continue;
        size_t i = 0;
        for (const element argElement : list) {
            Scope item(m_r.path(), i++);
            object arg;
            if (!m_r.readObject(argElement, arg, "a block argument"))
                continue;
            int64_t id = kNoId;
            Type type = m_r.nullType();
            std::string_view key;
            bool hasKey = false;
            std::vector<NamedAttribute> attributes;
            for (const auto field : arg) {
                Scope fieldScope(m_r.path(), field.key);
                if (isKey(field.key, "#")) {
                    if (!m_r.readInt(field.value, id, "a block argument id"))
                        id = kNoId;
                } else if (isKey(field.key, "TT")) {
                    m_r.readType(field.value, type);
                } else if (isKey(field.key, "key") && keyword) {
                    hasKey = m_r.readString(field.value, key, "a keyword argument \"key\"");
                } else if (isKey(field.key, "A")) {
                    readNamedAttributes(field.value, attributes);
                }
            }
            if (id == kNoId) {
                m_r.error("a block argument needs an integer \"#\" id");
                continue;
            }
            Value v;
            if (keyword) {
                if (!hasKey) {
                    m_r.error("a keyword argument needs a \"key\"");
                    continue;
                }
                if (block.kwarg(key)) {
                    m_r.error("duplicate keyword argument '" + std::string(key) + "'");
                    continue;
                }
                v = block.addKwarg(std::string(key), type);
            } else {
                v = block.addArgument(type);
            }
            block.setValueAttributes(v, std::move(attributes));
            defineValue(id, v);
        }
    }
    if (!hasOps) {
        m_r.error("a block needs \"ops\"");
        return;
    }
    Scope scope(m_r.path(), "ops");
    array list;
    if (!m_r.readArray(ops, list, "\"ops\""))
        return;
    size_t i = 0;
    for (const element op : list) {
        Scope item(m_r.path(), i++);
        readOp(op, block);
    }
}

std::string_view PirJsonProgramBuilder::internedName(std::string_view name)
{
    // Keys are views into the parsed document, which outlives the builder.
    if (const auto it = m_internedNames.find(name); it != m_internedNames.end())
        return it->second;
    const std::string_view interned = internOpName(decompressName(name));
    m_internedNames.emplace(name, interned);
    return interned;
}

std::string_view PirJsonProgramBuilder::decompressName(std::string_view name)
{
    const size_t dot = name.find('.');
    if (dot == std::string_view::npos)
        return name;
    static constexpr std::string_view kDialects[] = { "builtin", "pd_op", "cf", "custom_op", "dist" };
    const std::string_view prefix = name.substr(0, dot);
    if (prefix.size() != 1 || prefix[0] < '0' || prefix[0] > '4')
        return name;
    m_nameBuffer.assign(kDialects[prefix[0] - '0']);
    m_nameBuffer.append(name.substr(dot));
    return m_nameBuffer;
}

void PirJsonProgramBuilder::readNamedAttributes(element e, std::vector<NamedAttribute> &out)
{
    array list;
    if (!m_r.readArray(e, list, "an attribute list"))
        return;
    size_t i = 0;
    for (const element item : list) {
        Scope itemScope(m_r.path(), i++);
        object obj;
        if (!m_r.readObject(item, obj, "a named attribute"))
            continue;
        std::string_view name;
        element at;
        bool hasName = false, hasValue = false;
        for (const auto field : obj) {
            if (isKey(field.key, "N")) {
                Scope scope(m_r.path(), "N");
                hasName = m_r.readString(field.value, name, "an attribute name \"N\"");
                if (!hasName)
                    break;
            } else if (isKey(field.key, "AT")) {
                at = field.value;
                hasValue = true;
            }
        }
        if (!hasName) {
            m_r.error("a named attribute needs a string \"N\"");
            continue;
        }
        if (!hasValue)
            continue; // Paddle's patches delete attributes by dropping "AT"
        bool duplicate = false;
        for (const NamedAttribute &existing : out)
            duplicate = duplicate || existing.name == name;
        if (duplicate) {
            m_r.warning("duplicate attribute '" + std::string(name) + "'; the first one is kept");
            continue;
        }
        Scope scope(m_r.path(), "AT");
        NamedAttribute &slot = out.emplace_back();
        slot.name.assign(name);
        if (!m_r.readAttribute(at, slot.value))
            out.pop_back();
    }
}

bool PirJsonProgramBuilder::readResult(element e, Type &type, int64_t &id)
{
    object obj;
    type = m_r.nullType();
    id = kNoId;
    if (!m_r.readObject(e, obj, "an op result"))
        return false;
    bool ok = true;
    for (const auto field : obj) {
        if (isKey(field.key, "%")) {
            Scope scope(m_r.path(), "%");
            ok &= m_r.readInt(field.value, id, "a value id \"%\"");
        } else if (isKey(field.key, "TT")) {
            Scope scope(m_r.path(), "TT");
            ok &= m_r.readType(field.value, type);
        }
    }
    return ok;
}

void PirJsonProgramBuilder::readParameterOp(object op, Block &block)
{
    element a, o, oa, da, qa;
    bool hasA = false, hasO = false, hasOA = false, hasDA = false, hasQA = false;
    for (const auto field : op) {
        if (isKey(field.key, "A")) {
            a = field.value;
            hasA = true;
        } else if (isKey(field.key, "O")) {
            o = field.value;
            hasO = true;
        } else if (isKey(field.key, "OA")) {
            oa = field.value;
            hasOA = true;
        } else if (isKey(field.key, "DA")) {
            da = field.value;
            hasDA = true;
        } else if (isKey(field.key, "QA")) {
            qa = field.value;
            hasQA = true;
        }
    }
    if (!hasA || !hasO) {
        m_r.error("a parameter op (\"p\") needs \"A\" and \"O\"");
        return;
    }
    const auto flag = [](size_t index, bool v) -> const NamedAttribute & {
        return PirJsonElementReader::parameterFlag(index, v);
    };
    std::vector<NamedAttribute> &attrs = m_attributeBuffer;
    attrs.clear();
    {
        Scope scope(m_r.path(), "A");
        array list;
        if (!m_r.readArray(a, list, "\"A\""))
            return;
        if (list.size() != 4) {
            m_r.error(
                "a parameter op's \"A\" must be [is_distributed, is_parameter, need_clip, parameter_name]");
            return;
        }
        static constexpr const char *kNames[] = { "is_distributed", "is_parameter", "need_clip" };
        size_t i = 0;
        for (const element x : list) {
            Scope item(m_r.path(), i);
            if (i < 3) {
                bool value;
                if (!m_r.readFlag(x, value, kNames[i]))
                    return;
                attrs.push_back(flag(i, value));
            } else {
                std::string_view name;
                if (!m_r.readString(x, name, "parameter_name"))
                    return;
                attrs.push_back({ "parameter_name", Attribute::string(std::string(name)) });
            }
            ++i;
        }
    }
    if (hasDA) {
        Scope scope(m_r.path(), "DA");
        readNamedAttributes(da, attrs);
    }
    if (hasQA) {
        Scope scope(m_r.path(), "QA");
        readNamedAttributes(qa, attrs);
    }
    if (hasOA) {
        Scope scope(m_r.path(), "OA");
        array list;
        if (!m_r.readArray(oa, list, "\"OA\""))
            return;
        if (list.size() != 3) {
            m_r.error("a parameter op's \"OA\" must be [persistable, stop_gradient, trainable]");
            return;
        }
        static constexpr const char *kNames[] = { "persistable", "stop_gradient", "trainable" };
        size_t i = 0;
        for (const element x : list) {
            Scope item(m_r.path(), i);
            bool value;
            if (!m_r.readFlag(x, value, kNames[i]))
                return;
            attrs.push_back(flag(3 + i, value));
            ++i;
        }
    }
    Type type;
    int64_t id;
    {
        Scope scope(m_r.path(), "O");
        readResult(o, type, id);
    }
    Operation *created
        = Operation::create(m_program.arena(), ops::kParameter, {}, std::span(&type, 1), std::span(attrs), 0);
    block.push_back(created);
    if (id != kNoId && id != 0)
        defineValue(id, created->result(0));
}

void PirJsonProgramBuilder::readOp(element e, Block &block)
{
    object op;
    if (!m_r.readObject(e, op, "an op"))
        return;
    std::string_view name;
    element operands, results, attrs, resultAttrs, regions;
    bool hasName = false, hasOperands = false, hasResults = false, hasAttrs = false, hasResultAttrs = false,
         hasRegions = false;
    for (const auto field : op) {
        const std::string_view k = field.key;
        if (isKey(k, "#")) {
            hasName = field.value.get_string().get(name) == simdjson::SUCCESS;
        } else if (isKey(k, "I")) {
            operands = field.value;
            hasOperands = true;
        } else if (isKey(k, "O")) {
            results = field.value;
            hasResults = true;
        } else if (isKey(k, "A")) {
            attrs = field.value;
            hasAttrs = true;
        } else if (isKey(k, "OA")) {
            resultAttrs = field.value;
            hasResultAttrs = true;
        } else if (isKey(k, "regions")) {
            regions = field.value;
            hasRegions = true;
        }
    }
    if (!hasName || name.empty()) {
        Scope scope(m_r.path(), "#");
        m_r.error("an op needs a non-empty string name \"#\"");
        return;
    }
    if (name == "p") {
        readParameterOp(op, block);
        return;
    }
    const std::string_view fullName = internedName(name);

    m_operandBuffer.clear();
    if (hasOperands) {
        Scope scope(m_r.path(), "I");
        array list;
        if (m_r.readArray(operands, list, "\"I\"")) {
            size_t i = 0;
            for (const element x : list) {
                Scope item(m_r.path(), i++);
                object obj;
                int64_t id = kNoId;
                element idElement;
                bool hasId = false;
                if (!m_r.readObject(x, obj, "an operand")) {
                    m_operandBuffer.emplace_back();
                    continue;
                }
                for (const auto field : obj) {
                    if (isKey(field.key, "%")) {
                        idElement = field.value;
                        hasId = true;
                    }
                }
                if (!hasId) {
                    m_r.error("an operand needs a value id \"%\"");
                    m_operandBuffer.emplace_back();
                    continue;
                }
                Value v;
                if (m_r.readInt(idElement, id, "a value id \"%\"") && !lookupValue(id, v))
                    m_r.error("op '" + std::string(fullName) + "' operand " + std::to_string(i - 1)
                        + " refers to undefined value id " + std::to_string(id));
                m_operandBuffer.push_back(v);
            }
        }
    }

    m_typeBuffer.clear();
    m_idBuffer.clear();
    if (hasResults) {
        Scope scope(m_r.path(), "O");
        array list;
        if (m_r.readArray(results, list, "\"O\"")) {
            size_t i = 0;
            for (const element x : list) {
                Scope item(m_r.path(), i++);
                Type type;
                int64_t id;
                readResult(x, type, id);
                m_typeBuffer.push_back(type);
                m_idBuffer.push_back(id);
            }
        }
    }

    std::vector<NamedAttribute> &attributes = m_attributeBuffer;
    attributes.clear();
    if (hasAttrs) {
        Scope scope(m_r.path(), "A");
        readNamedAttributes(attrs, attributes);
    }
    if (hasResultAttrs) {
        Scope scope(m_r.path(), "OA");
        readNamedAttributes(resultAttrs, attributes);
    }

    unsigned numRegions = 0;
    array regionList;
    if (hasRegions) {
        Scope scope(m_r.path(), "regions");
        if (m_r.readArray(regions, regionList, "\"regions\""))
            numRegions = unsigned(regionList.size());
    }
    Operation *created = Operation::create(
        m_program.arena(), fullName, m_operandBuffer, m_typeBuffer, std::span(attributes), numRegions);
    block.push_back(created);

    if (numRegions == 0) {
        for (unsigned i = 0; i < created->numResults(); ++i) {
            if (m_idBuffer[i] != kNoId && m_idBuffer[i] != 0)
                defineValue(m_idBuffer[i], created->result(i));
        }
        return;
    }
    // Like Paddle, results become visible only after the op's regions are read.
    const std::vector<int64_t> ids = m_idBuffer;
    {
        Scope scope(m_r.path(), "regions");
        size_t i = 0;
        for (const element r : regionList) {
            Scope item(m_r.path(), i);
            readRegion(r, created->region(unsigned(i)));
            ++i;
        }
    }
    for (unsigned i = 0; i < created->numResults(); ++i) {
        if (ids[i] != kNoId && ids[i] != 0)
            defineValue(ids[i], created->result(i));
    }
}

} // namespace ps
