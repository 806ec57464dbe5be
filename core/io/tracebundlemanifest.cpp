#include "core/io/tracebundlemanifest.h"

#include "core/io/inputfile.h"
#include "core/io/jsonpath.h"
#include "core/io/jsonsyntaxcheck.h"
#include "core/io/numbertext.h"
#include "core/io/paddedfile.h"
#include "core/io/tracebundle.h"

#include <charconv>
#include <filesystem>
#include <simdjson.h>

namespace ps {

namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

/// Typed field access with the JSON path of every error. A null field counts as absent.
class Reader
{
public:
    Reader(const std::string &file, DiagnosticList &diagnostics)
        : m_file(file)
        , m_diagnostics(diagnostics)
    {
    }

    JsonPath &path() { return m_path; }
    bool ok() const { return m_ok; }

    void error(const std::string &message)
    {
        m_diagnostics.error(SourceLocation { m_file, 0, 0, m_path.toString(), -1 }, message);
        m_ok = false;
    }

    /// The field, or nullopt when absent/null (an error when `required`).
    std::optional<element> field(const object &o, std::string_view key, bool required)
    {
        element e;
        if (o.at_key(key).get(e) == simdjson::SUCCESS && !e.is_null())
            return e;
        if (required) {
            JsonPath::Scope scope(m_path, key);
            error("missing");
        }
        return std::nullopt;
    }

    std::optional<object> objectField(const object &o, std::string_view key, bool required)
    {
        std::optional<element> e = field(o, key, required);
        object out;
        if (!e)
            return std::nullopt;
        if (e->get_object().get(out) != simdjson::SUCCESS) {
            JsonPath::Scope scope(m_path, key);
            error("expected an object");
            return std::nullopt;
        }
        return out;
    }

    std::optional<array> arrayField(const object &o, std::string_view key, bool required)
    {
        std::optional<element> e = field(o, key, required);
        array out;
        if (!e)
            return std::nullopt;
        if (e->get_array().get(out) != simdjson::SUCCESS) {
            JsonPath::Scope scope(m_path, key);
            error("expected an array");
            return std::nullopt;
        }
        return out;
    }

    void string(const object &o, std::string_view key, std::string &out, bool required = false)
    {
        std::optional<element> e = field(o, key, required);
        std::string_view s;
        if (!e)
            return;
        if (e->get_string().get(s) != simdjson::SUCCESS) {
            JsonPath::Scope scope(m_path, key);
            error("expected a string");
            return;
        }
        out = std::string(s);
    }

    void boolean(const object &o, std::string_view key, bool &out)
    {
        std::optional<element> e = field(o, key, false);
        if (e && e->get_bool().get(out) != simdjson::SUCCESS) {
            JsonPath::Scope scope(m_path, key);
            error("expected true or false");
        }
    }

    bool index(element e, size_t &out)
    {
        uint64_t v = 0;
        if (e.get_uint64().get(v) != simdjson::SUCCESS) {
            error("expected a non-negative integer");
            return false;
        }
        out = size_t(v);
        return true;
    }

    void index(const object &o, std::string_view key, size_t &out, bool required)
    {
        if (std::optional<element> e = field(o, key, required)) {
            JsonPath::Scope scope(m_path, key);
            index(*e, out);
        }
    }

    void shape(const object &o, std::string_view key, std::vector<int64_t> &out)
    {
        std::optional<array> a = arrayField(o, key, false);
        if (!a)
            return;
        JsonPath::Scope scope(m_path, key);
        size_t i = 0;
        for (element d : *a) {
            JsonPath::Scope item(m_path, i++);
            int64_t v = 0;
            if (d.get_int64().get(v) != simdjson::SUCCESS) {
                error("expected an integer");
                return;
            }
            out.push_back(v);
        }
    }

