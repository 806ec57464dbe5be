#pragma once

#include "core/ir/arena.h"
#include "core/ir/region.h"

#include <memory>
#include <optional>
#include <vector>

namespace ps {

class Block;
class Operation;
class IrMapping;

/// A PIR program: the body of Paddle's `builtin.module`, i.e. one region with one top-level
/// block. Owns every op, value and nested region through its Arena.
class Program
{
public:
    Program();
    Program(const Program &) = delete;
    Program &operator=(const Program &) = delete;
    ~Program();

    Block &block() const { return m_region->block(0); }
    Region &region() const { return *m_region; }
    Arena &arena() { return m_arena; }

    /// PIR JSON `base_code.version` when read from JSON.
    std::optional<int> serializationVersion;
    /// PIR JSON `base_code.trainable` (true unless a file says otherwise).
    bool trainable = true;

    /// Number of top-level ops.
    size_t numOps() const;
    /// Number of ops including those nested in regions.
    size_t numOpsTotal() const;
    /// Every op, nested ones included, in pre-order (an op before the ops of its regions).
    std::vector<const Operation *> allOps() const;
    /// Op results plus block arguments and kwargs, nested regions included.
    size_t numValues() const;

    /// Deep copy. When `mapping` is given it receives old → new for every value.
    std::unique_ptr<Program> clone(IrMapping *mapping = nullptr) const;

private:
    Arena m_arena; // declared first: destroyed after the region that points into it
    std::unique_ptr<Region> m_region;
};

} // namespace ps
