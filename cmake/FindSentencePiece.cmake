# SentencePiece (Debian: libsentencepiece-dev), translation's subword units: its processor and its trainer as
# SentencePiece::SentencePiece. Found by path rather than pkg-config so a sysroot given as CMAKE_INCLUDE_PATH /
# CMAKE_LIBRARY_PATH works (tools/device-check.sh): the .pc file's prefix is /usr wherever it was unpacked.
find_path(SentencePiece_INCLUDE_DIR sentencepiece_processor.h)
find_library(SentencePiece_LIBRARY sentencepiece)
find_library(SentencePiece_TRAIN_LIBRARY sentencepiece_train)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SentencePiece REQUIRED_VARS SentencePiece_LIBRARY SentencePiece_TRAIN_LIBRARY SentencePiece_INCLUDE_DIR)
if(SentencePiece_FOUND AND NOT TARGET SentencePiece::SentencePiece)
  add_library(SentencePiece::SentencePiece INTERFACE IMPORTED)
  set_target_properties(SentencePiece::SentencePiece PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${SentencePiece_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${SentencePiece_TRAIN_LIBRARY};${SentencePiece_LIBRARY}")
endif()
