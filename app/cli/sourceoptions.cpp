#include "sourceoptions.h"

#include "cliarguments.h"

bool SourceOptions::parseSeed(const CliArguments &cli, uint64_t &seed, std::string &error)
{
    seed = 0;
    return cli.unsignedOption("seed", 0, UINT64_MAX, seed, error);
}

bool SourceOptions::parse(const CliArguments &cli, uint64_t seed, std::string &error)
{
    if (auto in = cli.option("inputs")) {
        inputs = ps::TensorSource::fromText(*in, seed, error);
        if (!inputs) {
            error = "--inputs: " + error;
            return false;
        }
    }
    if (auto norm = cli.option("image-norm")) {
        const auto n = ps::ImageTensor::parseNormalization(*norm);
        if (!n) {
            error = "--image-norm needs imagenet or none, got '" + *norm + "'";
            return false;
        }
        if (!inputs || inputs->kind() != ps::TensorSource::Kind::Image) {
            error = "--image-norm applies to --inputs IMAGE only";
            return false;
        }
        inputs->setImageNormalization(*n);
    }
    if (auto p = cli.option("params")) {
        params = ps::TensorSource::fromText(*p, seed, error);
        if (!params) {
            error = "--params: " + error;
            return false;
        }
        if (params->kind() == ps::TensorSource::Kind::Image) {
            error = "--params: an image cannot provide parameters (use it with --inputs)";
            return false;
        }
    }
    return true;
}
