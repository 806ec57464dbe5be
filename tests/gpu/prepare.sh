#!/usr/bin/env bash
# Builds, on the CPU machine, the kit tests/gpu/run.sh runs on the GPU machine, where nothing is
# compiled: pirscope-cli and pirscope-gpu-check with the CUDA backend (Release, sm_90 SASS only,
# no Qt, no BLAS, no mimalloc; the CPU oracle then uses its own loops), stripped, plus the one
# library Debian has no static archive of (libsimdjson, run.sh puts gpu-kit/lib on the library
# path) and the commit it was built from. The CUDA runtime and cuBLAS are the GPU machine's own
# (CUDA 13). The nvcc build takes about half an hour on two cores (run it with nice).
#
#   bash tests/gpu/prepare.sh            # -> gpu-kit/ (ignored by git; carry it to the device)
#   bash tests/gpu/prepare.sh --deps     # -> gpu-kit/deps only: Debian's simdjson (headers, CMake
#                                        #    package, library) for tests/gpu/build_and_run.sh,
#                                        #    which builds on the GPU machine itself (16 cores:
#                                        #    about 100 s instead of half an hour here)
#
# Environment: PIRSCOPE_GPU_BUILD (build folder, default build-gpu), PIRSCOPE_GPU_KIT (default
# gpu-kit), PIRSCOPE_CUDA_ARCH (default 90-real), JOBS (default 2).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${PIRSCOPE_GPU_BUILD:-$ROOT/build-gpu}
KIT=${PIRSCOPE_GPU_KIT:-$ROOT/gpu-kit}
ARCH=${PIRSCOPE_CUDA_ARCH:-90-real}
command -v nvcc >/dev/null 2>&1 || export PATH="$PATH:/usr/local/cuda/bin"

# The files of Debian's libsimdjson-dev that a CMake build needs, laid out under deps/usr as
# they lie under /usr, so find_package(simdjson) finds them through CMAKE_PREFIX_PATH (its
# package file computes its prefix from where it lies). Links are copied as files: what the
# device tool carries must be plain files.
copy_deps() {
    local deps=$KIT/deps/usr lib=/usr/lib/x86_64-linux-gnu
    rm -rf "$KIT/deps"
    mkdir -p "$deps/include" "$deps/lib/x86_64-linux-gnu/cmake"
    cp /usr/include/simdjson.h "$deps/include/"
    cp -r "$lib/cmake/simdjson" "$deps/lib/x86_64-linux-gnu/cmake/"
    for so in "$lib"/libsimdjson.so.*; do
        cp -L "$so" "$deps/lib/x86_64-linux-gnu/"
    done
}
if [ "${1:-}" = "--deps" ]; then
    [ -e /usr/include/simdjson.h ] || { echo "prepare.sh --deps: libsimdjson-dev is not installed" >&2; exit 1; }
    copy_deps
    git -C "$ROOT" rev-parse --short HEAD >"$KIT/COMMIT" 2>/dev/null || echo unknown >"$KIT/COMMIT"
    git -C "$ROOT" status --porcelain 2>/dev/null | grep -q . && echo "$(cat "$KIT/COMMIT") with local changes" >"$KIT/COMMIT"
    echo "prepare.sh: $(du -sh "$KIT/deps" | cut -f1) of build dependencies in $KIT/deps"
    exit 0
fi

mkdir -p "$BUILD"
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPIRSCOPE_GUI=OFF -DPIRSCOPE_TESTS=OFF \
    -DPIRSCOPE_CUDA=ON -DPIRSCOPE_CUDA_SIM=OFF -DPIRSCOPE_BLAS=OFF -DPIRSCOPE_MIMALLOC=OFF \
    -DCMAKE_CUDA_ARCHITECTURES="$ARCH" 2>&1 | tee "$BUILD/configure.log"
# check_language(CUDA) failing is no CMake error: the build would go on without the CUDA backend
# and the kit would check nothing. Its reason is in CMake's configure log, not in CMakeCache.txt.
if ! grep -q "PIRScope: CUDA backend enabled" "$BUILD/configure.log"; then
    echo "prepare.sh: CMake did not enable the CUDA backend (no working nvcc?); see $BUILD/configure.log and" >&2
    echo "  $BUILD/CMakeFiles/CMakeConfigureLog.yaml (CMake >= 3.26) or CMakeFiles/CMakeError.log" >&2
    exit 1
fi
nice -n 19 cmake --build "$BUILD" -j "${JOBS:-2}" --target pirscope-cli pirscope-gpu-check

rm -rf "$KIT"
mkdir -p "$KIT/bin" "$KIT/lib"
for exe in "$BUILD/app/cli/pirscope-cli" "$BUILD/tests/gpu/pirscope-gpu-check"; do
    cp "$exe" "$KIT/bin/"
    strip "$KIT/bin/$(basename "$exe")"
done
# Libraries a bare GPU machine may lack: everything the binaries need except the C/C++ runtime
# and the CUDA libraries (run.sh finds those in the machine's CUDA toolkit).
ldd "$KIT/bin/pirscope-cli" "$KIT/bin/pirscope-gpu-check" | awk '/=> \// { print $3 }' | sort -u | while read -r lib; do
    case $(basename "$lib") in
    libc.so* | libm.so* | libstdc++.so* | libgcc_s.so* | ld-linux* | libpthread.so* | libdl.so* | librt.so* | libcuda*.so* | libcublas*.so* | libcudart*.so*) ;;
    *) cp -L "$lib" "$KIT/lib/" ;;
    esac
done
git -C "$ROOT" rev-parse --short HEAD >"$KIT/COMMIT" 2>/dev/null || echo unknown >"$KIT/COMMIT"
git -C "$ROOT" status --porcelain 2>/dev/null | grep -q . && echo "$(cat "$KIT/COMMIT") with local changes" >"$KIT/COMMIT"
date -u '+%Y-%m-%d %H:%M UTC' >"$KIT/BUILT"
ls -la "$KIT/bin" "$KIT/lib"
du -sh "$KIT"
