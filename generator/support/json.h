// A small JSON reader and writer for the wisdom file (no dependency beyond fmt): values keep
// the order of object members, so the same value always prints as the same bytes.
#pragma once
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace splgen::support {

// A syntax error: what() is "LINE:COLUMN: MESSAGE" (1-based).
struct JsonError : std::runtime_error {
  int line, column;
  JsonError(int line, int column, const std::string &message);
};

class Json {
 public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Json() = default;  // null
  Json(bool b) : kind_(Kind::Bool), bool_(b) {}
  Json(double d) : kind_(Kind::Number), number_(d) {}
  Json(int i) : kind_(Kind::Number), number_(i) {}
  Json(long long i) : kind_(Kind::Number), number_(double(i)) {}
  Json(long i) : kind_(Kind::Number), number_(double(i)) {}
  Json(std::string s) : kind_(Kind::String), string_(std::move(s)) {}
  Json(const char *s) : kind_(Kind::String), string_(s) {}
  static Json array() { Json j; j.kind_ = Kind::Array; return j; }
  static Json object() { Json j; j.kind_ = Kind::Object; return j; }
  // An object of these members, whose names must be distinct (the reader's way: set() is linear).
  static Json object(std::vector<std::pair<std::string, Json>> members) {
    Json j = object();
    j.members_ = std::move(members);
    return j;
  }

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::Null; }
  bool is_number() const { return kind_ == Kind::Number; }
  bool is_string() const { return kind_ == Kind::String; }
  bool is_array() const { return kind_ == Kind::Array; }
  bool is_object() const { return kind_ == Kind::Object; }
  bool as_bool() const { return bool_; }
  double as_number() const { return number_; }
  const std::string &as_string() const { return string_; }
  const std::vector<Json> &items() const { return items_; }
  const std::vector<std::pair<std::string, Json>> &members() const { return members_; }

  void push_back(Json v) { items_.push_back(std::move(v)); }
  // Sets a member (replacing one of the same name, else appending).
  void set(const std::string &key, Json v);
  const Json *find(const std::string &key) const;  // nullptr if absent or not an object

  // Two-space indentation, members in their order, numbers in the shortest form that reads back exactly.
  std::string dump() const;

 private:
  void dump_to(std::string &out, int indent) const;
  Kind kind_ = Kind::Null;
  bool bool_ = false;
  double number_ = 0;
  std::string string_;
  std::vector<Json> items_;
  std::vector<std::pair<std::string, Json>> members_;
};

// s as a JSON string literal: quoted, with ", \ and control characters escaped, and a byte
// that is not part of UTF-8 written as U+FFFD, so that what is written reads back.
std::string json_quote(const std::string &s);

// Parses one JSON value (surrounded by white space only) in time linear in the text; throws
// JsonError, also for strings that are not UTF-8 (RFC 8259). A member name given twice keeps
// the place of the first and the value of the last.
Json parse_json(const std::string &text);

}  // namespace splgen::support
