// The layers of DESIGN.md, checked on the sources: core/CMakeLists.txt declares one library per
// core layer with the layers it links (`pirscope_layer(pirscope_X DIRS ... DEPS ...)`); every
// `#include "core/..."` of a layer must name itself or a layer it reaches through those links.
// The link graph catches an upward call; this catches an upward include of a header-only piece
// too. core/ includes neither Qt nor Graphviz, and app/cli nothing of ui/ outside its render part.
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Layer
{
    std::vector<std::string> dirs;   // below core/, e.g. "runtime/cpu"
    std::vector<std::string> deps;   // library names
};

std::string readFile(const fs::path &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The `pirscope_layer(...)` calls of core/CMakeLists.txt, by library name.
std::map<std::string, Layer> declaredLayers(const std::string &cmake)
{
    std::map<std::string, Layer> layers;
    const std::regex call("\npirscope_layer\\(([^)]*)\\)");
    for (auto it = std::sregex_iterator(cmake.begin(), cmake.end(), call); it != std::sregex_iterator(); ++it) {
        std::istringstream words((*it)[1].str());
        std::string name, word;
        words >> name;
        Layer layer;
        std::vector<std::string> *into = nullptr;
        while (words >> word) {
            if (word == "DIRS")
                into = &layer.dirs;
            else if (word == "DEPS")
                into = &layer.deps;
            else if (into)
                into->push_back(word);
        }
        layers[name] = layer;
    }
    return layers;
}

/// The first path component below core/ of each layer's directories: "runtime/cpu" -> "runtime".
std::string topDir(const std::string &dir)
{
    return dir.substr(0, dir.find('/'));
}

/// Every core/ directory `library` may include: its own and those of the layers it reaches.
std::set<std::string> reachableDirs(const std::map<std::string, Layer> &layers, const std::string &library)
{
    std::set<std::string> dirs, seen;
    std::vector<std::string> todo { library };
    while (!todo.empty()) {
        const std::string name = todo.back();
        todo.pop_back();
        auto it = layers.find(name);
        if (it == layers.end() || !seen.insert(name).second)
            continue;
        for (const std::string &d : it->second.dirs)
            dirs.insert(topDir(d));
        todo.insert(todo.end(), it->second.deps.begin(), it->second.deps.end());
    }
    return dirs;
}

bool isSource(const fs::path &p)
{
    const std::string ext = p.extension().string();
    return ext == ".h" || ext == ".cpp" || ext == ".cu" || ext == ".cuh" || ext == ".def";
}

/// "file:line: #include ..." for each include line of the files below `root` that `bad` flags.
std::vector<std::string> offendingIncludes(const fs::path &root,
    const std::function<bool(const fs::path &, const std::string &)> &bad)
{
    std::vector<std::string> found;
    const std::regex include("^\\s*#\\s*include\\s*([<\"][^>\"]+[>\"])");
    for (const fs::directory_entry &e : fs::recursive_directory_iterator(root)) {
        if (!e.is_regular_file() || !isSource(e.path()))
            continue;
        std::ifstream in(e.path());
        std::string line;
        for (int n = 1; std::getline(in, line); ++n) {
            std::smatch m;
            if (std::regex_search(line, m, include) && bad(e.path(), m[1].str()))
                found.push_back(e.path().string() + ":" + std::to_string(n) + ": " + line);
        }
    }
    return found;
}

/// "core/runtime/..." -> "runtime"; empty for an include outside core/.
std::string coreDirOf(const std::string &quotedInclude)
{
    static const std::string prefix = "\"core/";
    if (quotedInclude.rfind(prefix, 0) != 0)
        return {};
    return topDir(quotedInclude.substr(prefix.size()));
}

QString joined(const std::vector<std::string> &lines)
{
    std::string text;
    for (const std::string &l : lines)
        text += "\n  " + l;
    return QString::fromStdString(text);
}

} // namespace

