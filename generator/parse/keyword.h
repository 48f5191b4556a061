// Keywords shared by the formula and the rule grammar (formula_grammar_def.h,
// rule_grammar_def.h): whole words, spelled as in the name tables of generator/ir/spl_kind.h
// (constructs) and spl.cpp (tag_name).
#pragma once
#include <boost/spirit/home/x3.hpp>

#include "generator/ir/spl.h"

namespace splgen::parse {

namespace x3 = boost::spirit::x3;

inline const auto ident_char = x3::ascii::alnum | x3::lit('_');

// A keyword is a whole word: "Ix" is not the keyword "I", "rules" not "rule".
template <typename Parser>
auto keyword(const Parser &p) {
  return x3::lexeme[p >> !ident_char];
}
inline auto keyword(SplKind kind) { return keyword(x3::lit(kind_token(kind))); }

// vec, smp, par, stream, tiled, cubic.
struct tag_keyword_table : x3::symbols<TagKind> {
  tag_keyword_table() {
    for (int k = 0; k <= int(TagKind::Cubic); ++k) add(tag_name(TagKind(k)), TagKind(k));
  }
};
inline const tag_keyword_table tag_keywords;

// RDFT, IRDFT, WHT, DCT2 ... DST4.
struct real_keyword_table : x3::symbols<RealKind> {
  real_keyword_table() {
    for (const RealKindInfo &k : kRealKinds) add(k.name, k.kind);
  }
};
inline const real_keyword_table real_keywords;

}  // namespace splgen::parse
