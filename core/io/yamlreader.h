#pragma once

#include "core/io/yamlnode.h"
#include "core/ir/diagnostic.h"

#include <optional>
#include <string>
#include <string_view>

namespace ps {

/// Reads the YAML that PaddleX / PaddleOCR / PaddleDetection write beside an inference model
/// (`inference.yml`, PyYAML's block style) and the usual hand-written forms: block mappings and
/// sequences (a sequence may sit at its key's indentation, `- - 1` nests), plain, single- and
/// double-quoted scalars, single-line flow collections (`[1, 3, 640, 640]`, `{a: 1}`), anchors
/// and aliases (`&id001` / `*id001`), literal and folded block scalars, comments, and a leading
/// `---` (only the first document is read). Tags, complex keys (`? `), multi-line flow
/// collections and tab indentation are refused with an error at file:line:col. O(bytes).
class YamlReader
{
public:
    /// Nullopt with the error in `diagnostics`.
    static std::optional<YamlNode> parse(
        std::string_view text, const std::string &file, DiagnosticList &diagnostics);
    /// Reads and parses the file at `path`.
    static std::optional<YamlNode> read(const std::string &path, DiagnosticList &diagnostics);
};

} // namespace ps
