// parse_rule_file / parse_rule / load_rule_file (generator/parse/rule_parser.h): runs the X3
// grammar of rule files (rule_grammar_def.h) over the text, then builds RuleFile from
// the AST: folds the operator chains, flattens the n-ary formula operators, attaches the
// comment lines above each rule, and checks what the grammar cannot (tag arities, a Sigma-SPL
// left side binds each loop variable once, unique names, bounded depth), reporting at the node.
#include "generator/parse/rule_parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <exception>
#include <filesystem>
#include <fstream>
#include <new>
#include <set>
#include <sstream>
#include <string>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

#include "generator/ir/size_arith.h"
#include "generator/parse/rule_ast.h"
#include "generator/parse/rule_error_handler.h"
#include "generator/parse/rule_grammar.h"
#include "generator/parse/rule_grammar_def.h"

namespace splgen {

namespace parse {

RuleSyntaxError::RuleSyntaxError(SourcePos p, const std::string &message)
    : std::runtime_error(fmt::format("{}:{}:{}: {}", p.file, p.line, p.column, message)), pos(std::move(p)) {}

}  // namespace parse

namespace parse {

namespace rule_grammar {
BOOST_SPIRIT_INSTANTIATE(rule_file_text_type, iterator_type, context_type)
BOOST_SPIRIT_INSTANTIATE(single_rule_text_type, iterator_type, context_type)
}  // namespace rule_grammar

const rule_grammar::rule_file_text_type &rule_file_text() { return rule_grammar::rule_file_text; }
const rule_grammar::single_rule_text_type &single_rule_text() { return rule_grammar::single_rule_text; }

namespace {

using rule_grammar::error_handler_type;
using rule_grammar::iterator_type;

// Terms and size expressions nest at most this deep (the grammar bounds bracket nesting;
// this bounds what long chains of (x)~, ', ^ and binary size operators build), so that the
// consumers of the tree can recurse over it.
constexpr int kMaxDepth = 500;

std::string family_of(const std::string &path) {
  if (path == "<command line>") return "cmdline";
  return std::filesystem::path(path).stem().string();
}

// AST -> RuleFile.
class converter {
 public:
  explicit converter(const error_handler_type &handler) : handler_(handler) {}

  Rule rule(const rule_ast::rule_decl &node, const std::string &family) {
    Rule r;
    r.name = node.name;
    r.family = family;
    r.pos = pos(node);
    r.comment = comment_above(r.pos.line);
    int depth = 0;
    left_loops_.clear();
    rhs_ = false;
    r.lhs = term(node.lhs, depth);
    rhs_ = true;
    r.rhs = term(node.rhs, depth);
    r.conditions.reserve(node.conditions.size());
    for (const rule_ast::condition &c : node.conditions) r.conditions.push_back(condition(c));
    return r;
  }

  RuleSetDecl ruleset(const rule_ast::ruleset_decl &node) {
    RuleSetDecl s;
    s.name = node.name;
    s.rules = node.rules;
    s.pos = pos(node);
    return s;
  }

 private:
  SourcePos pos(const x3::position_tagged &node) const { return handler_.position_of(node); }

 public:
  // The offset of a node in the input.
  std::size_t offset(const x3::position_tagged &node) const {
    return std::size_t(std::distance(handler_.first(), handler_.iterator_of(node)));
  }

 private:

  void check_depth(int depth, const SourcePos &at, const char *what) const {
    if (depth > kMaxDepth)
      handler_.fail_at(at, fmt::format("{} nested too deeply (more than {} levels)", what, kMaxDepth));
  }

  // The comment lines directly above line `line` (each without its '#' and one space after
  // it), top to bottom, joined with '\n'.
  std::string comment_above(int line) const {
    std::vector<std::string> lines;
    for (int l = line - 1; l >= 1; --l) {
      std::string text = handler_.line_text(std::size_t(l));
      const std::size_t start = text.find_first_not_of(" \t\r\v\f");
      if (start == std::string::npos || text[start] != '#') break;
      std::size_t from = start + 1;
      if (from < text.size() && text[from] == ' ') ++from;
      std::size_t to = text.find_last_not_of(" \t\r\v\f");
      lines.push_back(to == std::string::npos || to < from ? std::string() : text.substr(from, to + 1 - from));
    }
    std::string out;
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
      if (!out.empty() || it != lines.rbegin()) out += '\n';
      out += *it;
    }
    return out;
  }

