#pragma once

#include "core/ir/attribute.h"
#include "core/transform/rewritehelpers.h"

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

// Attributes shared by the passes that make `pd_op.fused_conv2d_add_act`.

/// conv2d's attributes, which the fused op keeps.
inline constexpr std::initializer_list<const char *> kConv2dAttributes
    = { "strides", "paddings", "padding_algorithm", "dilations", "groups", "data_format" };

/// The conv2d Paddle's conv fusions accept: padding_algorithm EXPLICIT, SAME or VALID, groups >= 1
/// and a data_format among `formats` (conv2d_add_fuse_pass takes NCHW and AnyLayout only).
inline bool fusableConv2dAttributes(const Attribute *paddingAlgorithm, const Attribute *dataFormat,
    const Attribute *groups,
    std::initializer_list<std::string_view> formats = { "NCHW", "AnyLayout", "NHWC" })
{
    return stringAttrIn(paddingAlgorithm, { "EXPLICIT", "SAME", "VALID" })
        && stringAttrIn(dataFormat, formats) && groups && groups->asInt() >= 1;
}

/// The attributes Paddle's conv fusion passes add: `activation`, `split_channels` [],
/// `exhaustive_search` false, `workspace_size_MB` 32, `fuse_alpha` 0 and the runtime attribute
/// `__force_backend__` "gpudnn" (kernel selection; not written to PIR JSON).
inline std::vector<NamedAttribute> fusedConvEpilogueAttributes(const std::string &activation)
{
    return { { "activation", Attribute::string(activation) }, { "split_channels", Attribute::array({}) },
        { "exhaustive_search", Attribute::boolean(false) }, { "workspace_size_MB", Attribute::int32(32) },
        { "fuse_alpha", Attribute::f32(0.0f) }, { "__force_backend__", Attribute::string("gpudnn") } };
}

} // namespace ps
