#include "core/session/inputshapes.h"

#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/staticdims.h"
#include "core/runtime/imagetensor.h"
#include "core/session/inferenceconfig.h"

#include <algorithm>
#include <charconv>
#include <filesystem>

namespace ps {

bool InputShape::dynamic() const
{
    return std::any_of(declared.begin(), declared.end(), [](int64_t d) { return d < 0; });
}

bool InputShape::shapesRun() const
{
    return origin == Origin::Chosen || origin == Origin::ConfigShapes || origin == Origin::ConfigImage
        || origin == Origin::Batch;
}

const char *InputShape::originKey(Origin origin)
{
    switch (origin) {
    case Origin::Static:
        return "static";
    case Origin::Chosen:
        return "option";
    case Origin::ConfigShapes:
        return "yml";
    case Origin::ConfigImage:
        return "yml_preprocess";
    case Origin::Batch:
        return "batch";
    case Origin::Files:
        return "files";
    case Origin::Image:
        return "image";
    case Origin::Unresolved:
        break;
    }
    return "unresolved";
}

const char *InputShape::originText(Origin origin)
{
    switch (origin) {
    case Origin::Static:
        return "static";
    case Origin::Chosen:
        return "--shape";
    case Origin::ConfigShapes:
        return ".yml";
    case Origin::ConfigImage:
        return ".yml preprocessing";
    case Origin::Batch:
        return "batch 1";
    case Origin::Files:
        return "files";
    case Origin::Image:
        return "image size";
    case Origin::Unresolved:
        break;
    }
    return "needs a shape";
}

namespace {

/// Why `shape` cannot stand for `declared`, or "".
std::string mismatch(const std::vector<int64_t> &declared, const std::vector<int64_t> &shape)
{
    if (shape.size() != declared.size())
        return "rank " + std::to_string(shape.size()) + ", the input has rank "
            + std::to_string(declared.size()) + " (" + InputShapes::dimsText(declared) + ")";
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] <= 0)
            return "dim " + std::to_string(i) + " is " + std::to_string(shape[i]) + "; dims must be positive";
        if (declared[i] >= 0 && declared[i] != shape[i])
            return "dim " + std::to_string(i) + " is " + std::to_string(shape[i]) + ", the input declares "
                + std::to_string(declared[i]) + " (" + InputShapes::dimsText(declared) + ")";
    }
    return {};
}

std::string fileName(const std::string &path)
{
    return std::filesystem::path(path).filename().string();
}

} // namespace