  // ---------------------------------------------------------------- size expressions

  static SizeExpr binary(SizeOp op, SizeExpr a, SizeExpr b) {
    SizeExpr e;
    e.op = op;
    e.args.reserve(2);
    e.args.push_back(std::move(a));
    e.args.push_back(std::move(b));
    return e;
  }

  SizeExpr size(const rule_ast::size_sum &node, const SourcePos &at, int &depth) const {
    SizeExpr acc = size(node.first, at, depth);
    for (const rule_ast::size_sum_op &op : node.rest) {
      int d = 0;
      SizeExpr operand = size(op.operand, at, d);
      acc = binary(op.op == '+' ? SizeOp::Add : SizeOp::Sub, std::move(acc), std::move(operand));
      depth = std::max(depth, d) + 1;
      check_depth(depth, at, "size expression");
    }
    return acc;
  }

  SizeExpr size(const rule_ast::size_product &node, const SourcePos &at, int &depth) const {
    SizeExpr acc = size(node.first, at, depth);
    for (const rule_ast::size_product_op &op : node.rest) {
      int d = 0;
      SizeExpr operand = size(op.operand, at, d);
      const SizeOp kind = op.op == '*' ? SizeOp::Mul : op.op == '/' ? SizeOp::Div : SizeOp::Mod;
      acc = binary(kind, std::move(acc), std::move(operand));
      depth = std::max(depth, d) + 1;
      check_depth(depth, at, "size expression");
    }
    return acc;
  }

  // A minus directly on a constant makes a negative constant: -1 is Const -1.
  SizeExpr size(const rule_ast::size_unary &node, const SourcePos &at, int &depth) const {
    SizeExpr e = size(node.value, at, depth);
    for (std::size_t i = 0; i < node.minuses.size(); ++i) {
      if (e.op == SizeOp::Const) {
        e.value = -e.value;  // |value| <= INT64_MAX: no overflow
        continue;
      }
      SizeExpr neg;
      neg.op = SizeOp::Neg;
      neg.args.push_back(std::move(e));
      e = std::move(neg);
      check_depth(++depth, at, "size expression");
    }
    return e;
  }

  // base ^ e1 ^ e2 = base ^ (e1 ^ e2)
  SizeExpr size(const rule_ast::size_power &node, const SourcePos &at, int &depth) const {
    if (node.exponents.empty()) return size(node.base, at, depth);
    SizeExpr acc = size(node.exponents.back(), at, depth);
    for (std::size_t i = node.exponents.size(); i-- > 0;) {
      int d = 0;
      SizeExpr base = i == 0 ? size(node.base, at, d) : size(node.exponents[i - 1], at, d);
      acc = binary(SizeOp::Pow, std::move(base), std::move(acc));
      depth = std::max(depth, d) + 1;
      check_depth(depth, at, "size expression");
    }
    return acc;
  }

  SizeExpr size(const rule_ast::size_primary &node, const SourcePos &at, int &depth) const {
    const auto &v = node.get();
    if (const auto *value = boost::get<int64_t>(&v)) {
      SizeExpr e;
      e.op = SizeOp::Const;
      e.value = *value;
      depth = 1;
      return e;
    }
    if (const auto *name = boost::get<std::string>(&v)) {
      SizeExpr e;
      e.op = SizeOp::Var;
      e.name = *name;
      depth = 1;
      return e;
    }
    return size(boost::get<x3::forward_ast<rule_ast::size_sum>>(v).get(), at, depth);
  }

  std::vector<SizeExpr> sizes(const std::vector<rule_ast::size_expr> &nodes, const SourcePos &at) const {
    std::vector<SizeExpr> out;
    out.reserve(nodes.size());
    for (const rule_ast::size_expr &n : nodes) out.push_back(size(n, at));
    return out;
  }
  SizeExpr size(const rule_ast::size_expr &node, const SourcePos &at) const {
    int depth = 0;
    SizeExpr e = size(node, at, depth);
    // A constant part that overflows or divides by zero can never have a value.
    if (std::optional<SizeResult> c = fold_size_constant(e);
        c && (c->fault == SizeFault::Overflow || c->fault == SizeFault::DivisionByZero))
      handler_.fail_at(at, fmt::format("size expression {}", size_fault_text(c->fault)));
    return e;
  }

  // ---------------------------------------------------------------- formulas

