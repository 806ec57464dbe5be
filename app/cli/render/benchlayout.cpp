#include "allocatorname.h"
#include "benchtiming.h"
#include "cliarguments.h"
#include "commands.h"
#include "core/graph/dotwriter.h"
#include "core/graph/graphbuilder.h"
#include "core/graph/groupexpansion.h"
#include "core/io/jsonemitter.h"
#include "core/ir/block.h"
#include "core/ir/pirprinter.h"
#include "core/ir/program.h"
#include "core/transform/partialprogram.h"
#include "core/transform/programroles.h"
#include "core/transform/syntheticprogram.h"
#include "renderapp.h"
#include "ui/render/firstview.h"
#include "ui/render/graphexporter.h"
#include "ui/render/graphvizlayout.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <fstream>
#include <iostream>
#include <sys/resource.h>

namespace {

const char *const kUsage = "usage: pirscope-cli bench layout FILE [--mode infer|train] [--json] "
                           "[--baseline-timeout S] [--no-full]\n"
                           "       pirscope-cli bench layout --ops N [--kind mlp|transformer] [--mode "
                           "train|infer] [--dump-program OUT.txt]";

/// The viewport a frame is painted into: the 1280x720 window's graph area, roughly.
constexpr int kFrameWidth = 1280;
constexpr int kFrameHeight = 720;

double peakMegabytes()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;
}

/// What is laid out: a program and, for a train program, autodiff's grad op → forward op links.
struct Subject
{
    std::string label;
    std::string mode;
    std::shared_ptr<const ps::Program> program;
    std::unordered_map<const ps::Operation *, const ps::Operation *> forwardOpOf;
    double loadSeconds = 0;
    double pipelineSeconds = 0;
};

/// Takes a pipeline's whole train program and its grad op links.
void takeTrainProgram(const ps::PipelineResult &result, Subject &subject)
{
    subject.program = result.whole;
    const ps::Block &block = result.whole->block();
    for (const ps::GradOpLink &link : result.gradOps)
        for (size_t g : link.gradOps)
            if (g < block.size() && link.forwardOp < block.size())
                subject.forwardOpOf[block.op(g)] = block.op(link.forwardOp);
}

/// The whole train program of `origin` (dy2static's backward appended), with its grad op links.
bool trainProgram(const ps::Program &origin, Subject &subject, std::string &error)
{
    QElapsedTimer timer;
    timer.start();
    const ps::ProgramRoles roles = ps::ProgramRoles::ofProgram(origin);
    std::unique_ptr<ps::PartialProgramLayer> layer = roles.makeLayer(origin, ps::PipelineFlavour::Newest);
    ps::PipelineResult result = layer->snapshot(true);
    if (!result.whole) {
        error = "the train program could not be built"
            + (result.diagnostics.empty() ? std::string() : ": " + result.diagnostics.front());
        return false;
    }
    takeTrainProgram(result, subject);
    subject.pipelineSeconds = timer.nsecsElapsed() / 1e9;
    return true;
}

/// A synthetic program of about `ops` top-level ops: train mode sizes the whole train program.
bool syntheticSubject(
    ps::SyntheticProgram::Kind kind, size_t ops, bool train, Subject &subject, std::string &error)
{
    subject.label = "synthetic " + std::string(ps::SyntheticProgram::kindName(kind));
    if (!train) {
        subject.program = ps::SyntheticProgram::ofSize(kind, ops).program;
        return true;
    }
    auto trainOps = [kind](size_t layers) {
        ps::SyntheticProgram::Model m = kind == ps::SyntheticProgram::Kind::Mlp
            ? ps::SyntheticProgram::mlp(layers)
            : ps::SyntheticProgram::transformer(layers);
        return ps::SyntheticProgram::layer(std::move(m))->snapshot(true).whole->block().size();
    };
    const double perLayer = (double(trainOps(4)) - double(trainOps(2))) / 2;
    const double fixed = double(trainOps(2)) - 2 * perLayer;
    const size_t layers = size_t(std::max(1.0, (double(ops) - fixed) / perLayer));
    ps::SyntheticProgram::Model m = kind == ps::SyntheticProgram::Kind::Mlp
        ? ps::SyntheticProgram::mlp(layers)
        : ps::SyntheticProgram::transformer(layers);
    const ps::PipelineResult result = ps::SyntheticProgram::layer(std::move(m))->snapshot(true);
    if (!result.whole) {
        error = "the synthetic train program could not be built";
        return false;
    }
    takeTrainProgram(result, subject);
    return true;
}

