#pragma once

// The CUDA backend's classes and kernels live in namespace ps when compiled by nvcc and in
// ps::cudasimbackend (an inline namespace) when compiled for cuda-sim (PIRSCOPE_CUDA_SIM), so one build
// can link both without two definitions of one name. Every file of core/runtime/cuda opens its
// namespace with these.

#ifdef PIRSCOPE_CUDA_SIM
#    define PS_CUDA_NAMESPACE_BEGIN                                                                          \
        namespace ps {                                                                                       \
        inline namespace cudasimbackend {
#    define PS_CUDA_NAMESPACE_END                                                                            \
        }                                                                                                    \
        }
#else
#    define PS_CUDA_NAMESPACE_BEGIN namespace ps {
#    define PS_CUDA_NAMESPACE_END }
#endif