class TestLayering : public QObject
{
    Q_OBJECT

private:
    const fs::path m_source { PIRSCOPE_SOURCE_DIR };

private slots:
    void everyCoreDirectoryIsOneLayer()
    {
        const auto layers = declaredLayers(readFile(m_source / "core/CMakeLists.txt"));
        QVERIFY2(layers.size() >= 8, "core/CMakeLists.txt declares fewer than the eight layers");
        std::set<std::string> owned;
        for (const auto &[name, layer] : layers)
            for (const std::string &d : layer.dirs)
                owned.insert(topDir(d));
        for (const fs::directory_entry &e : fs::directory_iterator(m_source / "core"))
            if (e.is_directory())
                QVERIFY2(owned.count(e.path().filename().string()),
                    ("core/" + e.path().filename().string() + " belongs to no pirscope_layer").c_str());
    }

    void coreIncludesOnlyLowerLayers()
    {
        const auto layers = declaredLayers(readFile(m_source / "core/CMakeLists.txt"));
        std::map<std::string, std::set<std::string>> allowed; // top dir -> dirs it may include
        for (const auto &[name, layer] : layers)
            for (const std::string &d : layer.dirs)
                allowed[topDir(d)] = reachableDirs(layers, name);
        const auto upward = offendingIncludes(m_source / "core", [&](const fs::path &file, const std::string &inc) {
            const std::string target = coreDirOf(inc);
            if (target.empty())
                return false;
            const std::string from = topDir(fs::relative(file, m_source / "core").generic_string());
            auto it = allowed.find(from);
            return it == allowed.end() || !it->second.count(target);
        });
        QVERIFY2(upward.empty(), qPrintable("includes above their layer (core/CMakeLists.txt's DEPS):" + joined(upward)));
    }

    void coreHasNoQtOrGraphviz()
    {
        const std::regex gui("^[<\"](Q[A-Za-z]|Qt[A-Za-z]*/|graphviz/|gvc\\.h|cgraph\\.h|ui/|app/)");
        const auto found = offendingIncludes(m_source / "core", [&](const fs::path &, const std::string &inc) {
            return std::regex_search(inc, gui);
        });
        QVERIFY2(found.empty(), qPrintable("core/ includes Qt, Graphviz or ui/:" + joined(found)));
    }

    /// app/cli/render (`render`, `bench layout`) is the one part built with ui/render and Qt Gui
    /// (with the GUI libraries only; app/cli/norender stands in without them).
    void cliIncludesNoUi()
    {
        const std::regex gui("^[<\"](Q[A-Za-z]|Qt[A-Za-z]*/|ui/)");
        const fs::path render = m_source / "app/cli/render";
        const auto found = offendingIncludes(m_source / "app/cli", [&](const fs::path &file, const std::string &inc) {
            return file.parent_path() != render && std::regex_search(inc, gui);
        });
        QVERIFY2(found.empty(), qPrintable("app/cli includes Qt or ui/:" + joined(found)));
    }

    void theCheckSeesAnUpwardInclude()
    {
        const std::string cmake = "\npirscope_layer(pirscope_ir DIRS ir)"
                                  "\npirscope_layer(pirscope_io DIRS io DEPS pirscope_ir)"
                                  "\npirscope_layer(pirscope_runtime DIRS runtime runtime/cpu DEPS pirscope_io)";
        const auto layers = declaredLayers(cmake);
        QCOMPARE(layers.size(), size_t(3));
        QCOMPARE(reachableDirs(layers, "pirscope_runtime"), (std::set<std::string> { "runtime", "io", "ir" }));
        QCOMPARE(reachableDirs(layers, "pirscope_ir"), std::set<std::string> { "ir" });
        QCOMPARE(coreDirOf("\"core/runtime/cpu/x.h\""), std::string("runtime"));
        QCOMPARE(coreDirOf("<vector>"), std::string());
    }
};

QTEST_GUILESS_MAIN(TestLayering)
#include "tst_layering.moc"
