# Sanitizer and fuzzing builds of splgen (tests/fuzz/README.md). Included before any target,
# so that every library, the command and the tests are built alike.
#   SPLGEN_SANITIZE: AddressSanitizer and UndefinedBehaviorSanitizer, every report fatal.
#   SPLGEN_FUZZ (clang): SPLGEN_SANITIZE plus libFuzzer's coverage instrumentation; the fuzz
#     targets (tests/fuzz/) link libFuzzer's main instead of the standalone driver.
option(SPLGEN_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(SPLGEN_FUZZ "Build the fuzz targets with libFuzzer (needs clang; implies SPLGEN_SANITIZE)" OFF)
if(SPLGEN_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "SPLGEN_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
  set(SPLGEN_SANITIZE ON CACHE BOOL "Build with AddressSanitizer and UndefinedBehaviorSanitizer" FORCE)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
if(SPLGEN_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
