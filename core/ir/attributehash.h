#pragma once

#include <cstddef>

namespace ps {

class Attribute;

/// Mixes `value` into `seed` (boost::hash_combine's formula).
size_t hashCombine(size_t seed, size_t value);
/// A hash consistent with Attribute::operator== (types hash by their interned identity).
size_t hashAttribute(const Attribute &a);

} // namespace ps
