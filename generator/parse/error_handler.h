// Error handling for the formula grammar.
//
// error_handler<Iterator> is put into the parse context under x3::error_handler_tag. It
//  * records the source range of every position_tagged AST node (x3::annotate_on_success
//    calls tag()), so that semantic errors found later can be reported at the node, and
//  * turns a position in the input into a 1-based LINE:COL and throws ParseError.
// error_handler_base is the base of the top-level rule ID: X3 calls its on_error() with the
// expectation_failure of any `a > b` that failed, and it reports "expected <what>", where
// <what> is the rule's name ("a formula", "an integer" ...) or the literal ("')'").
#pragma once
#include <boost/spirit/home/x3.hpp>
#include <boost/spirit/home/x3/support/ast/position_tagged.hpp>
#include <boost/spirit/home/x3/support/utility/annotate_on_success.hpp>
#include <boost/spirit/home/x3/support/utility/error_reporting.hpp>
#include <boost/spirit/home/x3/support/utility/lambda_visitor.hpp>
#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "generator/parse/formula_parser.h"

namespace splgen::parse {

namespace x3 = boost::spirit::x3;

struct source_location {
  int line = 1;
  int column = 1;
};

template <typename Iterator>
class error_handler {
 public:
  error_handler(Iterator first, Iterator last) : cache_(first, last) {}

  // Called by x3::annotate_on_success for every node a rule produced.
  template <typename AST>
  void tag(AST &ast, Iterator first, Iterator last) {
    cache_.annotate(ast, first, last);
  }

  // LINE:COL of `where`: lines are separated by '\n', columns count UTF-8 code points
  // ('\r' is not counted, a tab counts as one column).
  source_location location(Iterator where) const {
    int64_t line = 1, column = 1;
    for (Iterator it = cache_.first(); it != where && it != cache_.last(); ++it) {
      const auto ch = static_cast<unsigned char>(*it);
      if (ch == '\n') {
        ++line;
        column = 1;
      } else if (ch != '\r' && (ch & 0xC0) != 0x80) {
        ++column;
      }
    }
    return {int(std::min<int64_t>(line, INT_MAX)), int(std::min<int64_t>(column, INT_MAX))};
  }

  // Where a node starts; the start of the input for an untagged node.
  source_location location_of(const x3::position_tagged &ast) const {
    if (ast.id_first < 0 || std::size_t(ast.id_first) >= cache_.get_positions().size())
      return location(cache_.first());
    return location(cache_.get_positions()[std::size_t(ast.id_first)]);
  }

  // Throws ParseError at `where`, after skipping the whitespace there, so that the error
  // points at the offending token (or one past the end of the input).
  [[noreturn]] void fail(Iterator where, const std::string &message) const {
    while (where != cache_.last() && is_space(*where)) ++where;
    source_location loc = location(where);
    throw ParseError(loc.line, loc.column, message);
  }

  [[noreturn]] void fail_at(const x3::position_tagged &ast, const std::string &message) const {
    source_location loc = location_of(ast);
    throw ParseError(loc.line, loc.column, message);
  }

 private:
  static bool is_space(char ch) {
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
  }

  x3::position_cache<std::vector<Iterator>> cache_;
};

struct error_handler_base {
  template <typename Iterator, typename Exception, typename Context>
  x3::error_handler_result on_error(Iterator & /*first*/, const Iterator & /*last*/, const Exception &x,
                                    const Context &context) {
    const auto &handler = x3::get<x3::error_handler_tag>(context).get();
    handler.fail(x.where(), "expected " + x.which());  // throws ParseError
    return x3::error_handler_result::fail;
  }
};

}  // namespace splgen::parse
