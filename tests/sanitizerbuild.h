#pragma once

/// True in a build with AddressSanitizer (CI's sanitizer stage: clang, -O0, ASan + UBSan), where
/// whole-model runs take 10-50x longer: tests keep their small cases there and leave the
/// full-size models to the plain build, which runs them all.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PIRSCOPE_TEST_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(PIRSCOPE_TEST_SANITIZED)
#define PIRSCOPE_TEST_SANITIZED 1
#endif

#ifdef PIRSCOPE_TEST_SANITIZED
inline constexpr bool kSanitizerBuild = true;
#else
inline constexpr bool kSanitizerBuild = false;
#endif
