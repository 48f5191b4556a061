# cmake --install: the splgen program, its rules, the CMake package (splgenConfig.cmake,
# splgenConfigVersion.cmake, splgenTargets.cmake, SplgenAddTransform.cmake), the runtime
# headers, the generated/ kernels, the docs, and a pkg-config file (docs/cmake.md).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SPLGEN_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/splgen" CACHE STRING
    "Where cmake --install puts splgenConfig.cmake (relative to the prefix)")

install(TARGETS splgen EXPORT splgenTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT splgenTargets NAMESPACE splgen:: DESTINATION ${SPLGEN_INSTALL_CMAKEDIR})

# An installed splgen reads PREFIX/share/splgen/rules (generator/rewrite/library.cpp).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/rules/ DESTINATION ${CMAKE_INSTALL_DATADIR}/splgen/rules
        FILES_MATCHING PATTERN "*.rules")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/splgen/runtime
        FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp" PATTERN "*.cuh")
install(FILES ${PROJECT_SOURCE_DIR}/generated/splgen_kernels.h ${PROJECT_SOURCE_DIR}/generated/README.md
        DESTINATION ${CMAKE_INSTALL_DATADIR}/splgen/generated OPTIONAL)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/generated/kernels DESTINATION ${CMAKE_INSTALL_DATADIR}/splgen/generated
        FILES_MATCHING PATTERN "*.cpp")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} FILES_MATCHING PATTERN "*.md")
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/splgenConfig.cmake.in
  ${PROJECT_BINARY_DIR}/splgenConfig.cmake
  INSTALL_DESTINATION ${SPLGEN_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_DATADIR CMAKE_INSTALL_INCLUDEDIR)
# splgen is a program: a consumer of any architecture may use it (cross builds), so the
# version file does not check the pointer size. 0.x versions: the same minor version.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/splgenConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/splgenConfig.cmake ${PROJECT_BINARY_DIR}/splgenConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/SplgenAddTransform.cmake
        DESTINATION ${SPLGEN_INSTALL_CMAKEDIR})

# pkg-config, for builds without CMake: `pkg-config --variable=splgen splgen` names the program.
configure_file(${PROJECT_SOURCE_DIR}/cmake/splgen.pc.in ${PROJECT_BINARY_DIR}/splgen.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/splgen.pc DESTINATION ${CMAKE_INSTALL_DATADIR}/pkgconfig)
