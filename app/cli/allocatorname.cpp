#include "allocatorname.h"

#ifdef PIRSCOPE_HAVE_MIMALLOC
#    include <mimalloc.h>
#endif

std::string allocatorName()
{
#ifdef PIRSCOPE_HAVE_MIMALLOC
    const int v = mi_version(); // e.g. 209 for 2.0.9
    return "mimalloc " + std::to_string(v / 100) + "." + std::to_string(v / 10 % 10) + "."
        + std::to_string(v % 10);
#else
    return "C library malloc";
#endif
}