/// `bench layout --flat-dot FILE`: one Graphviz run of a DOT text, timed (the child process of
/// the flat baseline).
int flatChild(const std::string &path)
{
    // "-": the DOT on stdin, as flatBaseline passes it (no temporary file to leave behind).
    QFile file(QString::fromStdString(path));
    const bool opened = path == "-" ? file.open(stdin, QIODevice::ReadOnly) : file.open(QIODevice::ReadOnly);
    if (!opened)
        return cliError("cannot read " + path);
    const QByteArray dot = file.readAll();
    ps::GraphvizLayout layout;
    QString error;
    QElapsedTimer timer;
    timer.start();
    if (!layout.layoutDotNow(dot, &error))
        return cliError("layout failed: " + error.toStdString());
    std::cout << "flat_layout_seconds " << timer.nsecsElapsed() / 1e9 << "\n";
    return 0;
}

/// The whole graph in one Graphviz run, as the view laid it out before layer groups, timed in a
/// child process that is killed after `timeout` seconds: negative when it did not finish.
double flatBaseline(
    const ps::GraphModel &model, const ps::GraphStyle &style, double timeout, std::string &note)
{
    ps::DotWriterOptions options;
    options.fontName = style.nodeFont().family().toStdString();
    for (const ps::GraphNode &n : model.nodes) {
        const QSizeF s = style.nodeSize(n);
        options.nodeSizes.push_back({ s.width(), s.height() });
    }
    QProcess child;
    child.start(QCoreApplication::applicationFilePath(),
        { QStringLiteral("bench"), QStringLiteral("layout"), QStringLiteral("--flat-dot"),
            QStringLiteral("-") });
    if (!child.waitForStarted()) {
        note = "could not start the flat layout";
        return -1;
    }
    child.write(QByteArray::fromStdString(ps::DotWriter::write(model, options)));
    child.closeWriteChannel();
    if (!child.waitForFinished(int(timeout * 1000))) {
        child.kill();
        child.waitForFinished();
        note = "did not finish in " + std::to_string(int(timeout)) + " s (killed)";
        return -1;
    }
    const QString out = QString::fromUtf8(child.readAllStandardOutput());
    const int at = out.indexOf(QLatin1String("flat_layout_seconds "));
    if (child.exitCode() != 0 || at < 0) {
        note = "failed: " + QString::fromUtf8(child.readAllStandardError()).trimmed().toStdString();
        return -1;
    }
    return out.mid(at + 20).trimmed().toDouble();
}

/// Best time of painting one 1280x720 frame of `layout` at `zoom` around `centre` (what a view
/// repaints when panning), in milliseconds.
double frameMilliseconds(const ps::GraphModel &model, const ps::GraphLayout &layout,
    const ps::GraphStyle &style, double zoom, QPointF centre)
{
    QImage image(kFrameWidth, kFrameHeight, QImage::Format_ARGB32_Premultiplied);
    const QRectF exposed(centre.x() - kFrameWidth / zoom / 2, centre.y() - kFrameHeight / zoom / 2,
        kFrameWidth / zoom, kFrameHeight / zoom);
    return 1e3
        * bestOf(
            [&] {
                image.fill(style.background());
                QPainter painter(&image);
                painter.scale(zoom, zoom);
                painter.translate(-exposed.topLeft());
                ps::GraphExporter::paint(&painter, model, layout, style, {}, exposed);
            },
            0.3, 3);
}

/// The zoom and centre a view opens at (GraphView::showInitialView): the whole graph when that
/// is not too small, else op titles at a readable size at the top.
std::pair<double, QPointF> firstViewport(const ps::GraphLayout &layout)
{
    const QRectF b = layout.bounds;
    const double fit = ps::FirstView::fitZoom(b, QSizeF(kFrameWidth, kFrameHeight));
    if (fit >= ps::FirstView::kUsableZoom)
        return { fit, b.center() };
    return { 0.6, QPointF(b.center().x(), b.top() + kFrameHeight / 0.6 / 2) };
}

} // namespace

