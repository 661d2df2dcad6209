# Unity batches by folder (ATTNLAB_UNITY_BUILD, on by default): each folder's .cpp files matched by REGEX are
# compiled as one translation unit, so the headers they share (LibTorch's precompiled one, Qt Widgets, the
# engine's) are read and their inline functions emitted once per folder instead of once per file. Measured
# (docs/BENCHMARKS.md): core/nn/layers' 17 files alone 93 s, as one unit 10 s. Adding a file touches only its
# folder's batch. What it asks of the code: helpers in anonymous namespaces named uniquely within their folder.
# ATTNLAB_UNITY_BUILD=OFF builds file by file (an edit then recompiles one file, and each file is shown to
# compile on its own includes).
option(ATTNLAB_UNITY_BUILD "Compile each source folder of the engine, the CLI and the window as one translation unit" ON)

# attnlab_unity_by_folder(TARGET REGEX [EXCLUDE file...]): group TARGET's sources whose path, relative to the
# project's root (core/nn/layers/SelfAttention.cpp), matches REGEX (so generated sources, in the build folder,
# are left alone).
function(attnlab_unity_by_folder target regex)
  if(NOT ATTNLAB_UNITY_BUILD)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "EXCLUDE" ${ARGN})
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  get_target_property(binary_dir ${target} BINARY_DIR)
  foreach(source IN LISTS sources)
    get_filename_component(path "${source}" ABSOLUTE BASE_DIR "${source_dir}")
    file(RELATIVE_PATH relative "${PROJECT_SOURCE_DIR}" "${path}")
    if(NOT source MATCHES "\\.cpp$" OR NOT relative MATCHES "${regex}")
      continue()
    endif()
    file(RELATIVE_PATH excluded_path "${source_dir}" "${path}")
    if(excluded_path IN_LIST ARG_EXCLUDE)
      continue()
    endif()
    get_filename_component(folder "${relative}" DIRECTORY)
    string(REPLACE "/" "_" group "${folder}")
    set_source_files_properties(${source} TARGET_DIRECTORY ${target} PROPERTIES UNITY_GROUP "${group}")
    # A batch of files that skip the target's precompiled header skips it too (CMake gives the unity file the
    # header otherwise: the engine's torch-free folders would then compile with LibTorch in sight). The file's
    # name is CMake's (3.25); were another CMake to name it otherwise, the batch would get the header: slower,
    # not wrong.
    get_source_file_property(skip ${source} TARGET_DIRECTORY ${target} SKIP_PRECOMPILE_HEADERS)
    if(skip)
      set_source_files_properties("${binary_dir}/CMakeFiles/${target}.dir/Unity/unity_${group}_cxx.cxx"
                                  TARGET_DIRECTORY ${target} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endif()
  endforeach()
endfunction()
