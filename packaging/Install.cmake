# What `cmake --install` and the Debian package put under the prefix (/usr in the package): the two
# programs (app/CMakeLists.txt), the desktop entry, the hicolor icons, AppStream metainfo, man pages made
# from the programs' own --help by help2man, bash completion for the CLI, and the copyright file, the
# third-party notices and the changelog.
include(GNUInstallDirs)
set(ATTNLAB_HOMEPAGE "https://github.com/attnlab/attention-lab" CACHE STRING "The project's public address (AppStream)")

install(FILES ${PROJECT_SOURCE_DIR}/resources/org.attnlab.AttentionLab.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
configure_file(${PROJECT_SOURCE_DIR}/resources/org.attnlab.AttentionLab.metainfo.xml.in
               ${PROJECT_BINARY_DIR}/org.attnlab.AttentionLab.metainfo.xml @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/org.attnlab.AttentionLab.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/icons/org.attnlab.AttentionLab.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
foreach(size 16 32 48 64 128 256)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/icons/org.attnlab.AttentionLab-${size}.png
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps RENAME org.attnlab.AttentionLab.png)
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/packaging/attnlab-cli.bash-completion
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME attnlab-cli)
# The licence and the third-party notices where Debian keeps them (/usr/share/doc/attnlab/copyright), and what
# changed in each version.
install(FILES ${PROJECT_SOURCE_DIR}/packaging/copyright ${PROJECT_SOURCE_DIR}/THIRD-PARTY.md ${PROJECT_SOURCE_DIR}/CHANGELOG.md
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/attnlab)

# One version (project() in CMakeLists.txt) for both programs' --version, the package's name, Help > About and
# the AppStream releases: CHANGELOG.md must have its entry and the metainfo's newest <release> must name it.
file(STRINGS ${PROJECT_SOURCE_DIR}/CHANGELOG.md changelog_entry REGEX "^## \\[${PROJECT_VERSION}\\] - [0-9]")
if(NOT changelog_entry)
  message(FATAL_ERROR "CHANGELOG.md has no entry for version ${PROJECT_VERSION} (project() in CMakeLists.txt): "
                      "add \"## [${PROJECT_VERSION}] - YYYY-MM-DD\" with what changed")
endif()
file(STRINGS ${PROJECT_SOURCE_DIR}/resources/org.attnlab.AttentionLab.metainfo.xml.in newest_release
     REGEX "<release version=" LIMIT_COUNT 1)
if(NOT newest_release MATCHES "version=\"${PROJECT_VERSION}\"")
  message(FATAL_ERROR "resources/org.attnlab.AttentionLab.metainfo.xml.in: the newest <release> is not version "
                      "${PROJECT_VERSION} (project() in CMakeLists.txt)")
endif()

# Man pages from --help and --version (help2man, Debian package help2man), gzipped as Debian wants them.
find_program(HELP2MAN help2man)
find_program(GZIP gzip)
if(HELP2MAN AND GZIP)
  set(pages)
  set(programs attnlab-cli)
  if(ATTNLAB_GUI)
    list(APPEND programs attnlab)
  endif()
  foreach(program ${programs})
    if(program STREQUAL "attnlab")
      set(name "train self-attention and recurrent networks and look inside them (window)")
    else()
      set(name "train, compare and inspect attention models from the command line")
    endif()
    set(page ${PROJECT_BINARY_DIR}/man/${program}.1.gz)
    add_custom_command(OUTPUT ${page}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
      # The window's --help needs no display: Qt's offscreen platform.
      COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen
              ${HELP2MAN} --no-info --no-discard-stderr --section 1 --name ${name}
              --output ${PROJECT_BINARY_DIR}/man/${program}.1 $<TARGET_FILE:${program}>
      COMMAND ${GZIP} -9nf ${PROJECT_BINARY_DIR}/man/${program}.1
      DEPENDS ${program}
      COMMENT "man page of ${program} (help2man)"
      VERBATIM)
    list(APPEND pages ${page})
  endforeach()
  add_custom_target(manpages ALL DEPENDS ${pages})
  install(FILES ${pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "help2man not found: no man pages (Debian: apt-get install help2man)")
endif()
