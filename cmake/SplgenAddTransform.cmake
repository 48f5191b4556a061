# splgen_add_transform(): generate an FFT kernel with splgen at build time and compile it into
# a target (docs/cmake.md).
#
#   splgen_add_transform(<target>
#     SPEC "DFT(1024)"            # the transform (formula language, docs/formula-language.md)
#     NAME fft1024                # the C function, and the files NAME.cpp / NAME.h
#     [ISA scalar|sse2|avx2|avx512|native]   # default scalar; native: the best of the build host
#     [PRECISION double|float]    # default double
#     [INVERSE]                   # the inverse (unnormalised) DFT
#     [WISDOM file]               # splgen gen --wisdom file
#     [RULES file...]             # splgen gen --rules file (extra rule files)
#     [THREADS n]                 # splgen gen --threads n: n workers inside the kernel
#     [THREADING openmp|team]     # how they run (default openmp: links OpenMP::OpenMP_CXX;
#                                 #   team: <splgen/runtime/thread_team.h> and Threads::Threads)
#                                 # A SPEC with a stream, tiled or cubic tag (docs/streaming.md) gets the runtime
#                                 #   headers (<splgen/runtime/dma.h>) and Threads::Threads too.
#     [RANKS p]                   # splgen gen --target mpi --ranks p: a distributed kernel
#                                 #   NAME(y, x, comm) (docs/mpi.md); links MPI::MPI_CXX
#     [DISTRIBUTION block|cyclic] # with RANKS: how x and y are spread over the ranks (default block)
#     [DECOMPOSITION slab|pencil] # with RANKS, 3D: slabs (default) or pencils on a p0 x p1 grid
#     [GRID p0xp1]                # with DECOMPOSITION pencil: the grid (default: the squarest that fits)
#     [OVERLAP k]                 # with DECOMPOSITION pencil: each exchange in k chunks (MPI_Ialltoall)
#     [TARGET cpp|cuda]           # cuda: splgen gen --target cuda, NAME.cu (docs/cuda.md), compiled
#                                 #   with the CUDA language (enable it first); links CUDA::cudart
#     [OPTIONS arg...]            # further splgen gen arguments, e.g. --codelet-max 16
#     [OUTPUT_DIR dir])           # default ${CMAKE_CURRENT_BINARY_DIR}/splgen
#
# The generator runs at build time (add_custom_command), when the arguments, a rule file, the
# wisdom file or the splgen program change; NAME.cpp is added to <target>'s sources and the
# directory of NAME.h to its PUBLIC include directories, so targets linking <target> can
# `#include "NAME.h"`. Relative paths are relative to the current source directory.
#
# The splgen program: the cache variable SPLGEN_EXECUTABLE when set (cross builds, where the
# splgen target of an add_subdirectory build runs on the target machine, not on the host),
# else the target splgen::splgen (an installed splgen found by find_package, or the one
# an add_subdirectory'd splgen source tree builds), else `splgen` on the PATH.
include_guard(GLOBAL)

set(SPLGEN_EXECUTABLE "" CACHE FILEPATH
    "splgen program that splgen_add_transform runs (empty: the splgen::splgen target, or splgen on the PATH)")

# What a threaded kernel needs to compile and link (the kernel may still run on one thread
# when the size is too small to pay for more; linking costs nothing then).
function(_splgen_link_threading target threading where)
  if(threading STREQUAL "openmp")
    find_package(OpenMP COMPONENTS CXX)
    if(NOT OpenMP_CXX_FOUND)
      message(FATAL_ERROR "${where}: THREADS needs OpenMP for C++ (or THREADING team)")
    endif()
    target_link_libraries(${target} PUBLIC OpenMP::OpenMP_CXX)
  else()
    _splgen_link_runtime(${target} "THREADING team" "${where}")
  endif()
endfunction()

# What a kernel that includes splgen's runtime headers needs (the thread team; the DMA engines,
# whose default engine runs a copy thread).
function(_splgen_link_runtime target what where)
  find_package(Threads REQUIRED)
  get_property(runtime_dir GLOBAL PROPERTY SPLGEN_RUNTIME_INCLUDE_DIR)
  if(NOT runtime_dir)
    message(FATAL_ERROR "${where}: ${what} needs splgen's runtime headers (find_package(splgen) or add_subdirectory)")
  endif()
  target_include_directories(${target} PRIVATE "${runtime_dir}")
  target_link_libraries(${target} PUBLIC Threads::Threads)
endfunction()

