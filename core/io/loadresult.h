#pragma once

#include "core/ir/diagnostic.h"
#include "core/ir/program.h"

#include <memory>
#include <string>

namespace ps {

/// The outcome of reading a program: the program (null when reading failed outright) and
/// every diagnostic. Readers never throw and never abort.
struct LoadResult
{
    enum class Format { Unknown, PirJson, PirText };
    std::unique_ptr<Program> program;
    DiagnosticList diagnostics;
    Format format = Format::Unknown;

    bool ok() const { return program != nullptr && !diagnostics.hasErrors(); }
};

} // namespace ps
