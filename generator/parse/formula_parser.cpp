// parse_formula: runs the X3 grammar (formula_grammar_def.h) over the text, then builds the
// SPL formula from the AST with the checking make_*() factories, reporting their
// FormulaErrors at the source position of the node that failed.
#include "generator/parse/formula_parser.h"

#include <fmt/format.h>

#include <exception>
#include <new>
#include <utility>
#include <vector>

#include "generator/parse/error_handler.h"
#include "generator/parse/formula_ast.h"
#include "generator/parse/formula_grammar.h"
#include "generator/parse/formula_grammar_def.h"

namespace splgen::parse {

ParseError::ParseError(int line_, int column_, const std::string &message)
    : std::runtime_error(fmt::format("{}:{}: {}", line_, column_, message)), line(line_), column(column_) {}

namespace grammar {
BOOST_SPIRIT_INSTANTIATE(formula_text_type, iterator_type, context_type)
}

const grammar::formula_text_type &formula_text() { return grammar::formula_text; }

namespace {

// Brackets nest the grammar's recursion ('(' formula ')' and tag '[' formula ']'); refusing
// deeper nesting up front bounds the stack used by the parser, the conversion and the
// printer, so that no input can overflow the stack.
constexpr int kMaxNesting = 200;

void check_nesting(std::string_view text, const error_handler_type &handler) {
  int depth = 0;
  for (auto it = text.begin(); it != text.end(); ++it) {
    if (*it == '(' || *it == '[') {
      if (++depth > kMaxNesting)
        handler.fail(it, fmt::format("formula nested too deeply (more than {} brackets)", kMaxNesting));
    } else if ((*it == ')' || *it == ']') && depth > 0) {
      --depth;
    }
  }
}

// AST -> SPL. The operands of a chain (a (x) b (x) c ..., likewise (x)~, (+), * and |) go to one factory call; if that
// fails, the chain is folded again left to right, one operand at a time, to report the
// error (dimension mismatch, size overflow) at the operand that caused it. The factories
// flatten nested chains, so both ways build the same formula.
class to_spl {
 public:
  using result_type = Spl;

  explicit to_spl(const error_handler_type &handler) : handler_(handler) {}

  Spl operator()(const ast::call &node) const {
    const std::vector<int64_t> &a = node.args;
    try {
      switch (node.kind) {
        case SplKind::Identity: return make_identity(a.at(0));
        case SplKind::Stride: return make_stride(a.at(0), a.at(1));
        case SplKind::Twiddle: return make_twiddle(a.at(0), a.at(1), a.size() > 2 ? a[2] : 1);
        case SplKind::Perm: return make_perm(a);
        default: break;
      }
    } catch (const FormulaError &e) {
      handler_.fail_at(node, e.what());
    }
    handler_.fail_at(node, "internal error: unknown atom");
  }

  // DFT(n[,k]) is make_dft(n, k); DFT(n1 x n2 ...[,k]) the multi-dimensional DFT.
  Spl operator()(const ast::dft &node) const {
    try {
      return make_dft_nd(node.dims, node.root.value_or(1));
    } catch (const FormulaError &e) {
      handler_.fail_at(node, e.what());
    }
  }

  Spl operator()(const ast::real_transform &node) const {
    try {
      return make_real_transform_nd(node.kind, node.dims);
    } catch (const FormulaError &e) {
      handler_.fail_at(node, e.what());
    }
  }

  Spl operator()(const ast::diag &node) const {
    try {
      return make_diag(values(node.values));
    } catch (const FormulaError &e) {
      handler_.fail_at(node, e.what());
    }
  }

  Spl operator()(const ast::dense &node) const {
    try {
      return make_dense(node.rows, node.cols, values(node.values));
    } catch (const FormulaError &e) {
      handler_.fail_at(node, e.what());
    }
  }

