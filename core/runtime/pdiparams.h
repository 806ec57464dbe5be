#pragma once

#include "core/runtime/tensor.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

class Program;

/// Paddle's combined parameter file (`*.pdiparams`, written by `paddle.jit.save` through
/// save_combine): the program's parameters as serialized LoDTensors, one after another, in the
/// order of their names sorted byte-wise (Python's `sorted`; checked against Paddle 3.3.1).
///
/// Byte layout of one tensor (all integers little-endian):
///   uint32  LoDTensor version (0)
///   uint64  LoD level count L, then L times: uint64 byte size n, n bytes of uint64 offsets
///   uint32  tensor version (0)
///   int32   size s of the TensorDesc protobuf, then s bytes of it: field 1 `data_type` (varint,
///           VarType.Type: BOOL 0, INT16 1, INT32 2, INT64 3, FP16 4, FP32 5, FP64 6, UINT8 20,
///           INT8 21, BF16 22), field 2 `dims` (int64, repeated; packed or not)
///   raw data: product(dims) * element size bytes, row-major
/// The file ends right after the last tensor. Errors name the file, the byte offset and the
/// tensor (its parameter name when known).
class Pdiparams
{
public:
    struct Entry
    {
        /// Empty when read without names.
        std::string name;
        Tensor tensor;
        /// Byte offset of the tensor's record in the file.
        uint64_t offset = 0;
    };

    /// Every tensor in file order; empty with `error` set on failure.
    static std::vector<Entry> read(const std::string &path, std::string &error);
    /// The tensors named by `sortedNames` (the count must match).
    static std::vector<Entry> read(
        const std::string &path, const std::vector<std::string> &sortedNames, std::string &error);
    /// `what` names the buffer in messages (usually the path).
    static std::vector<Entry> readBuffer(std::string_view bytes, const std::string &what,
        const std::vector<std::string> *sortedNames, std::string &error);

    /// The distinct `parameter_name`s of the program's `builtin.parameter` ops (nested blocks
    /// included), sorted: the order jit.save writes them.
    static std::vector<std::string> parameterNames(const Program &program);
    /// Reads `path` for `program`: names from parameterNames(), and each tensor's dtype and shape
    /// checked against the parameter's declared type (-1 dims match anything).
    static std::map<std::string, Tensor> readForProgram(
        const std::string &path, const Program &program, std::string &error);

    /// Serializes tensors in this layout (host tensors; for tests and tools).
    static std::string toBuffer(const std::vector<Tensor> &tensors);
};

} // namespace ps
