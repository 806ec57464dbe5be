#pragma once

#include "core/runtime/tensorsource.h"

#include <cstdint>
#include <optional>
#include <string>

class CliArguments;

/// The options that choose what a run reads, parsed once for every command that takes them
/// (run, passes; verify and bench run take --seed only): `--seed N`, and `--inputs`,
/// `--image-norm`, `--params` as TensorSource::fromText reads them. A command applies the ones
/// given over its own defaults.
struct SourceOptions
{
    /// `--inputs` (with `--image-norm` applied), when given.
    std::optional<ps::TensorSource> inputs;
    /// `--params`, when given.
    std::optional<ps::TensorSource> params;

    /// `--seed N` into `seed` (0 when absent); false with `error` when it is not a number.
    static bool parseSeed(const CliArguments &cli, uint64_t &seed, std::string &error);
    /// `--inputs`, `--image-norm` and `--params`, their random tensors seeded with `seed`. False
    /// with `error`: a source that does not exist or cannot be read ("--inputs: ..."), an
    /// `--image-norm` other than imagenet or none or without an image `--inputs`, an image as
    /// `--params`.
    bool parse(const CliArguments &cli, uint64_t seed, std::string &error);
};