  Spl operator()(const x3::forward_ast<ast::tagged> &fwd) const {
    const ast::tagged &node = fwd.get();
    Spl child = (*this)(node.body);
    try {
      return make_tagged(Tag{node.kind, node.params}, std::move(child));
    } catch (const FormulaError &e) {
      handler_.fail_at(node, e.what());
    }
  }

  Spl operator()(const x3::forward_ast<ast::fence_expr> &fwd) const { return (*this)(fwd.get()); }

  Spl operator()(const ast::atom &node) const { return node.apply_visitor(*this); }

  // The transpose is an involution (make_transpose(make_transpose(f)) == f), so only the
  // parity of the number of primes matters; this keeps "A''''...'" linear in the input.
  Spl operator()(const ast::postfix_expr &node) const {
    Spl base = (*this)(node.base);
    if (node.primes.size() % 2 == 0) return base;
    try {
      return make_transpose(base);
    } catch (const FormulaError &e) {
      handler_.fail_at(node, e.what());
    }
  }

  // Every operator chain (chain_ast.h): (x), (x)~, (+), * and |.
  template <typename Operator, typename Operand>
  Spl operator()(const chain_ast::chain<Operator, Operand> &node) const {
    return fold(node, [](std::vector<Spl> operands) { return make_chain(Operator::kind, std::move(operands)); });
  }
  Spl operator()(const ast::fence_expr &node) const {
    return fold(node, [](std::vector<Spl> operands) { return make_chain(SplKind::Fence, std::move(operands)); });
  }

 private:
  static Spl make_chain(SplKind op, std::vector<Spl> operands) {
    switch (op) {
      case SplKind::Tensor: return make_tensor(std::move(operands));
      // At most two operands: the grammar rejects a second "(x)~".
      case SplKind::TileTensor: return make_tile_tensor(operands.at(0), operands.at(1));
      case SplKind::DirectSum: return make_direct_sum(std::move(operands));
      case SplKind::Compose: return make_compose(std::move(operands));
      default: return make_fence(std::move(operands));
    }
  }

  template <typename Chain, typename Make>
  Spl fold(const Chain &chain, Make make) const {
    std::vector<Spl> operands;
    operands.reserve(chain.rest.size() + 1);
    operands.push_back((*this)(chain.first));
    for (const auto &operand : chain.rest) operands.push_back((*this)(operand));
    if (operands.size() == 1) return operands.front();
    try {
      return make(operands);
    } catch (const FormulaError &e) {
      Spl result = operands.front();
      for (std::size_t i = 1; i < operands.size(); ++i) {
        try {
          result = make({result, operands[i]});
        } catch (const FormulaError &e2) {
          fail_at_operand(chain.rest[i - 1], e2.what());
        }
      }
      handler_.fail_at(chain, e.what());  // not reached: some step above fails as well
    }
  }

  [[noreturn]] void fail_at_operand(const x3::position_tagged &operand, const std::string &message) const {
    handler_.fail_at(operand, message);
  }

  static std::vector<cplx> values(const std::vector<ast::complex_number> &numbers) {
    std::vector<cplx> out;
    out.reserve(numbers.size());
    for (const ast::complex_number &v : numbers) out.emplace_back(v.re, v.im);
    return out;
  }

  const error_handler_type &handler_;
};

}  // namespace

Spl parse_formula(std::string_view text) {
  try {
    iterator_type first = text.begin();
    const iterator_type last = text.end();
    error_handler_type handler(first, last);
    check_nesting(text, handler);

    ast::formula tree;
    const auto parser = x3::with<x3::error_handler_tag>(std::ref(handler))[formula_text()];
    if (!x3::phrase_parse(first, last, parser, x3::ascii::space, tree))
      handler.fail(first, "expected a formula");  // not reached: the grammar reports its failures
    return to_spl(handler)(tree);
  } catch (const ParseError &) {
    throw;
  } catch (const std::exception &e) {
    throw ParseError(1, 1, fmt::format("internal error: {}", e.what()));
  }
}

}  // namespace splgen::parse