  // An n-ary chain; operands that are chains of the same operator (written in parentheses)
  // are spliced in: (A * B) * C is A * B * C.
  template <typename Chain>
  Term chain(const Chain &node, SplKind kind, int &depth) {
    Term first = term(node.first, depth);
    if (node.rest.empty()) return first;
    Term t;
    t.kind = kind;
    t.pos = pos(node);
    append(t, std::move(first));
    for (const auto &operand : node.rest) {
      int d = 0;
      append(t, term(operand, d));
      depth = std::max(depth, d);
    }
    check_depth(++depth, t.pos, "formula");
    return t;
  }
  static void append(Term &chain, Term operand) {
    if (operand.kind == chain.kind) {
      for (Term &c : operand.children) chain.children.push_back(std::move(c));
    } else {
      chain.children.push_back(std::move(operand));
    }
  }

  // Every operator chain (chain_ast.h): (x), (x)~, (+), * and |.
  template <typename Operator, typename Operand>
  Term term(const chain_ast::chain<Operator, Operand> &node, int &depth) {
    if constexpr (Operator::kind == SplKind::TileTensor)
      return tile_chain(node, depth);
    else
      return chain(node, Operator::kind, depth);
  }
  Term term(const rule_ast::fence_expr &node, int &depth) { return chain(node, SplKind::Fence, depth); }

  // A (x)~ B (x)~ C is (A (x)~ B) (x)~ C: TileTensor has two children.
  Term tile_chain(const rule_ast::tile_expr &node, int &depth) {
    Term acc = term(node.first, depth);
    for (const rule_ast::tensor_expr &operand : node.rest) {
      int d = 0;
      Term rhs = term(operand, d);
      Term t;
      t.kind = SplKind::TileTensor;
      t.pos = pos(node);
      t.children.reserve(2);
      t.children.push_back(std::move(acc));
      t.children.push_back(std::move(rhs));
      acc = std::move(t);
      depth = std::max(depth, d) + 1;
      check_depth(depth, acc.pos, "formula");
    }
    return acc;
  }

  Term term(const rule_ast::postfix_expr &node, int &depth) {
    Term acc = term(node.base, depth);
    for (std::size_t i = 0; i < node.primes.size(); ++i) {
      Term t;
      t.kind = SplKind::Transpose;
      t.pos = pos(node);
      t.children.push_back(std::move(acc));
      acc = std::move(t);
      check_depth(++depth, acc.pos, "formula");
    }
    return acc;
  }

  Term term(const rule_ast::primary &node, int &depth) {
    return node.apply_visitor(x3::make_lambda_visitor<Term>([&](const auto &n) { return primary(n, depth); }));
  }

  Term primary(const rule_ast::dft_term &node, int &depth) {
    Term t;
    t.pos = pos(node);
    t.sizes = sizes(node.dims, t.pos);
    if (node.dims.size() == 1) {
      t.kind = SplKind::DFT;
      if (node.root) t.sizes.push_back(size(*node.root, t.pos));
    } else {
      t.kind = SplKind::DFTnd;
      t.has_root = bool(node.root);
      if (node.root) {
        t.root = size(*node.root, t.pos);
      } else {
        t.root.op = SizeOp::Const;
        t.root.value = 1;
      }
    }
    depth = 1;
    return t;
  }

  Term primary(const rule_ast::real_term &node, int &depth) {
    Term t;
    t.pos = pos(node);
    t.kind = SplKind::RealTransform;
    t.real = node.kind;
    t.sizes = sizes(node.dims, t.pos);
    depth = 1;
    return t;
  }

  Term primary(const rule_ast::sized_atom &node, int &depth) {
    Term t;
    t.pos = pos(node);
    t.kind = node.kind;
    t.sizes = sizes(node.args, t.pos);
    depth = 1;
    return t;
  }

  Term primary(const rule_ast::formula_var &node, int &depth) {
    Term t;
    t.kind = SplKind::FormulaVar;
    t.pos = pos(node);
    t.name = node.name;
    t.shape = sizes(node.shape, t.pos);
    depth = 1;
    return t;
  }

  Term primary(const rule_ast::function_call &node, int &depth) {
    Term t;
    t.kind = SplKind::Call;
    t.pos = pos(node);
    t.name = node.name;
    t.sizes = sizes(node.args, t.pos);
    depth = 1;
    return t;
  }

