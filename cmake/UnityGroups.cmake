# Unity batches by folder (ATTNLAB_UNITY_BUILD, on by default): each folder's .cpp files matched by REGEX are
# compiled as one translation unit, so the headers they share (LibTorch's precompiled one, Qt Widgets, the
# engine's) are read and their inline functions emitted once per folder instead of once per file. Measured
# (docs/BENCHMARKS.md): core/nn/layers' 17 files alone 93 s, as one unit 10 s. Adding a file touches only its
# folder's batch. What it asks of the code: helpers in anonymous namespaces named uniquely within their folder.
# ATTNLAB_UNITY_BUILD=OFF builds file by file (an edit then recompiles one file, and each file is shown to
# compile on its own includes).
option(ATTNLAB_UNITY_BUILD "Compile each folder of the engine's LibTorch code and of the window as one translation unit" ON)

# attnlab_unity_by_folder(TARGET REGEX [EXCLUDE file...]): group TARGET's sources whose path matches REGEX.
function(attnlab_unity_by_folder target regex)
  if(NOT ATTNLAB_UNITY_BUILD)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "EXCLUDE" ${ARGN})
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
  get_target_property(sources ${target} SOURCES)
  foreach(source IN LISTS sources)
    if(source MATCHES "\\.cpp$" AND source MATCHES "${regex}" AND NOT source IN_LIST ARG_EXCLUDE)
      get_filename_component(folder "${source}" DIRECTORY)
      if(folder STREQUAL "")
        set(folder "top")
      endif()
      string(REPLACE "/" "_" group "${target}_${folder}")
      set_source_files_properties(${source} TARGET_DIRECTORY ${target} PROPERTIES UNITY_GROUP "${group}")
    endif()
  endforeach()
endfunction()
