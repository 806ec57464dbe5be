#include "core/transform/passirprinter.h"

#include "core/ir/pirprinter.h"
#include "core/transform/pass.h"
#include "core/transform/passrecord.h"

#include <ostream>
#include <string>

namespace ps {

std::string PassIrPrinter::banner(std::string_view header)
{
    // Paddle pads the header by 8 spaces and makes the rule 10 dashes longer than it.
    const std::string rule = "===" + std::string(header.size() + 10, '-') + "===\n";
    return rule + std::string(8, ' ') + std::string(header) + "\n" + rule;
}

void PassIrPrinter::print(const Pass &pass, const Program &program, const char *when)
{
    m_out << banner(
        "IRPrinting on builtin.module " + std::string(when) + " " + std::string(pass.name()) + " pass");
    PirPrinter::print(program, m_out);
    m_out << "\n\n";
    m_out.flush();
}

void PassIrPrinter::runBeforePass(const Pass &pass, const Program &program, std::string_view)
{
    if (m_before && pass.implemented())
        print(pass, program, "before");
}

void PassIrPrinter::runAfterPass(const Pass &pass, const Program &program, const PassRecord &)
{
    if (m_after && pass.implemented())
        print(pass, program, "after");
}

} // namespace ps
