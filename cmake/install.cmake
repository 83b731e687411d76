# SPDX-License-Identifier: MIT
# Install rules: headers, the module libraries with an exported CMake package
# (find_package(critter) → critter::core, critter::anim, …, each carrying its dependencies), a
# pkg-config file, and the command-line tools when they are built.
include(CMakePackageConfigHelpers)

set(CRITTER_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/critter")
set(critter_targets "")
foreach(module ${CRITTER_MODULES})
  list(APPEND critter_targets critter_${module})
endforeach()

install(TARGETS ${critter_targets} EXPORT critterTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/critter" DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT critterTargets NAMESPACE critter:: DESTINATION ${CRITTER_CMAKE_DIR})

configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/critterConfig.cmake.in"
                              "${PROJECT_BINARY_DIR}/critterConfig.cmake"
                              INSTALL_DESTINATION ${CRITTER_CMAKE_DIR})
write_basic_package_version_file("${PROJECT_BINARY_DIR}/critterConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/critterConfig.cmake"
              "${PROJECT_BINARY_DIR}/critterConfigVersion.cmake"
        DESTINATION ${CRITTER_CMAKE_DIR})

# pkg-config: every module library, most dependent first.
set(CRITTER_PC_LIBS "")
foreach(module gl io config creature deform anim asset core)
  if(module IN_LIST CRITTER_MODULES)
    string(APPEND CRITTER_PC_LIBS " -lcritter_${module}")
  endif()
endforeach()
set(critter_pc_deps "assimp")
if(CRITTER_BUILD_GL)
  string(APPEND critter_pc_deps " epoxy egl glfw3")
endif()
# Static libraries need their dependencies on every link; shared ones only on a static link.
if(BUILD_SHARED_LIBS)
  set(CRITTER_PC_REQUIRES "glm")
  set(CRITTER_PC_REQUIRES_PRIVATE "${critter_pc_deps}")
  set(CRITTER_PC_LIBS_PRIVATE "-lsimdjson -lgif -ljpeg")
else()
  set(CRITTER_PC_REQUIRES "glm ${critter_pc_deps}")
  set(CRITTER_PC_REQUIRES_PRIVATE "")
  string(APPEND CRITTER_PC_LIBS " -lsimdjson -lgif -ljpeg")
  set(CRITTER_PC_LIBS_PRIVATE "")
endif()
# The prefix relative to the .pc file, so an installed tree can be moved.
file(RELATIVE_PATH CRITTER_PC_PREFIX "/root/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/root")
string(REGEX REPLACE "/$" "" CRITTER_PC_PREFIX "${CRITTER_PC_PREFIX}")
configure_file("${PROJECT_SOURCE_DIR}/cmake/critter.pc.in" "${PROJECT_BINARY_DIR}/critter.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/critter.pc" DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

if(TARGET critter)
  install(TARGETS critter RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
if(TARGET critter-viewer)
  install(TARGETS critter-viewer RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/critter)
