#pragma once

#include "core/transform/passinstrumentation.h"

#include <iosfwd>

namespace ps {

/// An instrumentation that prints the program before and/or after each pass the way Paddle's
/// `IRPrinting` instrumentation does (`FLAGS_print_ir`, `PassManager.enable_ir_printing()`):
/// a banner of `===-...-===` around `        IRPrinting on builtin.module before NAME pass`,
/// the program, and two blank lines. So PIRScope's pass dumps read like Paddle's logs (and
/// open in the same log reader). Passes that are not implemented print no program.
class PassIrPrinter : public PassInstrumentation
{
public:
    explicit PassIrPrinter(std::ostream &out, bool before = true, bool after = true)
        : m_out(out)
        , m_before(before)
        , m_after(after)
    {
    }
    void runBeforePass(const Pass &pass, const Program &program, std::string_view target) override;
    void runAfterPass(const Pass &pass, const Program &program, const PassRecord &record) override;

    /// Paddle's banner for `header` (three lines, each ending in a newline).
    static std::string banner(std::string_view header);

private:
    void print(const Pass &pass, const Program &program, const char *when);

    std::ostream &m_out;
    bool m_before;
    bool m_after;
};

} // namespace ps
