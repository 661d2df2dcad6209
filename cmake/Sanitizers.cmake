# ATTNLAB_SANITIZE=address (AddressSanitizer + UndefinedBehaviorSanitizer) or thread (ThreadSanitizer):
# instruments every target this project compiles (core, cli, ui, app, tests, benchmarks). Third-party
# libraries (LibTorch, OpenBLAS, Qt, SQLite) are Debian's prebuilt ones and stay uninstrumented; their
# false positives are suppressed in tests/sanitizers/*.supp, which tests/CMakeLists.txt hands to every
# test through ctest's ENVIRONMENT (tests/sanitizers/run.sh runs the suites, docs/RELIABILITY.md).
set(ATTNLAB_SANITIZE "" CACHE STRING "Instrument our code: address (ASan+UBSan) | thread (TSan) | empty")
set_property(CACHE ATTNLAB_SANITIZE PROPERTY STRINGS "" address thread)

if(ATTNLAB_SANITIZE STREQUAL "address")
  # Undefined behaviour aborts the test (no recover), so a UBSan report cannot scroll by in a green run.
  set(ATTNLAB_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined)
elseif(ATTNLAB_SANITIZE STREQUAL "thread")
  set(ATTNLAB_SANITIZE_FLAGS -fsanitize=thread)
elseif(NOT ATTNLAB_SANITIZE STREQUAL "")
  message(FATAL_ERROR "ATTNLAB_SANITIZE=${ATTNLAB_SANITIZE}: expected address, thread or empty")
endif()

if(ATTNLAB_SANITIZE)
  # Frame pointers give whole stacks through our code even where LibTorch's frames have none.
  add_compile_options(${ATTNLAB_SANITIZE_FLAGS} -fno-omit-frame-pointer)
  add_link_options(${ATTNLAB_SANITIZE_FLAGS})
  message(STATUS "ATTNLAB_SANITIZE=${ATTNLAB_SANITIZE}: ${ATTNLAB_SANITIZE_FLAGS}")
endif()
