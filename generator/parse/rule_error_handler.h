// Error handling and source positions for the rule-file grammar (rule_grammar_def.h).
//
// The formula grammar's error_handler (error_handler.h) throws ParseError ("LINE:COL: ...")
// and finds a line by scanning the input from its start; rule files need the file name in
// every position (SourcePos, parse::RuleSyntaxError) and a position for every node
// of files with hundreds of rules, so this handler keeps a table of line starts and turns
// an iterator into FILE:LINE:COL by binary search.
//
// rule_error_handler<Iterator> is put into the parse context under x3::error_handler_tag. It
//  * records the source range of every position_tagged AST node (x3::annotate_on_success
//    calls tag()); SourcePos of a node is the position of its first character,
//  * throws parse::RuleSyntaxError "FILE:LINE:COL: message" (fail(), fail_at()), and
//  * bounds the nesting depth of the grammar's recursion (enter() / leave(), used by the
//    nesting_guard directive of rule_grammar_def.h), so that no input overflows the stack.
// rule_error_handler_base is the base of the top-level rule IDs: X3 calls its on_error() with
// the expectation_failure of any `a > b` that failed, and it reports "expected <what>",
// where <what> is the rule's name ("a formula", "a size expression" ...) or the literal
// ("';'", "'=>'").
#pragma once
#include <boost/spirit/home/x3.hpp>
#include <boost/spirit/home/x3/support/ast/position_tagged.hpp>
#include <boost/spirit/home/x3/support/utility/annotate_on_success.hpp>
#include <boost/spirit/home/x3/support/utility/error_reporting.hpp>
#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "generator/ir/rule.h"
#include "generator/parse/rule_parser.h"

namespace splgen::parse {

namespace x3 = boost::spirit::x3;

template <typename Iterator>
class rule_error_handler {
 public:
  // Brackets, tags, sums and parenthesised size expressions nest at most this deep.
  static constexpr int kMaxNesting = 200;

  rule_error_handler(Iterator first, Iterator last, std::string file)
      : cache_(first, last), file_(std::move(file)) {
    line_starts_.push_back(first);
    for (Iterator it = first; it != last; ++it)
      if (*it == '\n') line_starts_.push_back(std::next(it));
  }

  const std::string &file() const { return file_; }
  Iterator begin() const { return cache_.first(); }
  Iterator end() const { return cache_.last(); }

  // Called by x3::annotate_on_success for every node a rule produced (after the skipper has
  // skipped the whitespace and comments before it).
  template <typename AST>
  void tag(AST &ast, Iterator first, Iterator last) {
    cache_.annotate(ast, first, last);
  }

  // FILE:LINE:COL of `where`: lines are separated by '\n', columns count UTF-8 code points
  // ('\r' is not counted, a tab counts as one column); both are 1-based.
  // Columns are counted from the previous query when it lies on the same line before
  // `where` (the conversion asks for positions left to right), so that long lines cost
  // linear time in all.
  SourcePos position(Iterator where) const {
    auto line_it = std::upper_bound(line_starts_.begin(), line_starts_.end(), where);
    const std::size_t line_index = std::size_t(line_it - line_starts_.begin()) - 1;
    Iterator from = line_starts_[line_index];
    int64_t column = 1;
    if (cached_line_ == line_index && cached_where_ <= where) {
      from = cached_where_;
      column = cached_column_;
    }
    for (Iterator it = from; it != where; ++it) {
      const auto ch = static_cast<unsigned char>(*it);
      if (ch != '\r' && (ch & 0xC0) != 0x80) ++column;
    }
    cached_line_ = line_index;
    cached_where_ = where;
    cached_column_ = column;
    return {file_, int(std::min<int64_t>(int64_t(line_index) + 1, INT_MAX)),
            int(std::min<int64_t>(column, INT_MAX))};
  }

  // Where a node starts; the start of the input for an untagged node.
  SourcePos position_of(const x3::position_tagged &ast) const { return position(iterator_of(ast)); }
  Iterator iterator_of(const x3::position_tagged &ast) const {
    if (ast.id_first < 0 || std::size_t(ast.id_first) >= cache_.get_positions().size()) return cache_.first();
    return cache_.get_positions()[std::size_t(ast.id_first)];
  }

  // Where the input starts (offsets of nodes are counted from here).
  Iterator first() const { return cache_.first(); }

  // The number of lines, and the text of the 1-based line `line` (without its '\n').
  std::size_t line_count() const { return line_starts_.size(); }
  std::string line_text(std::size_t line) const {
    if (line < 1 || line > line_starts_.size()) return {};
    Iterator first = line_starts_[line - 1];
    Iterator last = line < line_starts_.size() ? std::prev(line_starts_[line]) : cache_.last();
    return std::string(first, last);
  }

  // Throws RuleSyntaxError at `where`, after skipping the whitespace and comments there, so
  // that the error points at the offending token (or one past the end of the input).
  [[noreturn]] void fail(Iterator where, const std::string &message) const {
    where = skip_blanks(where);
    throw parse::RuleSyntaxError(position(where), message);
  }
  [[noreturn]] void fail_at(const x3::position_tagged &ast, const std::string &message) const {
    throw parse::RuleSyntaxError(position_of(ast), message);
  }
  [[noreturn]] void fail_at(const SourcePos &pos, const std::string &message) const {
    throw parse::RuleSyntaxError(pos, message);
  }

  // Nesting depth of the recursive parts of the grammar.
  void enter(Iterator where) {
    if (++depth_ > kMaxNesting) {
      depth_ = 0;
      fail(where, "nested too deeply (more than " + std::to_string(kMaxNesting) + " levels)");
    }
  }
  void leave() {
    if (depth_ > 0) --depth_;
  }

 private:
  Iterator skip_blanks(Iterator where) const {
    const Iterator last = cache_.last();
    while (where != last) {
      const char ch = *where;
      if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f') {
        ++where;
      } else if (ch == '#') {
        while (where != last && *where != '\n') ++where;
      } else {
        break;
      }
    }
    return where;
  }

  x3::position_cache<std::vector<Iterator>> cache_;
  std::string file_;
  std::vector<Iterator> line_starts_;
  int depth_ = 0;
  // The last position computed (see position()).
  mutable std::size_t cached_line_ = std::size_t(-1);
  mutable Iterator cached_where_{};
  mutable int64_t cached_column_ = 1;
};

struct rule_error_handler_base {
  template <typename Iterator, typename Exception, typename Context>
  x3::error_handler_result on_error(Iterator & /*first*/, const Iterator & /*last*/, const Exception &x,
                                    const Context &context) {
    const auto &handler = x3::get<x3::error_handler_tag>(context).get();
    std::string what = x.which();
    // X3 writes string literals in double quotes ("=>"), characters in single ones (';').
    if (what.size() >= 2 && what.front() == '"' && what.back() == '"') {
      what.front() = '\'';
      what.back() = '\'';
    }
    handler.fail(x.where(), "expected " + what);  // throws RuleSyntaxError
    return x3::error_handler_result::fail;
  }
};

}  // namespace splgen::parse
