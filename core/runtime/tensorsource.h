#pragma once

#include "core/ir/type.h"
#include "core/runtime/image.h"
#include "core/runtime/imagetensor.h"
#include "core/runtime/tensor.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace ps {

class Program;

/// Where ProgramRunner takes input or parameter tensors from (host tensors):
///  * NpyDirectory: `<dir>/<name>.npy` (the layout of a trace bundle's inputs/ and params/);
///  * Pdiparams: a combined `.pdiparams` file, named by the program's sorted parameter names;
///  * Random: float types N(0, 1) * 0.02, integer types uniform in {0, 1, 2}, bool uniform; the
///    generator is std::mt19937_64 seeded with `seed` xor a hash of the name, so a tensor does not
///    depend on the order of the requests. Non-trainable parameters (running statistics such as
///    batch-norm mean/variance) get ones, which keeps variances positive;
///  * Zeros, Ones;
///  * Named: tensors given by name (a ParameterStore: a program's parameters plus those a pass
///    created); a name without a tensor is an error;
///  * Image: a decoded image becomes the first input (program order) that is image-shaped
///    (ImageTensor: float, rank 4, 1 or 3 channels), resized and normalised by ImageTensor; the
///    other inputs are random as with Random.
/// Dynamic (-1) dims of the declared type become `dynamicDim` (an image input's take the image's
/// size).
class TensorSource
{
public:
    enum class Kind : unsigned char { NpyDirectory, Pdiparams, Random, Zeros, Ones, Image, Named };

    TensorSource() = default;
    static TensorSource random(uint64_t seed);
    static TensorSource zeros() { return TensorSource(Kind::Zeros); }
    static TensorSource ones() { return TensorSource(Kind::Ones); }
    static TensorSource npyDirectory(std::string dir);
    static TensorSource pdiparams(std::string file);
    /// Shares `tensors` (not copied); `what` describes them ("parameters of model.pdiparams").
    static TensorSource named(std::shared_ptr<const std::map<std::string, Tensor>> tensors, std::string what);
    /// `image` (decoded from `path`) for the image input; the other inputs random with `seed`.
    static TensorSource image(std::string path, std::shared_ptr<const Image> image, uint64_t seed,
        ImageTensor::Normalization normalization = ImageTensor::Normalization::ImageNet);
    /// "random", "zeros", "ones", an image file (ImageFile::isImagePath: netpbm read here, other
    /// formats through `decoder`), a directory, or any other file as `.pdiparams`; nullopt with
    /// `error` set when the path does not exist, the image cannot be read, or the file holds a
    /// single `.npy` (told by its "\x93NUMPY" magic, whatever its name: the message asks for the
    /// folder of `<name>.npy` files).
    static std::optional<TensorSource> fromText(
        const std::string &text, uint64_t seed, std::string &error, const ImageDecoder &decoder = {});

    Kind kind() const { return m_kind; }
    const std::string &path() const { return m_path; }
    /// "random (seed 0)", "npy files in DIR", ...
    std::string describe() const;
    void setDynamicDim(int64_t d) { m_dynamicDim = d; }
    /// Image: the decoded image (null for the other kinds).
    const std::shared_ptr<const Image> &image() const { return m_image; }
    ImageTensor::Normalization imageNormalization() const { return m_normalization; }
    void setImageNormalization(ImageTensor::Normalization n) { m_normalization = n; }
    /// Image, after prepare(): the name of the input that gets the image.
    const std::string &imageInput() const { return m_imageInput; }

    /// The input (pd_op.data / pd_op.feed name, program order) an image source feeds: the first
    /// image-shaped one (ImageTensor::layoutOf); nullopt with `why` listing the inputs and why
    /// none is.
    static std::optional<std::string> imageInputOf(const Program &program, std::string &why);
    /// Pdiparams: reads the file for `program`'s parameters. Image: chooses the image input (an
    /// error when no input is image-shaped). A no-op for the other kinds.
    bool prepare(const Program &program, std::string &error);
    /// The tensor for `name`, declared as `type` (its dtype and static dims are checked for files).
    /// An undefined tensor with `error` set when it is not available.
    Tensor get(const std::string &name, Type type, bool trainable, std::string &error) const;

private:
    explicit TensorSource(Kind kind)
        : m_kind(kind)
    {
    }
    Kind m_kind = Kind::Random;
    std::string m_path;
    uint64_t m_seed = 0;
    int64_t m_dynamicDim = 1;
    std::map<std::string, Tensor> m_loaded;
    std::shared_ptr<const std::map<std::string, Tensor>> m_named;
    std::shared_ptr<const Image> m_image;
    ImageTensor::Normalization m_normalization = ImageTensor::Normalization::ImageNet;
    std::string m_imageInput;
};

} // namespace ps
