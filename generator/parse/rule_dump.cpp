// dump (generator/parse/rule_parser.h): the canonical text of a parsed RuleFile, one line per
// rule, term and condition with its position; the golden files of tests/golden/rules/ hold it.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "generator/parse/rule_parser.h"

namespace splgen::parse {

namespace {

// Binary operations are parenthesised, except at the top of an expression; so are a nested
// negation and a nested negative constant: "a + (b * c)", "-(n ^ 2)", "(-n) ^ 2", "n - (-1)".
void dump_size(std::string &out, const SizeExpr &e, bool top) {
  auto binary = [&](const char *op) {
    if (!top) out += '(';
    if (e.args.size() > 0) dump_size(out, e.args[0], false);
    out += ' ';
    out += op;
    out += ' ';
    if (e.args.size() > 1) dump_size(out, e.args[1], false);
    if (!top) out += ')';
  };
  switch (e.op) {
    case SizeOp::Const:
      out += top || e.value >= 0 ? std::to_string(e.value) : fmt::format("({})", e.value);
      return;
    case SizeOp::Var: out += e.name; return;
    case SizeOp::Add: binary("+"); return;
    case SizeOp::Sub: binary("-"); return;
    case SizeOp::Mul: binary("*"); return;
    case SizeOp::Div: binary("/"); return;
    case SizeOp::Mod: binary("%"); return;
    case SizeOp::Pow: binary("^"); return;
    case SizeOp::Neg:
      out += top ? "-" : "(-";
      if (!e.args.empty()) dump_size(out, e.args[0], false);
      if (!top) out += ')';
      return;
  }
  out += "?";
}

std::string sizes_text(const std::vector<SizeExpr> &sizes, const char *separator = ", ") {
  std::string out;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (i > 0) out += separator;
    dump_size(out, sizes[i], true);
  }
  return out;
}

std::string size_text(const SizeExpr &e) {
  std::string out;
  dump_size(out, e, true);
  return out;
}

std::string pos_text(const SourcePos &pos, const std::string &file) {
  if (pos.file == file) return fmt::format("@{}:{}", pos.line, pos.column);
  return fmt::format("@{}:{}:{}", pos.file, pos.line, pos.column);
}

void dump_term(std::string &out, const Term &t, int indent, const std::string &file) {
  out.append(std::size_t(indent), ' ');
  out += kind_name(t.kind);
  out += ' ';
  out += pos_text(t.pos, file);
  switch (t.kind) {
    case SplKind::DFT:
    case SplKind::Identity:
    case SplKind::Stride:
    case SplKind::Twiddle: out += " (" + sizes_text(t.sizes) + ")"; break;
    case SplKind::DFTnd:
      out += " (" + sizes_text(t.sizes, " x ");
      if (t.has_root) out += ", " + size_text(t.root);
      out += ")";
      if (!t.has_root && !(t.root.op == SizeOp::Const && t.root.value == 1)) out += " root=" + size_text(t.root);
      break;
    case SplKind::Tagged: out += fmt::format(" {}({})", tag_name(t.tag), sizes_text(t.sizes)); break;
    case SplKind::RealTransform: out += fmt::format(" {}({})", real_kind_name(t.real), sizes_text(t.sizes, " x ")); break;
    case SplKind::FormulaVar:
      out += " " + t.name;
      if (!t.shape.empty()) out += fmt::format("[{}]", sizes_text(t.shape));
      break;
    case SplKind::Call: out += fmt::format(" @{}({})", t.name, sizes_text(t.sizes)); break;
    case SplKind::Sum: {
      const char *mode = t.mode == SumMode::Plain ? "Sum" : t.mode == SumMode::Parallel ? "Sum_par" : "Sum_stream";
      out += fmt::format(" {}({} < {})", mode, t.name, sizes_text(t.sizes));
      break;
    }
    case SplKind::Gather:
    case SplKind::Scatter:
      out += fmt::format(" {}{}({}({}))", kind_token(t.kind), t.dma ? "_dma" : "",
                         t.fn.kind == FnKind::H ? "h" : t.fn.kind == FnKind::Q ? "q" : "?", sizes_text(t.fn.args));
      break;
    case SplKind::Diag:
      out += fmt::format(" o {}({})", t.fn.kind == FnKind::H ? "h" : t.fn.kind == FnKind::Q ? "q" : "?",
                         sizes_text(t.fn.args));
      break;
    default: break;
  }
  out += '\n';
  for (const Term &child : t.children) dump_term(out, child, indent + 2, file);
}

void dump_condition(std::string &out, const Condition &c, int indent, const std::string &file) {
  out.append(std::size_t(indent), ' ');
  auto arg = [&](std::size_t i) { return i < c.args.size() ? size_text(c.args[i]) : std::string("?"); };
  switch (c.kind) {
    case ConditionKind::Compare:
      out += fmt::format("Compare {} {} {} {}", pos_text(c.pos, file), arg(0), c.op, arg(1));
      break;
    case ConditionKind::Divides: out += fmt::format("Divides {} divides({})", pos_text(c.pos, file), sizes_text(c.args)); break;
    case ConditionKind::Coprime: out += fmt::format("Coprime {} coprime({})", pos_text(c.pos, file), sizes_text(c.args)); break;
    case ConditionKind::Prime: out += fmt::format("Prime {} prime({})", pos_text(c.pos, file), sizes_text(c.args)); break;
    case ConditionKind::PowerOf2: out += fmt::format("PowerOf2 {} pow2({})", pos_text(c.pos, file), sizes_text(c.args)); break;
    case ConditionKind::Range:
      out += fmt::format("Range {} {} in {}..{}", pos_text(c.pos, file), arg(0), arg(1), arg(2));
      break;
    case ConditionKind::Let: out += fmt::format("Let {} let {} = {}", pos_text(c.pos, file), c.name, arg(0)); break;
  }
  out += '\n';
}

}  // namespace

std::string dump(const RuleFile &file) {
  std::string out = "file " + file.path + "\n";
  for (const Rule &r : file.rules) {
    out += fmt::format("rule {} {} family={}\n", r.name, pos_text(r.pos, file.path), r.family);
    if (!r.comment.empty()) {
      std::size_t start = 0;
      while (true) {
        const std::size_t end = r.comment.find('\n', start);
        const std::string line = r.comment.substr(start, end == std::string::npos ? std::string::npos : end - start);
        out += line.empty() ? "  #\n" : "  # " + line + "\n";
        if (end == std::string::npos) break;
        start = end + 1;
      }
    }
    out += "  lhs\n";
    dump_term(out, r.lhs, 4, file.path);
    out += "  rhs\n";
    dump_term(out, r.rhs, 4, file.path);
    if (!r.conditions.empty()) {
      out += "  if\n";
      for (const Condition &c : r.conditions) dump_condition(out, c, 4, file.path);
    }
  }
  for (const RuleSetDecl &s : file.sets) {
    out += fmt::format("ruleset {} {} =", s.name, pos_text(s.pos, file.path));
    for (std::size_t i = 0; i < s.rules.size(); ++i) out += (i == 0 ? " " : ", ") + s.rules[i];
    out += '\n';
  }
  return out;
}

}  // namespace splgen::parse
