#include "ui/render/dotcounterguard.h"

#include <cstdint>
#include <cstring>
#include <dlfcn.h>
#include <gvc.h>

namespace ps {

namespace {

/// Calls of decompose() a layout may make before the wrap would be safe: two per graph plus
/// one or two per cluster; group layouts have few clusters.
constexpr int kWindow = 60;

/// The address of `Cmark`, found once the dot plugin is loaded; null where not found.
const volatile signed char *findCounter()
{
#if defined(__x86_64__)
    static const volatile signed char *counter = nullptr;
    static bool searched = false;
    if (searched)
        return counter;
    void *plugin = dlopen("libgvplugin_dot_layout.so.6", RTLD_NOLOAD | RTLD_NOW);
    if (!plugin)
        return nullptr; // not loaded yet: no layout has run, the counter is 0
    searched = true;
    const auto *code = static_cast<const unsigned char *>(dlsym(plugin, "decompose"));
    dlclose(plugin);
    if (!code)
        return nullptr;
    // movzbl disp32(%rip),%eax ; ... ; add $0x1,%al ; ... ; mov %al,disp32'(%rip) [same address]
    for (int k = 0; k < 160; ++k) {
        if (code[k] != 0x0f || code[k + 1] != 0xb6 || code[k + 2] != 0x05)
            continue;
        int32_t load = 0;
        std::memcpy(&load, code + k + 3, 4);
        const unsigned char *address = code + k + 7 + load;
        bool increments = false;
        for (int j = k + 7; j < k + 24; ++j)
            increments = increments || (code[j] == 0x04 && code[j + 1] == 0x01);
        for (int j = k + 7; increments && j < k + 64; ++j) {
            if (code[j] != 0x88 || code[j + 1] != 0x05)
                continue;
            int32_t store = 0;
            std::memcpy(&store, code + j + 2, 4);
            if (code + j + 6 + store == address) {
                counter = reinterpret_cast<const volatile signed char *>(address);
                return counter;
            }
        }
        break;
    }
    return nullptr;
#else
    return nullptr;
#endif
}

} // namespace

int DotCounterGuard::counter()
{
    const volatile signed char *c = findCounter();
    return c ? *c : -1000;
}

void DotCounterGuard::beforeLayout(void *context)
{
    const volatile signed char *c = findCounter();
    if (!c)
        return;
    GVC_t *gvc = static_cast<GVC_t *>(context);
    // The counter runs 1..127, -128..-1, then 1 again: close to -1, wrap it now.
    for (int guard = 0; *c < 0 && *c >= -kWindow && guard < kWindow; ++guard) {
        char tiny[] = "digraph { a -> b }";
        Agraph_t *g = agmemread(tiny);
        if (!g)
            return;
        gvLayout(gvc, g, "dot");
        gvFreeLayout(gvc, g);
        agclose(g);
    }
}

} // namespace ps