int runBenchLayout(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "json", "no-full" },
            { "mode", "ops", "kind", "baseline-timeout", "dump-program", "flat-dot" }, error))
        return cliError(error);
    RenderApp::ensure();
    if (auto dot = cli.option("flat-dot"))
        return flatChild(*dot);
    const std::string mode = cli.option("mode").value_or(cli.option("ops") ? "train" : "infer");
    if (mode != "train" && mode != "infer")
        return cliError("--mode must be train or infer");
    double timeout = 60;
    uint64_t ops = 0;
    if (!cli.numberOption("baseline-timeout", 0, 86400, timeout, error)
        || !cli.unsignedOption("ops", 1, 10'000'000, ops, error))
        return cliError(error);

    Subject subject;
    subject.mode = mode;
    if (cli.option("ops")) {
        if (!cli.positional().empty())
            return cliError(kUsage);
        const auto kind = ps::SyntheticProgram::kindFromName(cli.option("kind").value_or("mlp"));
        if (!kind)
            return cliError("--kind must be mlp or transformer");
        QElapsedTimer timer;
        timer.start();
        if (!syntheticSubject(*kind, size_t(ops), mode == "train", subject, error))
            return cliError(error);
        subject.pipelineSeconds = timer.nsecsElapsed() / 1e9;
    } else {
        if (cli.positional().size() != 1)
            return cliError(kUsage);
        subject.label = cli.positional()[0];
        QElapsedTimer timer;
        timer.start();
        std::unique_ptr<ps::Program> loaded = loadForCli(subject.label);
        if (!loaded)
            return 1;
        subject.loadSeconds = timer.nsecsElapsed() / 1e9;
        if (mode == "train") {
            if (!trainProgram(*loaded, subject, error))
                return cliError(error);
        } else {
            subject.program = std::move(loaded);
        }
    }
    if (auto dump = cli.option("dump-program")) {
        std::ofstream out(*dump);
        if (!out)
            return cliError("cannot write " + *dump);
        ps::PirPrinter::print(*subject.program, out);
    }
    const double baselineMb = peakMegabytes();

    // The first view: graph model, default layers open, group layouts from a cold cache.
    const ps::GraphStyle style;
    ps::GraphvizLayout layout;
    layout.setStyle(style);
    ps::DotWriterOptions dot;
    dot.fontName = style.nodeFont().family().toStdString();
    layout.setDotOptions(dot);
    QElapsedTimer timer;
    timer.start();
    ps::GraphBuilderOptions options;
    options.grouping.forwardOpOf = &subject.forwardOpOf;
    auto model = std::make_shared<const ps::GraphModel>(ps::GraphBuilder(options).build(*subject.program));
    const double modelSeconds = timer.nsecsElapsed() / 1e9;
    ps::GroupExpansion defaults = ps::GroupExpansion::defaults(*model);
    QString message;
    timer.restart();
    // As GraphView opens a graph: the default layers, then the deepest closed while Fit would
    // not be readable.
    std::shared_ptr<const ps::GraphLayout> first;
    for (;;) {
        first = layout.layoutNow(model, defaults, -1, &message);
        if (!first)
            return cliError("layout failed: " + message.toStdString());
        const double fit = ps::FirstView::fitZoom(first->bounds, QSizeF(kFrameWidth, kFrameHeight));
        if (fit >= ps::FirstView::kUsableZoom || !ps::FirstView::closeTowardsLegible(*model, defaults, fit))
            break;
    }
    const double firstSeconds = timer.nsecsElapsed() / 1e9;
    const auto [zoom, centre] = firstViewport(*first);
    const double frameMs = frameMilliseconds(*model, *first, style, zoom, centre);

    std::shared_ptr<const ps::GraphLayout> full;
    double fullSeconds = -1, fullFrameMs = -1;
    if (!cli.flag("no-full")) {
        layout.clearCache();
        timer.restart();
        full = layout.layoutNow(model, ps::GroupExpansion::all(*model), -1, &message);
        fullSeconds = timer.nsecsElapsed() / 1e9;
        if (!full)
            return cliError("layout of the whole graph failed: " + message.toStdString());
        fullFrameMs = frameMilliseconds(*model, *full, style, 0.35, full->bounds.center());
    }
    const double peakMb = peakMegabytes();
    std::string baselineNote;
    const double baseline = timeout > 0 ? flatBaseline(*model, style, timeout, baselineNote) : -1;
    if (timeout <= 0)
        baselineNote = "not measured (--baseline-timeout 0)";

    size_t ghosts = model->ghostCount();
    size_t shown = 0;
    for (const ps::GraphNode &n : model->nodes)
        shown += !n.ghost && n.op && first->shows(n.id) ? 1 : 0;
    const double firstView = subject.loadSeconds + modelSeconds + firstSeconds;
    if (cli.flag("json")) {
        ps::JsonEmitter json(std::cout, ps::JsonEmitter::Format::Report);
        json.beginObject();
        json.key("file").value(subject.label);
        json.key("mode").value(subject.mode);
        json.key("allocator").value(allocatorName());
        json.key("ops").value(subject.program->numOpsTotal());
        json.key("nodes").value(model->nodes.size() - ghosts);
        json.key("ghosts").value(ghosts);
        json.key("groups").value(model->groups.size());
        json.key("load_seconds").value(subject.loadSeconds);
        json.key("pipeline_seconds").value(subject.pipelineSeconds);
        json.key("model_seconds").value(modelSeconds);
        json.key("first_view_seconds").value(firstView);
        json.key("first_view").beginObject();
        json.key("layout_seconds").value(firstSeconds);
        json.key("ops_shown").value(shown);
        json.key("items").value(first->expansion.visibleItemCount(*model));
        json.key("graphviz_runs").value(first->graphvizRuns);
        json.key("graphviz_seconds").value(first->graphvizSeconds);
        json.key("frame_ms").value(frameMs);
        json.key("zoom").value(zoom);
        json.endObject();
        json.key("full_layout_seconds");
        fullSeconds >= 0 ? json.value(fullSeconds) : json.null();
        json.key("full_layout");
        if (full) {
            json.beginObject();
            json.key("graphviz_runs").value(full->graphvizRuns);
            json.key("graphviz_seconds").value(full->graphvizSeconds);
            json.key("width").value(full->bounds.width());
            json.key("height").value(full->bounds.height());
            json.key("frame_ms").value(fullFrameMs);
            json.endObject();
        } else {
            json.null();
        }
        json.key("peak_mb").value(peakMb);
        json.key("baseline_peak_mb").value(baselineMb);
        json.key("baseline_flat_seconds");
        baseline >= 0 ? json.value(baseline) : json.null();
        json.key("baseline_note").value(baselineNote);
        json.key("ratio_flat_to_full");
        baseline >= 0 && fullSeconds > 0 ? json.value(baseline / fullSeconds) : json.null();
        json.endObject();
        json.finish();
        return 0;
    }
    std::cout << subject.label << " (" << subject.mode << "): " << subject.program->numOpsTotal() << " ops, "
              << model->nodes.size() - ghosts << " nodes + " << ghosts << " ghost chips, "
              << model->groups.size() << " layer groups\n";
    if (subject.loadSeconds > 0)
        std::cout << "  load:                " << subject.loadSeconds * 1e3 << " ms\n";
    if (subject.pipelineSeconds > 0)
        std::cout << "  train program:       " << subject.pipelineSeconds * 1e3
                  << " ms (not part of the view)\n";
    std::cout << "  graph model:         " << modelSeconds * 1e3 << " ms\n";
    std::cout << "  first view layout:   " << firstSeconds * 1e3 << " ms (" << shown << " ops shown, "
              << first->graphvizRuns << " group layouts, " << first->graphvizSeconds * 1e3
              << " ms in Graphviz)\n";
    std::cout << "  first view in all:   " << firstView * 1e3 << " ms (load + model + layout; target 2000)\n";
    std::cout << "  frame (1280x720):    " << frameMs << " ms at zoom " << zoom << " (60 fps needs < 16.7)\n";
    if (full)
        std::cout << "  whole graph layout:  " << fullSeconds * 1e3 << " ms (" << full->graphvizRuns
                  << " group layouts), frame at zoom 0.35: " << fullFrameMs << " ms\n";
    std::cout << "  peak memory:         " << peakMb << " MB (" << baselineMb << " MB before the layout)\n";
    if (baseline >= 0)
        std::cout << "  baseline, one flat Graphviz layout of everything: " << baseline * 1e3 << " ms"
                  << (fullSeconds > 0 ? " (" + std::to_string(baseline / fullSeconds) + "x the grouped one)"
                                      : "")
                  << "\n";
    else
        std::cout << "  baseline, one flat Graphviz layout of everything: " << baselineNote << "\n";
    return 0;
}
