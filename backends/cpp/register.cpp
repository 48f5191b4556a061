#include "backends/cpp/register.h"

#include <memory>

#include "backends/cpp/complex_codelet.h"
#include "backends/cpp/cpp_backend.h"
#include "backends/cpp/kernel_names.h"
#include "backends/registry.h"

namespace splgen::backends {

namespace {

CppEmitOptions cpp_options(const EmitOptions &o) { return CppEmitOptions{o.precision, o.header_lines, o.isa, o.threading, o.dma}; }

class CppBackend final : public Backend {
 public:
  std::string name() const override { return "cpp"; }
  std::string summary() const override { return "C++, portable or with SSE2/AVX2/AVX-512 intrinsics (--isa)"; }
  bool accepts(Isa, Precision) const override { return true; }
  std::vector<TagKind> consumed_tags() const override { return {TagKind::Vec, TagKind::Smp, TagKind::Stream}; }
  bool prints_complex_codelets() const override { return true; }
  std::string kernel_name_problem(const std::string &name) const override { return cpp_kernel_name_problem(name); }
  std::string emit(const LoopProgram &p, const EmitOptions &o) const override {
    CppEmitOptions options = cpp_options(o);
    options.in_place = p.loops.in_place;  // a codelet in place reads all of xy before it writes
    return p.codelet ? emit_complex_codelet(*p.codelet, p.name(), options) : emit_cpp(p.loops, options);
  }
  std::string emit_header(const LoopProgram &p, const EmitOptions &o) const override {
    CppEmitOptions options = cpp_options(o);
    options.in_place = p.loops.in_place;
    options.split = !p.codelet && p.loops.buffers.size() > 1 && p.loops.buffers[kOutputBuffer].split;
    options.split_x = !p.codelet && p.loops.buffers.size() > 1 && p.loops.buffers[kInputBuffer].split;
    return backends::emit_header(p.name(), options, p.loops.dma_tags > 0 && !p.codelet);
  }
};

}  // namespace

void register_cpp_backend() { register_backend(std::make_unique<CppBackend>()); }

}  // namespace splgen::backends
