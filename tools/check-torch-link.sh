#!/usr/bin/env bash
# Checks how a pypi-flavour build linked LibTorch (cmake/TorchFlavour.cmake), on its attnlab-cli:
#   - libtorch_cuda.so is NEEDED (the CUDA backend is linked, so a GPU is used where there is one),
#   - libcuda.so.1 is not NEEDED (the driver is dlopen'ed: the build starts on machines without one),
#   - RUNPATH is the wheel's torch/lib alone (no CUDA stub folder, no toolkit folder at run time),
#   - every torch library resolves inside that wheel, not Debian's /usr/lib,
#   - --version names LibTorch <pin>, MKL + oneDNN and CUDA 13.0 (", no device" where no GPU is usable).
# usage: tools/check-torch-link.sh [BUILD_DIR=build-pypi]; exit 0 when all hold, 1 naming the first that fails.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-pypi}
cli="$build/app/attnlab-cli"
fail() { echo "check-torch-link: $*" >&2; exit 1; }
[ -x "$cli" ] || fail "$cli not built (hint: ATTNLAB_TORCH=pypi ATTNLAB_GUI=OFF ./setup.sh build)"
needed=$(readelf -d "$cli" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
runpath=$(readelf -d "$cli" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
grep -qx 'libtorch_cuda.so' <<<"$needed" || fail "libtorch_cuda.so is not NEEDED: the CUDA backend was dropped at link time"
if grep -q '^libcuda\.so' <<<"$needed"; then fail "libcuda.so.1 is NEEDED: the binary would not start without a driver"; fi
case "$runpath" in
  */torch/lib) ;;
  *) fail "RUNPATH is '$runpath', expected the wheel's torch/lib alone" ;;
esac
if grep -q ':' <<<"$runpath"; then fail "RUNPATH has more than one folder: '$runpath'"; fi
if grep -qi 'stubs\|/usr/local/cuda' <<<"$runpath"; then fail "RUNPATH names the CUDA toolkit: '$runpath'"; fi
while read -r lib path; do
  case "$path" in
    "$runpath"/*) ;;
    *) fail "$lib resolves to $path, not to the wheel's $runpath" ;;
  esac
done < <(ldd "$cli" | awk '/libtorch|libc10/ {print $1, $3}')
pin=$(grep -v '^#' packaging/torch-pypi.txt | grep -m1 .)
version=$("$cli" --version)
for want in "LibTorch ${pin#torch==}" "MKL + oneDNN" "CUDA 13.0 built"; do
  grep -qF "$want" <<<"$version" || fail "--version says '$version', without '$want'"
done
echo "check-torch-link: ok: $version; NEEDED libtorch_cuda.so, no libcuda.so.1; RUNPATH $runpath"
