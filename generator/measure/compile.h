// Compiling and loading kernels moved to generator/kernel/compile.h, a layer below this one
// that needs no FFTW3 (splgen selftest); the measuring code keeps its names for them.
#pragma once
#include "generator/kernel/compile.h"

namespace splgen::measure {

using kernel::compile_shared_object;
using kernel::compiler_version;
using kernel::CompileError;
using kernel::default_compiler;
using kernel::have_program;
using kernel::keep_openmp_loaded;
using kernel::run_command;
using kernel::runtime_include_dir;
using kernel::SharedObject;
using kernel::shell_quote;
using kernel::TempDir;
using kernel::threading_flags;

}  // namespace splgen::measure
