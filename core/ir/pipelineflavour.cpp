#include "core/ir/pipelineflavour.h"

namespace ps {

std::string_view flavourName(PipelineFlavour flavour)
{
    switch (flavour) {
    case PipelineFlavour::Seed:
        return "seed";
    case PipelineFlavour::Paddle30:
        return "3.0";
    case PipelineFlavour::Newest:
        return "newest";
    }
    return "newest";
}

std::optional<PipelineFlavour> flavourFromName(std::string_view name)
{
    if (name == "seed")
        return PipelineFlavour::Seed;
    if (name == "3.0" || name == "paddle30")
        return PipelineFlavour::Paddle30;
    if (name == "newest")
        return PipelineFlavour::Newest;
    return std::nullopt;
}

std::string_view fakeValueName(PipelineFlavour flavour)
{
    return flavour == PipelineFlavour::Newest ? std::string_view("Fake_var") : std::string_view("FakeVar");
}

} // namespace ps
