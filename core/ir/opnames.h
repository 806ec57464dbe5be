#pragma once

#include <string_view>

namespace ps {

/// Interns an op name process-wide; the returned view stays valid until exit. Thread-safe,
/// one hash lookup.
std::string_view internOpName(std::string_view name);

} // namespace ps
