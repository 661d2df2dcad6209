# Debian package of the app and CLI: `cpack -G DEB` in the build directory gives
# attnlab_VERSION_ARCH.deb, installing under /usr, stripped (1.6 MB instead of 77 MB of debug info),
# dependencies computed by dpkg-shlibdeps, plus a fast BLAS: Debian's
# LibTorch calls whatever libblas.so.3 is installed, and the reference one is ~13x slower (DESIGN.md trap 3).
set(CPACK_PACKAGE_NAME "attnlab")
set(CPACK_PACKAGE_VENDOR "Attention Lab developers")
set(CPACK_PACKAGE_CONTACT "Attention Lab developers <attnlab@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "interactive lab for self-attention and recurrent networks")
set(CPACK_PACKAGE_DESCRIPTION "Attention Lab trains the self-attention networks of a thesis (SSAN, ESSAN,
Transformer encoder) against LSTM, BiLSTM, GRU and CNN on sentiment and time-series data, plots
training live, shows attention heatmaps, and keeps every run in SQLite to compare later. Includes
the attnlab window and the attnlab-cli command line.")
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # attnlab_<project version>_amd64.deb, the Debian way
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${ATTNLAB_HOMEPAGE}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libopenblas0-openmp | libopenblas0-pthread | libblis4-openmp")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-dejavu-core")
set(CPACK_STRIP_FILES ON)
include(CPack)