    /// Strings, with null entries read as `nullText`.
    std::vector<std::string> strings(const object &o, std::string_view key, const std::string &nullText)
    {
        std::vector<std::string> out;
        std::optional<array> a = arrayField(o, key, false);
        if (!a)
            return out;
        JsonPath::Scope scope(m_path, key);
        size_t i = 0;
        for (element e : *a) {
            JsonPath::Scope item(m_path, i++);
            std::string_view s;
            if (e.is_null())
                out.push_back(nullText);
            else if (e.get_string().get(s) == simdjson::SUCCESS)
                out.emplace_back(s);
            else
                error("expected a string");
        }
        return out;
    }

    std::optional<OpRange> range(const object &o, std::string_view key)
    {
        std::optional<array> a = arrayField(o, key, false);
        if (!a)
            return std::nullopt;
        JsonPath::Scope scope(m_path, key);
        size_t begin = 0, end = 0;
        if (a->size() != 2) {
            error("expected [begin, end]");
            return std::nullopt;
        }
        for (size_t i = 0; i < 2; ++i) {
            JsonPath::Scope item(m_path, i);
            if (!index(a->at(i).value_unsafe(), i == 0 ? begin : end))
                return std::nullopt;
        }
        if (end < begin) {
            error("the range ends before it begins");
            return std::nullopt;
        }
        return OpRange { begin, end };
    }

private:
    std::string m_file;
    DiagnosticList &m_diagnostics;
    JsonPath m_path;
    bool m_ok = true;
};

/// Calls `fn(object, index)` for every element of the array field `key`, with its path pushed;
/// an element that is not an object is an error.
template<class Fn> void forEachObject(Reader &r, const object &o, std::string_view key, bool required, Fn fn)
{
    std::optional<array> a = r.arrayField(o, key, required);
    if (!a)
        return;
    JsonPath::Scope scope(r.path(), key);
    size_t i = 0;
    for (element e : *a) {
        JsonPath::Scope item(r.path(), i);
        object entry;
        if (e.get_object().get(entry) != simdjson::SUCCESS)
            r.error("expected an object");
        else
            fn(entry, i);
        ++i;
    }
}

TraceBundle::Tensor readTensor(Reader &r, const object &o)
{
    TraceBundle::Tensor t;
    r.string(o, "name", t.name, true);
    r.string(o, "argument", t.argument);
    r.shape(o, "shape", t.shape);
    r.string(o, "dtype", t.dtype);
    r.boolean(o, "stop_gradient", t.stopGradient);
    r.boolean(o, "trainable", t.trainable);
    r.string(o, "file", t.file);
    r.string(o, "grad_file", t.gradFile);
    return t;
}

TraceBundle::Output readOutput(Reader &r, const object &o, size_t position)
{
    TraceBundle::Output out;
    out.index = position;
    r.index(o, "index", out.index, false);
    r.shape(o, "shape", out.shape);
    r.string(o, "dtype", out.dtype);
    r.boolean(o, "stop_gradient", out.stopGradient);
    if (std::optional<object> def = r.objectField(o, "defined_by", true)) {
        JsonPath::Scope scope(r.path(), "defined_by");
        r.index(*def, "op_index", out.opIndex, true);
        r.index(*def, "result_index", out.resultIndex, true);
        r.string(*def, "op_name", out.opName);
    }
    r.string(o, "name", out.name);
    r.string(o, "fo_name", out.foName);
    r.string(o, "file", out.file);
    return out;
}

TraceBundle::OutputNode readNode(Reader &r, const object &o, size_t outputCount)
{
    using Kind = TraceBundle::OutputNode::Kind;
    TraceBundle::OutputNode node;
    std::string kind;
    r.string(o, "kind", kind, true);
    if (kind == "tensor") {
        node.kind = Kind::Tensor;
        r.index(o, "index", node.index, true);
        r.boolean(o, "duplicate", node.duplicate);
        if (node.index >= outputCount) {
            JsonPath::Scope scope(r.path(), "index");
            r.error("output " + std::to_string(node.index) + " does not exist (" + std::to_string(outputCount)
                + " outputs)");
        }
    } else if (kind == "constant") {
        node.kind = Kind::Constant;
        element value;
        std::string_view text;
        if (o.at_key("value").get(value) == simdjson::SUCCESS)
            node.constant = value.get_string().get(text) == simdjson::SUCCESS ? std::string(text)
                                                                              : simdjson::to_string(value);
    } else if (kind == "list" || kind == "tuple" || kind == "dict") {
        node.kind = kind == "list" ? Kind::List : kind == "tuple" ? Kind::Tuple : Kind::Dict;
        forEachObject(r, o, "items", true, [&](const object &item, size_t) {
            if (node.kind != Kind::Dict) {
                node.items.push_back(readNode(r, item, outputCount));
                return;
            }
            std::string key;
            r.string(item, "key", key, true);
            if (std::optional<object> value = r.objectField(item, "value", true)) {
                JsonPath::Scope scope(r.path(), "value");
                node.keys.push_back(key);
                node.items.push_back(readNode(r, *value, outputCount));
            }
        });
    } else if (!kind.empty()) {
        JsonPath::Scope scope(r.path(), "kind");
        r.error("unknown kind " + NumberText::quote(kind) + " (tensor, constant, list, tuple, dict)");
    }
    return node;
}

} // namespace

