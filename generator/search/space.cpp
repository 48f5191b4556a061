#include "generator/search/space.h"

#include <fmt/format.h>

#include <algorithm>

#include "generator/driver/threads.h"
#include "generator/expand/breakdown.h"

namespace splgen::search {

bool codelet_allowed(const Spl &dft) { return dft->kind == SplKind::DFT && is_codelet_size(dft->a); }

namespace {

void collect_dfts(const Spl &f, std::vector<Spl> &out) {
  if (f->kind == SplKind::DFT || f->kind == SplKind::DFTnd) {
    out.push_back(f);
    return;
  }
  for (const Spl &c : f->children) collect_dfts(c, out);
}

Spl substitute_at(const Spl &f, const std::vector<Spl> &children, std::size_t &next) {
  if (f->kind == SplKind::DFT || f->kind == SplKind::DFTnd) return next < children.size() ? children[next++] : f;
  if (f->children.empty()) return f;
  std::vector<Spl> kids;
  for (const Spl &c : f->children) kids.push_back(substitute_at(c, children, next));
  return with_children(f, std::move(kids));
}

}  // namespace

std::string short_rule_name(const std::string &rule) {
  if (rule == "dft_ct_dit") return "dit";
  if (rule == "dft_ct_dif") return "dif";
  if (rule == "dft_good_thomas") return "gt";
  if (rule == "dft_rader") return "rader";
  if (rule == "dft_bluestein") return "bluestein";
  return rule;
}

std::vector<Split> splits(const Spl &dft, const std::vector<const Rule *> &breakdown) {
  std::vector<Split> out;
  for (const Rule *rule : breakdown) {
    for (rewrite::Match &m : rewrite::matches(*rule, dft)) {
      Split s;
      s.rule = rule->name;
      try {
        s.rhs = rewrite::instantiate_spl(rule->rhs, m);
      } catch (const std::exception &) {
        continue;  // a size that is not a positive integer under this match
      }
      collect_dfts(s.rhs, s.children);
      if (s.children.empty()) continue;  // base cases (dft_base_2) are codelets here
      bool smaller = std::all_of(s.children.begin(), s.children.end(),
                                 [&](const Spl &c) { return expand::is_smaller_problem(c->rows, dft->rows); });
      if (!smaller) continue;  // only smaller sub-problems (breakdown.h): plans are finite
      std::string sizes;
      for (const Spl &c : s.children) sizes += fmt::format("{}{}", sizes.empty() ? "" : ",", c->rows);
      s.label = fmt::format("{}({})", short_rule_name(rule->name), sizes);
      // Matches that give the same formula (e.g. symmetric size solutions) are one choice.
      bool seen = std::any_of(out.begin(), out.end(), [&](const Split &o) { return equal(o.rhs, s.rhs); });
      if (!seen) out.push_back(std::move(s));
    }
  }
  return out;
}

Spl substitute(const Spl &rhs, const std::vector<Spl> &children) {
  std::size_t next = 0;
  return substitute_at(rhs, children, next);
}

std::vector<int> width_choices(Isa isa, Precision precision) {
  std::vector<int> out = {0};
  std::vector<int> widths = vector_widths(isa, precision);  // widest first
  for (std::size_t i = 1; i < widths.size(); ++i) out.push_back(widths[i]);
  return out;
}

std::vector<int> packet_choices(int threads, int64_t points, Precision precision) {
  if (threads <= 1 || points < driver::kMinThreadedPoints) return {0};
  const int line = cache_line_complex(precision);
  return {0, 2 * line, 4 * line};
}

std::vector<TargetChoice> target_choices(Isa isa, Precision precision, int threads, int64_t points) {
  std::vector<TargetChoice> out;
  for (int packet : packet_choices(threads, points, precision))
    for (int width : width_choices(isa, precision)) out.push_back({width, packet});
  return out;
}

}  // namespace splgen::search