  Term primary(const rule_ast::access &node, int &depth) {
    Term t;
    t.pos = pos(node);
    t.kind = node.kind == rule_ast::access_kind::gather || node.kind == rule_ast::access_kind::gather_dma
                 ? SplKind::Gather
                 : SplKind::Scatter;
    t.dma = node.kind == rule_ast::access_kind::gather_dma || node.kind == rule_ast::access_kind::scatter_dma;
    t.fn.kind = node.fn.kind;
    t.fn.args = sizes(node.fn.args, t.pos);
    depth = 1;
    return t;
  }

  Term primary(const x3::forward_ast<rule_ast::sum_term> &fwd, int &depth) {
    const rule_ast::sum_term &node = fwd.get();
    Term t;
    t.kind = SplKind::Sum;
    t.pos = pos(node);
    t.mode = node.mode;
    t.name = node.var;
    // A match binds a left side's loop variables by name (the right side reuses them).
    if (!rhs_ && !left_loops_.insert(t.name).second)
      handler_.fail_at(t.pos, fmt::format("loop variable {} is bound twice on the left side", t.name));
    t.sizes.push_back(size(node.bound, t.pos));
    t.children.push_back(term(node.body, depth));
    check_depth(++depth, t.pos, "formula");
    return t;
  }

  Term primary(const x3::forward_ast<rule_ast::tagged_term> &fwd, int &depth) {
    const rule_ast::tagged_term &node = fwd.get();
    Term t;
    t.kind = SplKind::Tagged;
    t.pos = pos(node);
    t.tag = node.kind;
    if (node.params.size() != tag_arity(node.kind))
      handler_.fail_at(t.pos, fmt::format("tag {} takes {} parameter(s), got {}", tag_name(node.kind),
                                          tag_arity(node.kind), node.params.size()));
    t.sizes = sizes(node.params, t.pos);
    t.children.push_back(term(node.body, depth));
    check_depth(++depth, t.pos, "formula");
    return t;
  }

  Term primary(const x3::forward_ast<rule_ast::diag_term> &fwd, int &depth) {
    const rule_ast::diag_term &node = fwd.get();
    Term t;
    t.kind = SplKind::Diag;
    t.pos = pos(node);
    t.fn.kind = node.fn.kind;
    t.fn.args = sizes(node.fn.args, t.pos);
    t.children.push_back(term(node.source, depth));
    check_depth(++depth, t.pos, "formula");
    return t;
  }

  Term primary(const x3::forward_ast<rule_ast::fence_expr> &fwd, int &depth) { return term(fwd.get(), depth); }

  // ---------------------------------------------------------------- conditions

  Condition condition(const rule_ast::condition &node) {
    return node.apply_visitor(x3::make_lambda_visitor<Condition>([&](const auto &n) { return condition_of(n); }));
  }

  Condition condition_of(const rule_ast::predicate &node) const {
    Condition c;
    c.kind = node.kind;
    c.pos = pos(node);
    c.args = sizes(node.args, c.pos);
    return c;
  }

  Condition condition_of(const rule_ast::let_binding &node) const {
    Condition c;
    c.kind = ConditionKind::Let;
    c.pos = pos(node);
    c.name = node.name;
    c.args.push_back(size(node.value, c.pos));
    return c;
  }

  Condition condition_of(const rule_ast::relation &node) const {
    Condition c;
    c.pos = pos(node);
    c.args.push_back(size(node.lhs, c.pos));
    const auto &tail = node.tail.get();
    if (const auto *cmp = boost::get<rule_ast::compare_tail>(&tail)) {
      c.kind = ConditionKind::Compare;
      c.op = cmp->op;
      c.args.push_back(size(cmp->rhs, c.pos));
    } else {
      const auto &range = boost::get<rule_ast::range_tail>(tail);
      c.kind = ConditionKind::Range;
      c.args.push_back(size(range.lo, c.pos));
      c.args.push_back(size(range.hi, c.pos));
    }
    return c;
  }

