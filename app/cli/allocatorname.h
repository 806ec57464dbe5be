#pragma once

#include <string>

/// The malloc this executable runs with ("mimalloc 2.0.9" or "glibc malloc"): benchmark figures of
/// IR-heavy work depend on it.
std::string allocatorName();