std::vector<InputShape> InputShapes::resolve(const Program &program,
    const std::map<std::string, std::vector<int64_t>> &chosen, const InferenceConfig *config,
    std::vector<std::string> &errors)
{
    std::vector<InputShape> out;
    for (const Operation *op : program.block().ops()) {
        if ((!ops::isData(*op) && !ops::isFeed(*op)) || op->numResults() != 1)
            continue;
        const Type type = op->result(0).type();
        if (!type || type.kind() != Type::Kind::DenseTensor)
            continue;
        InputShape s;
        s.name = op->stringAttribute("name");
        s.declared = type.dims();
        s.shape = s.declared;
        std::string why;
        const std::optional<ImageTensor::Layout> layout = ImageTensor::layoutOf(type, why);
        s.imageLike = layout.has_value();
        if (layout)
            s.channelDim = *layout == ImageTensor::Layout::NCHW ? 1 : 3;
        out.push_back(std::move(s));
    }
    for (const auto &entry : chosen) {
        const std::string &name = entry.first; // clang 14 cannot capture a structured binding
        if (std::none_of(out.begin(), out.end(), [&](const InputShape &s) { return s.name == name; })) {
            std::string names;
            for (const InputShape &s : out)
                names += (names.empty() ? "" : ", ") + s.name;
            errors.push_back(name + ": the program has no input of that name (inputs: "
                + (names.empty() ? std::string("none") : names) + ")");
        }
    }

    for (InputShape &s : out) {
        if (auto it = chosen.find(s.name); it != chosen.end()) {
            const std::string why = mismatch(s.declared, it->second);
            if (why.empty()) {
                s.shape = it->second;
                s.origin = InputShape::Origin::Chosen;
                continue;
            }
            errors.push_back(s.name + "=" + dimsText(it->second) + ": " + why);
        }
        if (!s.dynamic())
            continue;
        // A `.yml` shape that cannot stand for the input is not used, and the note says why.
        std::string unusable;
        const auto noteUnusable = [&s, &unusable] {
            if (!unusable.empty())
                s.note += (s.note.empty() ? "" : "; ") + unusable;
        };
        if (config) {
            if (auto it = config->dynamicShapes.find(s.name); it != config->dynamicShapes.end()) {
                const std::string why = mismatch(s.declared, it->second.opt);
                if (why.empty()) {
                    s.shape = it->second.opt;
                    s.origin = InputShape::Origin::ConfigShapes;
                    s.note = fileName(config->path) + ": " + it->second.where + " (opt of min/opt/max)";
                    continue;
                }
                unusable = fileName(config->path) + "'s " + dimsText(it->second.opt) + " (" + it->second.where
                    + ") is not used: " + why;
            }
            if (s.imageLike && config->imageSize) {
                const bool nchw = s.channelDim == 1;
                std::vector<int64_t> shape = s.declared;
                int64_t &n = shape[0];
                int64_t &c = shape[nchw ? 1 : 3];
                int64_t &h = shape[nchw ? 2 : 1];
                int64_t &w = shape[nchw ? 3 : 2];
                n = n < 0 ? 1 : n;
                c = c < 0 ? 3 : c;
                h = h < 0 ? config->imageSize->height : h;
                w = w < 0 ? config->imageSize->width : w;
                s.shape = shape;
                s.origin = InputShape::Origin::ConfigImage;
                s.note = fileName(config->path) + ": " + config->imageSize->where;
                noteUnusable();
                continue;
            }
        }
        const bool batchOnly = s.declared[0] < 0
            && std::all_of(s.declared.begin() + 1, s.declared.end(), [](int64_t d) { return d >= 0; });
        if (batchOnly) {
            s.shape[0] = 1;
            s.origin = InputShape::Origin::Batch;
            noteUnusable();
            continue;
        }
        s.origin = InputShape::Origin::Unresolved;
        s.note = !unusable.empty() ? unusable
            : config               ? fileName(config->path) + " gives no shape for it"
                                   : "no .yml beside the program gives a default";
    }
    return out;
}

std::optional<std::vector<int64_t>> InputShapes::parseDims(std::string_view text, std::string &error)
{
    std::vector<int64_t> dims;
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t end = text.find_first_of("x,X", pos);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view part = text.substr(pos, end - pos);
        int64_t v = 0;
        const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
        if (part.empty() || ec != std::errc() || ptr != part.data() + part.size() || v <= 0) {
            error = "'" + std::string(text) + "' is not a shape: expected positive dims such as 1x3x640x640";
            return std::nullopt;
        }
        dims.push_back(v);
        pos = end + 1;
    }
    return dims;
}

std::optional<std::pair<std::string, std::vector<int64_t>>> InputShapes::parseAssignment(
    std::string_view text, std::string &error)
{
    const size_t eq = text.rfind('=');
    if (eq == std::string_view::npos || eq == 0) {
        error = "'" + std::string(text) + "': expected NAME=DIMS such as x=1x3x640x640";
        return std::nullopt;
    }
    std::optional<std::vector<int64_t>> dims = parseDims(text.substr(eq + 1), error);
    if (!dims)
        return std::nullopt;
    return std::make_pair(std::string(text.substr(0, eq)), std::move(*dims));
}

std::string InputShapes::dimsText(const std::vector<int64_t> &dims)
{
    std::string out;
    for (size_t i = 0; i < dims.size(); ++i)
        out += (i ? "x" : "") + (dims[i] < 0 ? std::string("?") : std::to_string(dims[i]));
    return out.empty() ? std::string("scalar") : out;
}

std::string InputShapes::example(const InputShape &shape)
{
    std::string out;
    for (size_t i = 0; i < shape.shape.size(); ++i) {
        const int64_t d = shape.shape[i];
        out += i ? "x" : "";
        out += d >= 0                    ? std::to_string(d)
            : i == 0                     ? std::string("1")
            : int(i) == shape.channelDim ? std::string("3")
            : shape.imageLike            ? std::string("640")
                                         : std::string("N");
    }
    return shape.name + "=" + out;
}

std::string InputShapes::unresolvedText(const std::vector<InputShape> &shapes)
{
    std::string out;
    for (const InputShape &s : shapes)
        if (!s.resolved())
            out += (out.empty() ? "" : ", ") + s.name + " (" + dimsText(s.declared) + ")";
    return out;
}

} // namespace ps
