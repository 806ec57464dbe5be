#pragma once

#include <cstddef>

namespace ps {

class Program;

/// Applies Paddle's PIR serialization upgrade patches (`serialize_deserialize/patch/2.yaml`,
/// `3.yaml`, `4.yaml`) to a program read from an older file, on the IR, so that a version 1
/// file and the same program saved as version 3 or 4 load into equal IR.
///
/// Like Paddle (`PatchBuilder::BuildPatch`), patch v is applied when v >= the file version;
/// every action is idempotent (conversions of attributes that already have the new kind and
/// additions of attributes or results that exist are no-ops). O(#ops).
class PirJsonUpgrader
{
public:
    /// The newest serialization version the reader accepts.
    static constexpr int kLatestVersion = 6;
    /// The newest version for which patches are known (4.yaml).
    static constexpr int kLatestPatch = 4;

    /// Returns the number of ops that were changed.
    static size_t upgrade(Program &program, int fileVersion);
};

} // namespace ps
