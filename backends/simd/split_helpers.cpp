#include "backends/simd/split_helpers.h"

#include <fmt/format.h>

#include <stdexcept>
#include <vector>

namespace splgen::backends::simd {
namespace {

bool is_double(const VectorKind &k) { return k.precision == Precision::Double; }
std::string real_type(const VectorKind &k) { return is_double(k) ? "double" : "float"; }

// The lane order as a permutation of 64-bit units (a float lane pair is one unit): register
// unit u holds memory unit perm[u]; with inverse, the permutation back.
std::vector<int> unit_permutation(const VectorKind &k, bool inverse) {
  const std::vector<int> order = k.lane_order();
  const int per = is_double(k) ? 1 : 2, units = k.lanes / per;
  std::vector<int> perm(std::size_t(units), 0);
  for (int u = 0; u < units; ++u) {
    const int first = order[std::size_t(u * per)];
    if (first % per != 0 || (per == 2 && order[std::size_t(u * per + 1)] != first + 1))
      throw std::logic_error(fmt::format("split helpers: lane order of {} is not one of 64-bit units", k.suffix()));
    perm[std::size_t(u)] = first / per;
  }
  if (!inverse) return perm;
  std::vector<int> inv(perm.size(), 0);
  for (std::size_t u = 0; u < perm.size(); ++u) inv[std::size_t(perm[u])] = int(u);
  return inv;
}

// v with its 64-bit units permuted (register order from memory order, or back).
std::string permuted(const VectorKind &k, const std::string &v, bool inverse) {
  const std::vector<int> perm = unit_permutation(k, inverse);
  bool identity = true;
  for (std::size_t u = 0; u < perm.size(); ++u) identity = identity && perm[u] == int(u);
  if (identity) return v;
  const bool dbl = is_double(k);
  if (k.bits() == 256) {  // one vpermpd: result unit u = source unit imm[2u+1:2u]
    int imm = 0;
    for (std::size_t u = 0; u < perm.size(); ++u) imm |= perm[u] << (2 * u);
    std::string p = fmt::format("_mm256_permute4x64_pd({}, 0x{:02X})", dbl ? v : "_mm256_castps_pd(" + v + ")", imm);
    return dbl ? p : "_mm256_castpd_ps(" + p + ")";
  }
  if (k.bits() == 512) {  // vpermpd with an index vector (_mm512_set_epi64 lists unit 7 first)
    std::string idx;
    for (std::size_t u = perm.size(); u-- > 0;) idx += fmt::format("{}{}", idx.empty() ? "" : ", ", perm[u]);
    std::string p = fmt::format("_mm512_permutexvar_pd(_mm512_set_epi64({}), {})", idx, dbl ? v : "_mm512_castps_pd(" + v + ")");
    return dbl ? p : "_mm512_castpd_ps(" + p + ")";
  }
  throw std::logic_error(fmt::format("split helpers: no permute for {}", k.suffix()));
}

std::string pointers(const std::string &type, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += fmt::format("{}{} *p{}", i ? ", " : "", type, i);
  return s;
}

// The lanes x lanes transpose of v[0..lanes-1]: the interleaved group helpers' one where the
// kind has it (VectorKind::group() > 1), else (SSE2 double) one unpack each way.
std::string transpose(const VectorKind &k) {
  if (k.group() > 1) return fmt::format("  splgen_transpose_{}(v);\n", k.suffix());
  if (k.lanes != 2) throw std::logic_error(fmt::format("split helpers: no transpose for {}", k.suffix()));
  return fmt::format("  const {0} t0 = {1}(v[0], v[1]), t1 = {2}(v[0], v[1]);\n  v[0] = t0;\n  v[1] = t1;\n", k.type(),
                     k.op("unpacklo"), k.op("unpackhi"));
}

std::string lane_mask(const VectorKind &k) {
  return fmt::format("({})((1u << n) - 1u)", is_double(k) ? "__mmask8" : "__mmask16");
}

}  // namespace

std::string split_load_helper(const VectorKind &k) { return "splgen_loads_" + k.suffix(); }
std::string split_store_helper(const VectorKind &k) { return "splgen_stores_" + k.suffix(); }
std::string split_load_group_helper(const VectorKind &k) { return "splgen_loadgs_" + k.suffix(); }
std::string split_store_group_helper(const VectorKind &k) { return "splgen_storegs_" + k.suffix(); }
std::string split_load_masked_helper(const VectorKind &k) { return "splgen_loadsm_" + k.suffix(); }
std::string split_store_masked_helper(const VectorKind &k) { return "splgen_storesm_" + k.suffix(); }

std::string split_helpers(const VectorKind &k, const std::string &target) {
  const std::string T = real_type(k), V = k.type();
  const std::string guard = fmt::format("SPLGEN_SIMD_SPLIT_HELPERS_{}", k.suffix());
  const std::string attrs = "static inline __attribute__((always_inline, unused)) " + target + (target.empty() ? "" : " ");
  std::string out = fmt::format("#ifndef {0}\n#define {0}\n", guard);
  out += fmt::format("{}{} {}(const {} *p) {{\n  return {};\n}}\n", attrs, V, split_load_helper(k), T,
                     permuted(k, k.op("loadu") + "(p)", false));
  out += fmt::format("{}void {}({} *p, {} v) {{\n  {}(p, {});\n}}\n", attrs, split_store_helper(k), T, V, k.op("storeu"),
                     permuted(k, "v", true));
  std::string regs_out, regs_in, assign_out, assign_in;
  for (int j = 0; j < k.lanes; ++j) {
    regs_out += fmt::format("{0}{1} &v{2}", j ? ", " : "", V, j);
    regs_in += fmt::format(", {} v{}", V, j);
    assign_out += fmt::format("  v{0} = v[{0}];\n", j);
    assign_in += fmt::format("{}v{}", j ? ", " : "", j);
  }
  out += fmt::format("{}void {}({}, {}) {{\n  {} v[{}];\n", attrs, split_load_group_helper(k), regs_out,
                     pointers("const " + T, k.lanes), V, k.lanes);
  for (int l = 0; l < k.lanes; ++l) out += fmt::format("  v[{0}] = {1}(p{0});\n", l, k.op("loadu"));
  out += transpose(k) + assign_out + "}\n";
  out += fmt::format("{}void {}({}{}) {{\n  {} v[{}] = {{{}}};\n", attrs, split_store_group_helper(k), pointers(T, k.lanes),
                     regs_in, V, k.lanes, assign_in);
  out += transpose(k);
  for (int l = 0; l < k.lanes; ++l) out += fmt::format("  {1}(p{0}, v[{0}]);\n", l, k.op("storeu"));
  out += "}\n";
  if (k.bits() == 512) {
    out += fmt::format("{}{} {}(const {} *p, int n) {{\n  return {};\n}}\n", attrs, V, split_load_masked_helper(k), T,
                       permuted(k, fmt::format("{}({}, p)", k.op("maskz_loadu"), lane_mask(k)), false));
    out += fmt::format("{}void {}({} *p, {} v, int n) {{\n  {}(p, {}, {});\n}}\n", attrs, split_store_masked_helper(k), T, V,
                       k.op("mask_storeu"), lane_mask(k), permuted(k, "v", true));
  }
  out += fmt::format("#endif  // {}\n", guard);
  return out;
}

}  // namespace splgen::backends::simd
