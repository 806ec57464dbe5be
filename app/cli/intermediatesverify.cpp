#include "intermediatesverify.h"

#include "commands.h"
#include "core/io/jsonemitter.h"
#include "core/io/tracebundle.h"
#include "runsource.h"

#include <iomanip>
#include <iostream>
#include <sstream>

namespace {

std::string opLabel(const ps::IntermediateDifference &d, const std::string &program)
{
    return (program == "train_program" ? "train:" : "infer:") + std::to_string(d.opIndex);
}

void writeDifference(ps::JsonEmitter &json, const ps::IntermediateDifference &d, const std::string &program)
{
    json.beginObject();
    json.key("op").value(opLabel(d, program));
    json.key("part").value(d.part);
    json.key("split_op").value(d.splitOp);
    json.key("op_name").value(d.opName);
    json.key("value").value(d.valueId);
    json.key("result").value(uint64_t(d.resultIndex));
    json.key("max_abs").value(d.maxAbs);
    json.key("max_rel").value(d.maxRel);
    json.key("error").value(d.error);
    json.key("worst_index").value(d.worstIndex);
    json.key("mismatches").value(d.mismatches);
    json.key("operands_already_differed").value(d.operandsAlreadyDiffered);
    if (!d.problem.empty())
        json.key("problem").value(d.problem);
    json.endObject();
}

std::string describe(const ps::IntermediateDifference &d, const std::string &program)
{
    std::ostringstream out;
    out << opLabel(d, program);
    if (!d.part.empty())
        out << " (" << d.part << (d.splitOp.empty() ? "" : ", " + d.splitOp) << ")";
    out << " " << d.opName << " " << d.valueId << ": ";
    if (!d.problem.empty())
        out << d.problem;
    else
        out << d.mismatches << " element(s) beyond tolerance, max abs " << std::setprecision(4) << d.maxAbs
            << ", max rel " << d.maxRel << ", worst at " << d.worstIndex;
    if (d.operandsAlreadyDiffered)
        out << " (its operands already differed)";
    return out.str();
}

} // namespace

int verifyIntermediates(const RunSource &source, const ps::DebugSources &sources,
    ps::IntermediatesCheck::Tolerance tolerance, bool isolate, bool json)
{
    if (!source.bundle())
        return cliError("--intermediates needs a trace bundle with Paddle's intermediate values");
    std::string error;
    ps::ProgramRunner::Options options;
    std::vector<ps::InputShape> shapes;
    ps::IntermediatesReport report;
    if (!source.runOptions(sources, options, shapes, error)
        || !ps::IntermediatesCheck::run(
            *source.bundle(), options, tolerance, isolate, report, error, source.target.pipeline.get()))
        return cliError(error);
    const bool ok = !report.firstDivergent && !report.firstIsolatedDivergent && report.compared > 0;
    if (json) {
        ps::JsonEmitter out(std::cout, ps::JsonEmitter::Format::Report);
        out.beginObject().key("file").value(source.path).key("intermediates").beginObject();
        out.key("program").value(report.program);
        out.key("values").value(uint64_t(report.values)).key("compared").value(uint64_t(report.compared));
        out.key("not_computed")
            .value(uint64_t(report.notComputed))
            .key("divergent")
            .value(uint64_t(report.divergent));
        if (!report.runProblem.empty())
            out.key("run_problem").value(report.runProblem);
        out.key("first_divergent");
        if (report.firstDivergent)
            writeDifference(out, *report.firstDivergent, report.program);
        else
            out.null();
        out.key("worst").beginArray();
        for (const ps::IntermediateDifference &d : report.worst)
            writeDifference(out, d, report.program);
        out.endArray();
        if (report.isolated) {
            out.key("isolated").beginObject();
            out.key("compared").value(uint64_t(report.isolatedCompared));
            out.key("divergent").value(uint64_t(report.isolatedDivergent));
            out.key("first_divergent");
            if (report.firstIsolatedDivergent)
                writeDifference(out, *report.firstIsolatedDivergent, report.program);
            else
                out.null();
            out.key("not_isolated").beginObject();
            for (const auto &[reason, n] : report.notIsolated)
                out.key(reason).value(uint64_t(n));
            out.endObject().endObject();
        }
        out.endObject().key("ok").value(ok).endObject();
        out.finish();
        return ok ? 0 : 1;
    }
    std::cout << "intermediates of " << report.program << ": " << report.values << " Paddle values, "
              << report.compared << " compared with PIRScope's CPU run";
    if (report.notComputed)
        std::cout << ", " << report.notComputed << " not computed";
    std::cout << ", " << report.divergent << " beyond tolerance (rtol " << tolerance.rtol << ", atol "
              << tolerance.atol << ")\n";
    if (!report.runProblem.empty())
        std::cout << "  PIRScope's run stopped: " << report.runProblem << "\n";
    std::cout << "first divergent: "
              << (report.firstDivergent ? describe(*report.firstDivergent, report.program)
                                        : std::string("none"))
              << "\n";
    if (!report.worst.empty())
        std::cout << "worst " << report.worst.size() << ":\n";
    for (const ps::IntermediateDifference &d : report.worst)
        std::cout << "  " << describe(d, report.program) << "\n";
    if (report.isolated) {
        std::cout << "isolated (each op on Paddle's operands): " << report.isolatedCompared << " compared, "
                  << report.isolatedDivergent << " differ; first: "
                  << (report.firstIsolatedDivergent ? describe(*report.firstIsolatedDivergent, report.program)
                                                    : std::string("none"))
                  << "\n";
        for (const auto &[reason, n] : report.notIsolated)
            std::cout << "  not isolated: " << n << " x " << reason << "\n";
    }
    std::cout << (ok ? "intermediates: ok\n" : "intermediates: FAILED\n");
    return ok ? 0 : 1;
}
