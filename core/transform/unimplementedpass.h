#pragma once

#include "core/transform/pass.h"

#include <string>

namespace ps {

/// A pass of one of Paddle's pipelines that PIRScope does not implement: it keeps its place in
/// the pipeline so the pass list shows it, clearly marked, instead of dropping it silently.
/// `reason` says why (e.g. "a CINN pass", "GPU-only kernel choice").
class UnimplementedPass : public Pass
{
public:
    UnimplementedPass(std::string name, std::string reason)
        : m_name(std::move(name))
        , m_reason("not implemented in PIRScope: " + std::move(reason))
    {
    }
    std::string_view name() const override { return m_name; }
    std::string_view alias() const override { return m_name; }
    std::string_view description() const override { return m_reason; }
    size_t run(Program &) override { return 0; }
    bool implemented() const override { return false; }

private:
    std::string m_name;
    std::string m_reason;
};

} // namespace ps