bool TraceBundleManifest::read(const std::string &file, TraceBundle &b, DiagnosticList &diagnostics)
{
    std::string readError;
    const std::optional<simdjson::padded_string> content
        = readPaddedFile(file, InputFile::kManifestLimit, readError);
    if (!content) {
        InputFile::report(readError, file, diagnostics);
        return false;
    }
    return parse(std::string_view(content->data(), content->size()), file, b, diagnostics);
}

bool TraceBundleManifest::parse(
    std::string_view json, const std::string &file, TraceBundle &b, DiagnosticList &diagnostics)
{
    const simdjson::padded_string content(json);
    simdjson::dom::parser parser;
    element root;
    if (const auto code = parser.parse(content).get(root); code != simdjson::SUCCESS) {
        // simdjson's DOM parser gives no position: find it (error path only).
        const std::string_view text = json;
        SourceLocation at { file, 0, 0, {}, -1 };
        std::string message = std::string("not valid JSON: ") + simdjson::error_message(code);
        if (const std::optional<JsonSyntaxError> e = findJsonSyntaxError(text)) {
            lineAndColumn(text, e->offset, at.line, at.column);
            message = "not valid JSON: " + e->message;
        }
        diagnostics.error(std::move(at), std::move(message));
        return false;
    }
    Reader r(file, diagnostics);
    object o;
    if (root.get_object().get(o) != simdjson::SUCCESS) {
        r.error("expected an object");
        return false;
    }
    b.m_name = std::filesystem::path(file).parent_path().filename().string();
    r.string(o, "name", b.m_name);
    r.string(o, "description", b.m_description);
    r.string(o, "paddle_version", b.m_paddleVersion);
    r.string(o, "paddle_commit", b.m_paddleCommit);
    std::string flavour;
    r.string(o, "pipeline_flavour", flavour);
    if (!flavour.empty()) {
        if (std::optional<PipelineFlavour> f = flavourFromName(flavour)) {
            b.m_flavour = *f;
        } else {
            JsonPath::Scope scope(r.path(), "pipeline_flavour");
            r.error("unknown flavour " + NumberText::quote(flavour) + " (newest, 3.0, seed)");
        }
    }
    r.boolean(o, "training", b.m_training);
    r.string(o, "fake_value_name", b.m_fakeValueName);
    r.string(o, "status", b.m_status);
    forEachObject(r, o, "errors", false, [&](const object &e, size_t) {
        std::string stage, message;
        r.string(e, "stage", stage);
        r.string(e, "error", message);
        b.m_errors.push_back(stage.empty() ? message : stage + ": " + message);
    });
    forEachObject(
        r, o, "inputs", true, [&](const object &e, size_t) { b.m_inputs.push_back(readTensor(r, e)); });
    forEachObject(r, o, "parameters", false,
        [&](const object &e, size_t) { b.m_parameters.push_back(readTensor(r, e)); });
    forEachObject(r, o, "outputs", true,
        [&](const object &e, size_t i) { b.m_outputs.push_back(readOutput(r, e, i)); });
    if (std::optional<object> structure = r.objectField(o, "output_structure", false)) {
        JsonPath::Scope scope(r.path(), "output_structure");
        b.m_outputStructure = readNode(r, *structure, b.m_outputs.size());
    } else {
        for (size_t i = 0; i < b.m_outputs.size(); ++i)
            b.m_outputStructure.items.push_back(
                { TraceBundle::OutputNode::Kind::Tensor, i, false, {}, {}, {} });
    }
    b.m_forwardRange = r.range(o, "forward_range");
    b.m_backwardRange = r.range(o, "backward_range");
    if (b.m_forwardRange && b.m_backwardRange && b.m_backwardRange->begin < b.m_forwardRange->end) {
        JsonPath::Scope scope(r.path(), "backward_range");
        r.error("[" + std::to_string(b.m_backwardRange->begin) + ", " + std::to_string(b.m_backwardRange->end)
            + "] starts before forward_range [" + std::to_string(b.m_forwardRange->begin) + ", "
            + std::to_string(b.m_forwardRange->end) + "] ends: the ranges overlap or are swapped");
    }
    if (std::optional<object> names = r.objectField(o, "train_names", false)) {
        JsonPath::Scope scope(r.path(), "train_names");
        const std::string &fake = b.m_fakeValueName;
        b.m_trainNames
            = TraceBundle::TrainNames { r.strings(*names, "x", fake), r.strings(*names, "param", fake),
                  r.strings(*names, "out", fake), r.strings(*names, "x_grad", fake),
                  r.strings(*names, "param_grad", fake), r.strings(*names, "out_grad", fake) };
        if (std::optional<array> stops = r.arrayField(*names, "out_stop_gradients", false)) {
            JsonPath::Scope list(r.path(), "out_stop_gradients");
            size_t i = 0;
            for (element e : *stops) {
                JsonPath::Scope item(r.path(), i++);
                bool v = false;
                if (e.get_bool().get(v) != simdjson::SUCCESS)
                    r.error("expected true or false");
                b.m_outStopGradients.push_back(v);
            }
        }
    }
    if (std::optional<object> backward = r.objectField(o, "backward", false)) {
        JsonPath::Scope scope(r.path(), "backward");
        if (std::optional<object> grads = r.objectField(*backward, "output_grads", false)) {
            JsonPath::Scope list(r.path(), "output_grads");
            for (const auto field : *grads) {
                JsonPath::Scope item(r.path(), field.key);
                std::string_view path;
                size_t index = 0;
                const auto [end, ec]
                    = std::from_chars(field.key.data(), field.key.data() + field.key.size(), index);
                if (ec != std::errc() || end != field.key.data() + field.key.size())
                    r.error("expected an output index as the key");
                else if (field.value.get_string().get(path) != simdjson::SUCCESS)
                    r.error("expected a string");
                else
                    b.m_outputGradFiles[index] = std::string(path);
            }
        }
    }
    if (std::optional<object> intermediates = r.objectField(o, "intermediates", false)) {
        JsonPath::Scope scope(r.path(), "intermediates");
        r.string(*intermediates, "program", b.m_intermediatesProgram, true);
        if (!b.m_intermediatesProgram.empty() && b.m_intermediatesProgram != "train_program"
            && b.m_intermediatesProgram != "infer_program") {
            JsonPath::Scope field(r.path(), "program");
            r.error(NumberText::quote(b.m_intermediatesProgram) + " is not train_program or infer_program");
        }
        forEachObject(r, *intermediates, "values", true, [&](const object &e, size_t) {
            TraceBundle::Intermediate v;
            r.index(e, "op_index", v.opIndex, true);
            r.index(e, "result_index", v.resultIndex, true);
            r.string(e, "op_name", v.opName);
            r.string(e, "file", v.file, true);
            b.m_intermediates.push_back(std::move(v));
        });
    }
    if (std::optional<object> files = r.objectField(o, "files", false)) {
        for (const auto field : *files) {
            std::string_view path;
            if (field.value.get_string().get(path) == simdjson::SUCCESS)
                b.m_files[std::string(field.key)] = std::string(path);
        }
    }
    return r.ok();
}

} // namespace ps