  const error_handler_type &handler_;
  bool rhs_ = false;
  std::set<std::string> left_loops_;  // loop variables of the left side being converted
};

// Runs a top-level rule of the grammar over `text`; every failure is a RuleSyntaxError.
template <typename Grammar, typename Tree, typename Convert>
auto run(std::string_view text, const std::string &path, const Grammar &grammar, Tree &tree, Convert convert) {
  try {
    iterator_type first = text.begin();
    const iterator_type last = text.end();
    error_handler_type handler(first, last, path);
    const auto parser = x3::with<x3::error_handler_tag>(std::ref(handler))[grammar];
    if (!x3::phrase_parse(first, last, parser, rule_grammar::skipper, tree))
      handler.fail(first, "expected 'rule' or 'ruleset'");  // not reached: the grammar reports its failures
    return convert(handler);
  } catch (const parse::RuleSyntaxError &) {
    throw;
  } catch (const std::bad_alloc &) {
    throw parse::RuleSyntaxError(SourcePos{path, 1, 1}, "out of memory");
  } catch (const std::exception &e) {
    throw parse::RuleSyntaxError(SourcePos{path, 1, 1}, fmt::format("internal error: {}", e.what()));
  }
}

}  // namespace

}  // namespace parse

namespace parse {

// Where a comment starting at `i` ends: at the line end, '\n' or '\r' (x3::eol, as the skipper).
std::size_t comment_end(std::string_view text, std::size_t i) {
  const std::size_t end = text.find_first_of("\r\n", i);
  return end == std::string_view::npos ? text.size() : end;
}

// The rule's text as written, "LEFT => RIGHT [if ...]", comments dropped and whitespace
// collapsed: from after "rule NAME:" (the rule starting at byte `start`: several rules may
// share a line) to the terminating ';' (or the end).
std::string rule_text(std::string_view text, std::size_t start) {
  std::size_t colon = start;
  while (colon < text.size() && text[colon] != ':')
    colon = text[colon] == '#' ? comment_end(text, colon) : colon + 1;  // a comment between "rule" and NAME
  if (colon >= text.size()) return "";
  std::string out;
  bool space = false;
  for (std::size_t i = colon + 1; i < text.size() && text[i] != ';'; ++i) {
    char c = text[i];
    if (c == '#') {
      i = comment_end(text, i);
      c = ' ';
    }
    if (std::isspace(static_cast<unsigned char>(c))) {  // x3::ascii::space, as the skipper
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

RuleFile parse_rule_file(std::string_view text, const std::string &path) {
  rule_ast::rule_file tree;
  return run(text, path, rule_file_text(), tree, [&](const rule_grammar::error_handler_type &handler) {
    RuleFile file;
    file.path = path;
    const std::string family = family_of(path);
    converter convert(handler);
    std::unordered_map<std::string, SourcePos> rule_names, set_names;
    for (const rule_ast::statement &statement : tree) {
      if (const auto *decl = boost::get<rule_ast::rule_decl>(&statement.get())) {
        Rule rule = convert.rule(*decl, family);
        rule.text = rule_text(text, convert.offset(*decl));
        auto [it, fresh] = rule_names.emplace(rule.name, rule.pos);
        if (!fresh)
          throw RuleSyntaxError(rule.pos, fmt::format("duplicate rule name '{}' (first defined at line {})",
                                                      rule.name, it->second.line));
        file.rules.push_back(std::move(rule));
      } else {
        RuleSetDecl set = convert.ruleset(boost::get<rule_ast::ruleset_decl>(statement.get()));
        auto [it, fresh] = set_names.emplace(set.name, set.pos);
        if (!fresh)
          throw RuleSyntaxError(set.pos, fmt::format("duplicate ruleset name '{}' (first defined at line {})",
                                                     set.name, it->second.line));
        file.sets.push_back(std::move(set));
      }
    }
    return file;
  });
}

Rule parse_rule(std::string_view text, const std::string &path) {
  rule_ast::rule_decl tree;
  return run(text, path, single_rule_text(), tree, [&](const rule_grammar::error_handler_type &handler) {
    converter convert(handler);
    Rule rule = convert.rule(tree, family_of(path));
    rule.text = rule_text(text, convert.offset(tree));
    return rule;
  });
}

RuleFile load_rule_file(const std::string &path) {
  std::string text;
  try {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec) || ec) throw RuleSyntaxError(SourcePos{path, 0, 0}, "cannot read file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw RuleSyntaxError(SourcePos{path, 0, 0}, "cannot read file");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) throw RuleSyntaxError(SourcePos{path, 0, 0}, "cannot read file");
    text = std::move(buffer).str();
  } catch (const RuleSyntaxError &) {
    throw;
  } catch (const std::exception &) {
    throw RuleSyntaxError(SourcePos{path, 0, 0}, "cannot read file");
  }
  return parse_rule_file(text, path);
}

}  // namespace parse

}  // namespace splgen