function(splgen_add_transform target)
  set(flags INVERSE)
  set(one SPEC NAME ISA PRECISION WISDOM OUTPUT_DIR THREADS THREADING RANKS DISTRIBUTION DECOMPOSITION GRID OVERLAP TARGET)
  set(multi RULES OPTIONS)
  cmake_parse_arguments(PARSE_ARGV 1 arg "${flags}" "${one}" "${multi}")
  set(where "splgen_add_transform(${target})")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${where}: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "${where}: no target named ${target} (create it first, e.g. add_library(${target}))")
  endif()
  if(NOT DEFINED arg_SPEC OR arg_SPEC STREQUAL "")
    message(FATAL_ERROR "${where}: SPEC is required, e.g. SPEC \"DFT(1024)\"")
  endif()
  if(NOT DEFINED arg_NAME OR NOT arg_NAME MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "${where}: NAME must be a C identifier (the function name), got '${arg_NAME}'")
  endif()
  if(NOT DEFINED arg_ISA)
    set(arg_ISA scalar)
  endif()
  if(NOT arg_ISA MATCHES "^(scalar|sse2|avx2|avx512|native)$")
    message(FATAL_ERROR "${where}: ISA must be scalar, sse2, avx2, avx512 or native, got '${arg_ISA}'")
  endif()
  if(NOT DEFINED arg_PRECISION)
    set(arg_PRECISION double)
  endif()
  if(NOT arg_PRECISION MATCHES "^(double|float)$")
    message(FATAL_ERROR "${where}: PRECISION must be double or float, got '${arg_PRECISION}'")
  endif()
  if(DEFINED arg_THREADS AND NOT arg_THREADS MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "${where}: THREADS must be a positive integer, got '${arg_THREADS}'")
  endif()
  if(DEFINED arg_RANKS AND NOT arg_RANKS MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "${where}: RANKS must be a positive integer, got '${arg_RANKS}'")
  endif()
  if(DEFINED arg_DISTRIBUTION AND NOT arg_DISTRIBUTION MATCHES "^(block|cyclic)$")
    message(FATAL_ERROR "${where}: DISTRIBUTION must be block or cyclic, got '${arg_DISTRIBUTION}'")
  endif()
  if(DEFINED arg_DISTRIBUTION AND NOT DEFINED arg_RANKS)
    message(FATAL_ERROR "${where}: DISTRIBUTION needs RANKS (a distributed kernel)")
  endif()
  if(DEFINED arg_DECOMPOSITION AND NOT arg_DECOMPOSITION MATCHES "^(slab|pencil)$")
    message(FATAL_ERROR "${where}: DECOMPOSITION must be slab or pencil, got '${arg_DECOMPOSITION}'")
  endif()
  if(DEFINED arg_DECOMPOSITION AND NOT DEFINED arg_RANKS)
    message(FATAL_ERROR "${where}: DECOMPOSITION needs RANKS (a distributed kernel)")
  endif()
  if(DEFINED arg_GRID AND NOT arg_GRID MATCHES "^[1-9][0-9]*x[1-9][0-9]*$")
    message(FATAL_ERROR "${where}: GRID must be p0xp1 (such as 2x4), got '${arg_GRID}'")
  endif()
  if(DEFINED arg_GRID AND NOT arg_DECOMPOSITION STREQUAL "pencil")
    message(FATAL_ERROR "${where}: GRID needs DECOMPOSITION pencil")
  endif()
  if(DEFINED arg_OVERLAP AND NOT arg_OVERLAP MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "${where}: OVERLAP must be a positive integer, got '${arg_OVERLAP}'")
  endif()
  if(DEFINED arg_OVERLAP AND NOT arg_DECOMPOSITION STREQUAL "pencil")
    message(FATAL_ERROR "${where}: OVERLAP needs DECOMPOSITION pencil")
  endif()
  if(DEFINED arg_TARGET AND NOT arg_TARGET MATCHES "^(cpp|cuda)$")
    message(FATAL_ERROR "${where}: TARGET must be cpp or cuda (RANKS makes an MPI kernel), got '${arg_TARGET}'")
  endif()
  if(arg_TARGET STREQUAL "cuda")
    if(DEFINED arg_THREADS OR DEFINED arg_RANKS OR NOT arg_ISA STREQUAL "scalar")
      message(FATAL_ERROR "${where}: TARGET cuda takes no THREADS, RANKS or ISA (the GPU's threads are its own)")
    endif()
    get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
    if(NOT "CUDA" IN_LIST languages)
      message(FATAL_ERROR "${where}: TARGET cuda needs the CUDA language: project(... LANGUAGES CXX CUDA) or enable_language(CUDA)")
    endif()
  endif()
  if(NOT DEFINED arg_THREADING)
    set(arg_THREADING openmp)
  endif()
  if(NOT arg_THREADING MATCHES "^(openmp|team)$")
    message(FATAL_ERROR "${where}: THREADING must be openmp or team, got '${arg_THREADING}'")
  endif()
  if(NOT DEFINED arg_OUTPUT_DIR)
    set(arg_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/splgen")
  endif()
  get_filename_component(outdir "${arg_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")

  # The program, and what the generation depends on for it.
  if(SPLGEN_EXECUTABLE)
    set(exe "${SPLGEN_EXECUTABLE}")
    set(exe_depends "${SPLGEN_EXECUTABLE}")
  elseif(TARGET splgen::splgen)
    set(exe "$<TARGET_FILE:splgen::splgen>")
    set(exe_depends "$<TARGET_FILE:splgen::splgen>")
    get_target_property(imported splgen::splgen IMPORTED)
    if(NOT imported)
      get_target_property(real splgen::splgen ALIASED_TARGET)
      list(APPEND exe_depends ${real})  # target-level: build splgen first
    endif()
  else()
    find_program(SPLGEN_PROGRAM splgen)
    if(NOT SPLGEN_PROGRAM)
      message(FATAL_ERROR "${where}: no splgen program: find_package(splgen), add_subdirectory(splgen), "
                          "or set SPLGEN_EXECUTABLE")
    endif()
    set(exe "${SPLGEN_PROGRAM}")
    set(exe_depends "${SPLGEN_PROGRAM}")
  endif()

  set(source "${outdir}/${arg_NAME}.cpp")
  set(header "${outdir}/${arg_NAME}.h")
  set(args gen "${arg_SPEC}" --name ${arg_NAME} --isa ${arg_ISA} --precision ${arg_PRECISION})
  if(arg_TARGET STREQUAL "cuda")  # NAME.cu; its header includes <cuda_runtime.h>
    set(source "${outdir}/${arg_NAME}.cu")
    list(APPEND args --target cuda)
    find_package(CUDAToolkit REQUIRED)
    target_link_libraries(${target} PUBLIC CUDA::cudart)
  endif()
  if(arg_INVERSE)
    list(APPEND args --inverse)
  endif()
  if(DEFINED arg_THREADS AND arg_THREADS GREATER 1)
    list(APPEND args --threads ${arg_THREADS} --threading ${arg_THREADING})
    _splgen_link_threading(${target} ${arg_THREADING} "${where}")
  endif()
  if(DEFINED arg_RANKS)
    list(APPEND args --target mpi --ranks ${arg_RANKS})
    if(DEFINED arg_DISTRIBUTION)
      list(APPEND args --distribution ${arg_DISTRIBUTION})
    endif()
    if(DEFINED arg_DECOMPOSITION)
      list(APPEND args --decomposition ${arg_DECOMPOSITION})
    endif()
    if(DEFINED arg_GRID)
      list(APPEND args --grid ${arg_GRID})
    endif()
    if(DEFINED arg_OVERLAP)
      list(APPEND args --overlap ${arg_OVERLAP})
    endif()
    find_package(MPI COMPONENTS CXX)
    if(NOT MPI_CXX_FOUND)
      message(FATAL_ERROR "${where}: RANKS needs MPI for C++ (Debian: libopenmpi-dev)")
    endif()
    target_link_libraries(${target} PUBLIC MPI::MPI_CXX)
  endif()
  # a streamed kernel (stream, tiled and cubic tags) includes <splgen/runtime/dma.h>
  if(arg_SPEC MATCHES "(stream|tiled|cubic)[ \t]*\\(")
    _splgen_link_runtime(${target} "a stream, tiled or cubic tag" "${where}")
  endif()
  set(depends)
  if(arg_WISDOM)
    get_filename_component(wisdom "${arg_WISDOM}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND args --wisdom "${wisdom}")
    list(APPEND depends "${wisdom}")
  endif()
  foreach(rules IN LISTS arg_RULES)
    get_filename_component(rules "${rules}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND args --rules "${rules}")
    list(APPEND depends "${rules}")
  endforeach()
  list(APPEND args ${arg_OPTIONS})

  # The arguments go into a stamp file that changes only when they do (file(CONFIGURE) keeps
  # an unchanged file untouched): a new SPEC or flag re-runs the generator, a reconfigure
  # with the same ones does not.
  set(stamp "${outdir}/${arg_NAME}.args")
  string(REPLACE ";" "\n" stamp_text "${args}")
  file(CONFIGURE OUTPUT "${stamp}" CONTENT "${stamp_text}\n" @ONLY)

  add_custom_command(
    OUTPUT "${source}" "${header}"
    COMMAND "${exe}" ${args} -o "${source}" --header "${header}"
    DEPENDS "${stamp}" ${depends} ${exe_depends}
    COMMENT "splgen: generating ${arg_NAME} = ${arg_SPEC} (${arg_PRECISION}, ${arg_ISA})"
    VERBATIM)
  target_sources(${target} PRIVATE "${source}" "${header}")
  target_include_directories(${target} PUBLIC "$<BUILD_INTERFACE:${outdir}>")
endfunction()
