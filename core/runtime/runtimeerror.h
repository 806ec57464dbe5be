#pragma once

#include <stdexcept>
#include <string>

namespace ps {

/// A kernel or the interpreter cannot go on: wrong shape, unsupported dtype or attribute,
/// missing input. The message names the problem; the interpreter adds the op and value.
class RuntimeError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// A device ran out of memory; `bytes` is the failed request.
class OutOfMemory : public RuntimeError
{
public:
    OutOfMemory(const std::string &what, size_t bytes)
        : RuntimeError(what)
        , m_bytes(bytes)
    {
    }
    size_t bytes() const { return m_bytes; }

private:
    size_t m_bytes;
};

} // namespace ps
