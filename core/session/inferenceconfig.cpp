#include "core/session/inferenceconfig.h"

#include "core/io/yamlreader.h"

#include <filesystem>
#include <functional>

namespace ps {
namespace {

/// A sequence of integers ([1, 3, 640, 640]), or nullopt.
std::optional<std::vector<int64_t>> integers(const YamlNode *node)
{
    if (!node || !node->isSequence() || node->items.empty())
        return std::nullopt;
    std::vector<int64_t> out;
    for (const YamlNode &item : node->items) {
        const std::optional<int64_t> v = item.integer();
        if (!v)
            return std::nullopt;
        out.push_back(*v);
    }
    return out;
}

/// An integer, or the first of a sequence of two (`size: 224` or `size: [224, 224]`).
std::optional<std::pair<int64_t, int64_t>> sizePair(const YamlNode *node)
{
    if (!node)
        return std::nullopt;
    if (std::optional<int64_t> n = node->integer())
        return std::make_pair(*n, *n);
    std::optional<std::vector<int64_t>> v = integers(node);
    if (v && v->size() == 2)
        return std::make_pair((*v)[0], (*v)[1]);
    return std::nullopt;
}

int64_t roundUp32(int64_t n)
{
    return std::max<int64_t>(32, (n + 31) / 32 * 32);
}

/// One preprocessing transform: its name and parameters, from either spelling (`{type: Resize,
/// target_size: ...}` or `{Resize: {target_size: ...}}`).
struct Transform
{
    std::string name;
    const YamlNode *params = nullptr;
};

std::optional<Transform> transformOf(const YamlNode &node)
{
    if (!node.isMapping() || node.entries.empty())
        return std::nullopt;
    if (const YamlNode *type = node.find("type"); type && type->kind == YamlNode::Kind::Scalar)
        return Transform { type->scalar, &node };
    if (node.entries.size() == 1)
        return Transform { node.entries[0].key, &node.entries[0].value };
    return std::nullopt;
}

/// The (height, width) a transform resizes or crops to, and the key it was read from.
std::optional<std::pair<std::pair<int64_t, int64_t>, std::string>> sizeOf(const Transform &t)
{
    const YamlNode *p = t.params;
    if (!p || !p->isMapping())
        return std::nullopt;
    auto hw = [](std::pair<int64_t, int64_t> v) { return v; };
    auto wh = [](std::pair<int64_t, int64_t> v) { return std::make_pair(v.second, v.first); };
    if (t.name == "RecResizeImg") {
        std::optional<std::vector<int64_t>> s = integers(p->find("image_shape"));
        if (s && s->size() == 3)
            return std::make_pair(std::make_pair((*s)[1], (*s)[2]), std::string("image_shape"));
        return std::nullopt;
    }
    if (t.name == "DetResizeForTest") {
        if (std::optional<std::vector<int64_t>> s = integers(p->find("image_shape")); s && s->size() == 2)
            return std::make_pair(std::make_pair((*s)[0], (*s)[1]), std::string("image_shape"));
        for (const char *key : { "resize_long", "limit_side_len" })
            if (const YamlNode *n = p->find(key))
                if (std::optional<int64_t> v = n->integer())
                    return std::make_pair(std::make_pair(roundUp32(*v), roundUp32(*v)), std::string(key));
        return std::nullopt;
    }
    if (t.name.find("Resize") != std::string::npos) {
        // PaddleDetection / PaddleSeg: target_size [h, w] (or n); PaddleClas ResizeImage: size
        // [w, h] (or n), resize_short n.
        if (std::optional<std::pair<int64_t, int64_t>> s = sizePair(p->find("target_size")))
            return std::make_pair(hw(*s), std::string("target_size"));
        if (std::optional<std::pair<int64_t, int64_t>> s = sizePair(p->find("size")))
            return std::make_pair(wh(*s), std::string("size"));
        if (std::optional<std::pair<int64_t, int64_t>> s = sizePair(p->find("resize_short")))
            return std::make_pair(hw(*s), std::string("resize_short"));
        return std::nullopt;
    }
    if (t.name == "CropImage" || t.name == "CenterCrop" || t.name == "CenterCropImage") {
        if (std::optional<std::pair<int64_t, int64_t>> s = sizePair(p->find("size")))
            return std::make_pair(wh(*s), std::string("size"));
    }
    return std::nullopt;
}

std::optional<InferenceConfig::ImageSize> imageSizeOf(const YamlNode &root)
{
    struct List
    {
        const YamlNode *node;
        std::string where;
    };
    std::vector<List> lists;
    if (const YamlNode *p = root.find("Preprocess"))
        lists.push_back({ p, "Preprocess" });
    if (const YamlNode *p = root.find("PreProcess"))
        lists.push_back({ p->find("transform_ops"), "PreProcess.transform_ops" });
    if (const YamlNode *d = root.find("Deploy"))
        lists.push_back({ d->find("transforms"), "Deploy.transforms" });
    for (const List &list : lists) {
        if (!list.node || !list.node->isSequence())
            continue;
        std::optional<InferenceConfig::ImageSize> size;
        for (size_t i = 0; i < list.node->items.size(); ++i) {
            const std::optional<Transform> t = transformOf(list.node->items[i]);
            if (!t)
                continue;
            if (auto s = sizeOf(*t); s && s->first.first > 0 && s->first.second > 0)
                size = InferenceConfig::ImageSize { s->first.first, s->first.second,
                    list.where + "[" + std::to_string(i) + "]." + t->name + "." + s->second };
        }
        if (size)
            return size;
    }
    return std::nullopt;
}

} // namespace

InferenceConfig InferenceConfig::fromYaml(
    const YamlNode &root, const std::string &path, DiagnosticList &diagnostics)
{
    InferenceConfig config;
    config.path = path;
    if (const YamlNode *global = root.find("Global"))
        if (const YamlNode *name = global->find("model_name"); name && name->kind == YamlNode::Kind::Scalar)
            config.modelName = name->scalar;
    // Every `trt_dynamic_shapes` / `dynamic_shapes` mapping: input name → [min, opt, max]. The
    // first one found wins for a name (paddle_infer comes before tensorrt in PaddleX's files).
    std::function<void(const YamlNode &, const std::string &)> search = [&](const YamlNode &node,
                                                                            const std::string &where) {
        if (!node.isMapping())
            return;
        for (const auto &[key, value] : node.entries) {
            const std::string at = where.empty() ? key : where + "." + key;
            if ((key == "trt_dynamic_shapes" || key == "dynamic_shapes") && value.isMapping()) {
                for (const auto &[input, ranges] : value.entries) {
                    std::vector<std::vector<int64_t>> shapes;
                    if (ranges.isSequence())
                        for (const YamlNode &r : ranges.items)
                            if (std::optional<std::vector<int64_t>> s = integers(&r))
                                shapes.push_back(*s);
                    if (shapes.size() != 3 || shapes[0].size() != shapes[1].size()
                        || shapes[1].size() != shapes[2].size()) {
                        diagnostics.warning(SourceLocation { path, ranges.line, 0, {}, -1 },
                            at + "." + input + ": expected [min, opt, max] shapes of one rank; ignored");
                        continue;
                    }
                    config.dynamicShapes.try_emplace(
                        input, ShapeRange { shapes[0], shapes[1], shapes[2], at + "." + input });
                }
                continue;
            }
            search(value, at);
        }
    };
    search(root, "");
    config.imageSize = imageSizeOf(root);
    return config;
}

std::string InferenceConfig::fileNextTo(const std::string &programPath)
{
    if (programPath.empty())
        return {};
    std::error_code ec;
    for (const char *extension : { ".yml", ".yaml" }) {
        std::filesystem::path candidate(programPath);
        candidate.replace_extension(extension);
        if (std::filesystem::is_regular_file(candidate, ec))
            return candidate.string();
    }
    return {};
}

std::shared_ptr<const InferenceConfig> InferenceConfig::nextTo(
    const std::string &programPath, DiagnosticList &diagnostics)
{
    const std::string file = fileNextTo(programPath);
    if (file.empty())
        return nullptr;
    std::optional<YamlNode> root = YamlReader::read(file, diagnostics);
    if (!root)
        return nullptr;
    return std::make_shared<const InferenceConfig>(fromYaml(*root, file, diagnostics));
}

} // namespace ps
