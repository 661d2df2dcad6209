# Debian package of the app and CLI: `cpack -G DEB` in the build directory.
set(CPACK_PACKAGE_NAME "attnlab")
set(CPACK_PACKAGE_CONTACT "Attention Lab developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_GENERATOR "DEB")
include(CPack)
