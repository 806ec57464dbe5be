#include "cliarguments.h"
#include "commands.h"
#include "core/graph/graphbuilder.h"
#include "core/graph/groupexpansion.h"
#include "core/io/memorybudget.h"
#include "core/io/numbertext.h"
#include "core/ir/program.h"
#include "core/runtime/opreference.h"
#include "renderapp.h"
#include "ui/render/graphexporter.h"
#include "ui/render/graphvizlayout.h"

#include <QString>
#include <iostream>

namespace {

const char *const kUsage
    = "usage: pirscope-cli render FILE --out GRAPH.svg|GRAPH.png [--layer NAME] [--select OP] "
      "[--collapsed] [--dark] [--scale S]";

/// The group `--layer` names, or -1 with `error` set.
int resolveLayer(const ps::GraphModel &model, const std::string &name, std::string &error)
{
    const std::vector<int> found = model.groupsNamed(name);
    if (found.size() == 1)
        return found.front();
    if (found.empty()) {
        error = "no layer named '" + name + "'; the top-level layers are:";
        for (int g : model.topGroups)
            error += " " + model.groups[size_t(g)].path;
        if (model.topGroups.empty())
            error += " (none: the program has no struct_name layers)";
        return -1;
    }
    error = "'" + name + "' names " + std::to_string(found.size()) + " layers; give one's path:";
    for (size_t i = 0; i < found.size() && i < 8; ++i)
        error += " " + model.groups[size_t(found[i])].path;
    if (found.size() > 8)
        error += " ...";
    return -1;
}

/// The node of the op `--select` names (an op drawn only as ghosts: its first chip), or -1.
int selectNode(
    const ps::Program &program, const ps::GraphModel &model, const std::string &text, std::string &error)
{
    const std::optional<ps::ProgramPosition> position = ps::OpReference::resolve({ &program }, text, error);
    if (!position)
        return -1;
    const ps::Operation *op = position->resolve(program);
    int node = model.nodeOf(op);
    if (node < 0)
        if (auto it = model.ghostsOfOp.find(op); it != model.ghostsOfOp.end())
            node = it->second;
    if (node < 0)
        error = "the op at " + position->toString() + " is not drawn (an unused value's producer)";
    return node;
}

} // namespace

int runRender(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "collapsed", "dark" }, { "out", "layer", "select", "scale" }, error))
        return cliError(error);
    if (cli.positional().size() != 1 || !cli.option("out"))
        return cliError(kUsage);
    const QString out = QString::fromStdString(*cli.option("out"));
    const bool svg = out.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive);
    if (!svg && !out.endsWith(QLatin1String(".png"), Qt::CaseInsensitive))
        return cliError("--out must end in .svg or .png, got '" + out.toStdString() + "'");
    double scale = 1.5;
    if (auto s = cli.option("scale")) {
        std::string why;
        const std::optional<double> parsed = ps::NumberText::parseFinite(*s, 0, 8, why);
        if (!parsed || *parsed <= 0)
            return cliError("--scale must be a number in (0, 8], got " + ps::NumberText::quote(*s));
        scale = *parsed;
    }
    std::unique_ptr<ps::Program> program = loadForCli(cli.positional()[0]);
    if (!program)
        return 1;
    // The graph model and the layouts of a whole graph hold about this much per op (a 20,000-op
    // train program's whole layout: 140 MB): refused before they are built, not by bad_alloc.
    constexpr uint64_t kBytesPerOp = 8 << 10;
    if (const uint64_t ops = program->numOpsTotal(); !ps::MemoryBudget::fits(ops * kBytesPerOp, error))
        return cliError("render: drawing " + std::to_string(ops) + " ops " + error
            + " (the host-memory budget; --max-memory, or --layer NAME for one layer)");
    RenderApp::ensure();
    auto model = std::make_shared<const ps::GraphModel>(ps::GraphBuilder().build(*program));
    int root = -1;
    if (auto layer = cli.option("layer")) {
        root = resolveLayer(*model, *layer, error);
        if (root < 0)
            return cliError("--layer: " + error);
    }
    ps::GroupExpansion expansion
        = cli.flag("collapsed") ? ps::GroupExpansion::defaults(*model) : ps::GroupExpansion::all(*model);
    ps::GraphExporter::Decorations decorations;
    if (auto select = cli.option("select")) {
        const int node = selectNode(*program, *model, *select, error);
        if (node < 0)
            return cliError("--select: " + error);
        if (root >= 0 && !model->groupWithin(model->nodes[size_t(node)].group, root))
            return cliError("--select: the op is not inside the layer given by --layer");
        expansion.reveal(*model, node);
        decorations.selectedNodes.insert(node);
    }

    const ps::GraphStyle style(cli.flag("dark"));
    ps::GraphvizLayout layout;
    layout.setStyle(style);
    ps::DotWriterOptions dot;
    dot.fontName = style.nodeFont().family().toStdString();
    layout.setDotOptions(dot);
    QString message;
    const std::shared_ptr<const ps::GraphLayout> laidOut = layout.layoutNow(model, expansion, root, &message);
    if (!laidOut)
        return cliError("layout failed: " + message.toStdString());
    QSize pixels;
    const bool ok = svg ? ps::GraphExporter::writeSvg(out, *model, *laidOut, style, decorations,
                        QString::fromStdString(cli.positional()[0]), &message)
                        : ps::GraphExporter::writePng(out, *model, *laidOut, style, decorations, scale,
                            ps::GraphExporter::kMaxPngSide, &pixels, &message);
    if (!ok)
        return cliError(message.toStdString());
    size_t shown = 0;
    for (const ps::GraphNode &n : model->nodes)
        shown += !n.ghost && n.op && laidOut->shows(n.id) ? 1 : 0;
    std::cout << out.toStdString() << ": " << shown << " of " << model->opNodeCount() << " ops drawn, "
              << model->groups.size() << " layers, " << int(laidOut->bounds.width()) << "x"
              << int(laidOut->bounds.height()) << " pt";
    if (!svg)
        std::cout << ", " << pixels.width() << "x" << pixels.height() << " px";
    std::cout << ", layout " << laidOut->seconds << " s\n";
    return 0;
}
