#include "app/allocatortuning.h"
#include "commands.h"
#include "globaloptions.h"

#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

namespace {

struct Command
{
    const char *name;
    int (*run)(const std::vector<std::string> &);
    const char *usage;
};

const Command kCommands[] = {
    { "info", runInfo, "info FILE [--json]            op counts, inputs, parameters, outputs" },
    { "print", runPrint,
        "print FILE [--gen B|C]        print as PIR text (current generation C by default)" },
    { "names", runNames,
        "names FILE [--json]           the value-name map (data, parameter, shadow_output, ...)" },
    { "inplace", runInplace,
        "inplace FILE [--json]         inplace union-find groups and shadow-output renames" },
    { "dot", runDot, "dot FILE                      DOT text of what the graph view draws" },
    { "verify", runVerify,
        "verify FILE                   structural checks (undefined values, arity, regions)" },
    { "memory", runMemory,
        "memory FILE|BUNDLE [--mode train|infer] [--json]  bytes alive op by op as Paddle's executor "
        "allocates them" },
    { "reduce", runReduce,
        "reduce BUNDLE --out DIR [--op train:N]  the smallest bundle that still shows a divergence" },
    { "bench", runBench,
        "bench load FILE [--json]      load throughput against simdjson's bare parse\n"
        "  bench pipeline [--ops N]      backward + split of a generated training program\n"
        "  bench run FILE|BUNDLE         interpreter time per op and per run\n"
        "  bench open FILE|BUNDLE        open and build the pipeline, as the GUI does\n"
        "  bench layout FILE|--ops N     graph layout: first view, whole graph (GUI build)\n"
        "  bench passlog [LOG] [--mb N]  open a (generated) pass log against reading it\n"
        "  bench runlog [--records N]    index and match a (generated) Paddle run log\n"
        "  bench memory [--ops N]        the memory model of a generated train step\n"
        "  bench graph [--ops N]         the graph model of generated programs of N/5 and N ops" },
    { "render", runRender,
        "render FILE --out G.svg|G.png  the whole graph as a picture [--layer NAME] [--select OP] (GUI "
        "build)" },
    { "split", runSplit,
        "split FILE|BUNDLE [--json]     split_program: forward/backward ops, the 12 lists, middles" },
    { "compare", runCompare,
        "compare A B [--json]          structural equality (exit 0 equal, 1 different, 2 error)" },
    { "passes", runPasses,
        "passes FILE [--pipeline NAME] [--enable a,b] [--check-numerics] [--json]  what each pass changes "
        "(--list)" },
    { "passlog", runPassLog,
        "passlog LOG|DIR [--json] [--step N [--print diff|before|after]]  a Paddle pass log as steps" },
    { "run", runRun,
        "run FILE|BUNDLE [--device cpu|cuda] [--inputs DIR] [--params FILE|DIR] [--shape NAME=DIMS] [--dump "
        "DIR] "
        "[--check-nan]" },
};

int usage(std::ostream &out)
{
    out << "usage: pirscope-cli COMMAND ARGS...\n\ncommands:\n";
    for (const Command &c : kCommands)
        out << "  " << c.usage << "\n";
    out << "\nFILE is PIR JSON (paddle.jit.save) or PIR text (print(program), any generation).\n";
    out << "Every command takes --max-memory SIZE (4G, 512M, 75%; default 75% of the available memory): the "
           "host-memory budget.\n";
    out << "Commands that run a program take --max-ops N: a run stops with an error before its op N+1.\n";
    return 1;
}

} // namespace

int main(int argc, char **argv)
{
    tuneAllocator();
    if (argc < 2)
        return usage(std::cerr);
    const std::string name = argv[1];
    if (name == "-h" || name == "--help" || name == "help") {
        usage(std::cout);
        return 0;
    }
    std::vector<std::string> args(argv + 2, argv + argc);
    const bool runs = name == "run" || name == "verify" || name == "passes" || name == "memory"
        || name == "reduce" || name == "bench";
    if (std::string error; !applyGlobalOptions(args, runs, error))
        return cliError(error);
    for (const Command &c : kCommands) {
        if (name == c.name) {
            try {
                return c.run(args);
            } catch (const std::exception &e) {
                return cliError(std::string("internal error: ") + e.what());
            }
        }
    }
    std::cerr << "error: unknown command '" << name << "'\n";
    return usage(std::cerr);
}
