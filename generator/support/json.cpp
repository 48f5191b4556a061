#include "generator/support/json.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <unordered_map>

namespace splgen::support {

JsonError::JsonError(int line_, int column_, const std::string &message)
    : std::runtime_error(fmt::format("{}:{}: {}", line_, column_, message)), line(line_), column(column_) {}

void Json::set(const std::string &key, Json v) {
  for (auto &[k, value] : members_)
    if (k == key) {
      value = std::move(v);
      return;
    }
  members_.emplace_back(key, std::move(v));
}

const Json *Json::find(const std::string &key) const {
  if (kind_ != Kind::Object) return nullptr;
  for (const auto &[k, value] : members_)
    if (k == key) return &value;
  return nullptr;
}

namespace {


// The length of the well-formed UTF-8 sequence at s[i] (a byte >= 0x80), 0 if there is none
// (Unicode, table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF).
std::size_t utf8_sequence(const std::string &s, std::size_t i) {
  auto byte = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
  auto in = [](unsigned b, unsigned lo, unsigned hi) { return b >= lo && b <= hi; };
  unsigned b0 = byte(0), b1 = byte(1);
  std::size_t length = in(b0, 0xC2, 0xDF) ? 2 : in(b0, 0xE0, 0xEF) ? 3 : in(b0, 0xF0, 0xF4) ? 4 : 0;
  if (length == 0) return 0;
  unsigned lo = b0 == 0xE0 ? 0xA0 : b0 == 0xF0 ? 0x90 : 0x80;
  unsigned hi = b0 == 0xED ? 0x9F : b0 == 0xF4 ? 0x8F : 0xBF;
  if (!in(b1, lo, hi)) return 0;
  for (std::size_t k = 2; k < length; ++k)
    if (!in(byte(k), 0x80, 0xBF)) return 0;
  return length;
}

void append_utf8(std::string &out, unsigned code) {
  if (code < 0x80) {
    out += char(code);
  } else if (code < 0x800) {
    out += char(0xC0 | (code >> 6));
    out += char(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += char(0xE0 | (code >> 12));
    out += char(0x80 | ((code >> 6) & 0x3F));
    out += char(0x80 | (code & 0x3F));
  } else {
    out += char(0xF0 | (code >> 18));
    out += char(0x80 | ((code >> 12) & 0x3F));
    out += char(0x80 | ((code >> 6) & 0x3F));
    out += char(0x80 | (code & 0x3F));
  }
}

class Parser {
 public:
  explicit Parser(const std::string &text) : s_(text) {}

  Json document() {
    skip_space();
    Json v = value();
    skip_space();
    if (i_ < s_.size()) fail("unexpected text after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string &message) const {
    int line = 1, column = 1;
    for (std::size_t k = 0; k < i_ && k < s_.size(); ++k) {
      if (s_[k] == '\n')
        ++line, column = 1;
      else
        ++column;
    }
    throw JsonError(line, column, message);
  }

  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }

  void expect(char c) {
    if (i_ >= s_.size() || s_[i_] != c) fail(i_ >= s_.size() ? fmt::format("expected '{}' before the end of the file", c)
                                                             : fmt::format("expected '{}'", c));
    ++i_;
  }

  bool literal(const char *word) {
    std::string w(word);
    if (s_.compare(i_, w.size(), w) != 0) return false;
    i_ += w.size();
    return true;
  }

  Json value() {
    if (++depth_ > 200) fail("nested too deeply");
    if (i_ >= s_.size()) fail("expected a value before the end of the file");
    Json out;
    char c = s_[i_];
    if (c == '{') {
      ++i_;
      std::vector<std::pair<std::string, Json>> members;
      std::unordered_map<std::string, std::size_t> index;  // name -> place in members
      skip_space();
      if (i_ < s_.size() && s_[i_] == '}') {
        ++i_;
      } else {
        for (;;) {
          skip_space();
          if (i_ >= s_.size() || s_[i_] != '"') fail("expected a member name in double quotes");
          std::string key = string();
          skip_space();
          expect(':');
          skip_space();
          Json v = value();
          auto [at, fresh] = index.try_emplace(key, members.size());
          if (fresh)
            members.emplace_back(std::move(key), std::move(v));
          else
            members[at->second].second = std::move(v);
          skip_space();
          if (i_ < s_.size() && s_[i_] == ',') {
            ++i_;
            continue;
          }
          if (i_ < s_.size() && s_[i_] == '}') {
            ++i_;
            break;
          }
          fail("expected ',' or '}'");
        }
      }
      out = Json::object(std::move(members));
    } else if (c == '[') {
      ++i_;
      out = Json::array();
      skip_space();
      if (i_ < s_.size() && s_[i_] == ']') {
        ++i_;
      } else {
        for (;;) {
          skip_space();
          out.push_back(value());
          skip_space();
          if (i_ < s_.size() && s_[i_] == ',') {
            ++i_;
            continue;
          }
          if (i_ < s_.size() && s_[i_] == ']') {
            ++i_;
            break;
          }
          fail("expected ',' or ']'");
        }
      }
    } else if (c == '"') {
      out = Json(string());
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      out = Json(number());
    } else if (literal("true")) {
      out = Json(true);
    } else if (literal("false")) {
      out = Json(false);
    } else if (literal("null")) {
      out = Json();
    } else {
      fail("expected a value");
    }
    --depth_;
    return out;
  }

  double number() {
    std::size_t start = i_;
    if (s_[i_] == '-') ++i_;
    auto digits = [&] {
      std::size_t d = i_;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      if (i_ == d) fail("expected a digit");
    };
    digits();
    if (i_ < s_.size() && s_[i_] == '.') ++i_, digits();
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      digits();
    }
    return std::strtod(s_.substr(start, i_ - start).c_str(), nullptr);
  }

  std::string string() {
    ++i_;  // the opening quote
    std::string out;
    for (;;) {
      if (i_ >= s_.size()) fail("unterminated string");
      char c = s_[i_];
      if (c == '"') {
        ++i_;
        return out;
      }
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (static_cast<unsigned char>(c) >= 0x80) {
        std::size_t length = utf8_sequence(s_, i_);
        if (length == 0) fail("invalid UTF-8 in a string");
        out.append(s_, i_, length);
        i_ += length;
        continue;
      }
      if (c != '\\') {
        out += c;
        ++i_;
        continue;
      }
      ++i_;
      if (i_ >= s_.size()) fail("unterminated string");
      char e = s_[i_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned code = hex4();
          if (code >= 0xDC00 && code <= 0xDFFF) fail("lone surrogate in a \\u escape");
          if (code >= 0xD800 && code <= 0xDBFF) {  // a pair: \uD83D\uDE00
            if (s_.compare(i_, 2, "\\u") != 0) fail("lone surrogate in a \\u escape");
            i_ += 2;
            unsigned low = hex4();
            if (low < 0xDC00 || low > 0xDFFF) fail("lone surrogate in a \\u escape");
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          }
          append_utf8(out, code);
          break;
        }
        default:
          --i_;
          fail("bad escape in a string");
      }
    }
  }

  unsigned hex4() {
    if (i_ + 4 > s_.size()) fail("bad \\u escape");
    unsigned code = 0;
    for (int k = 0; k < 4; ++k) {
      char h = s_[i_++];
      code <<= 4;
      if (h >= '0' && h <= '9') code |= unsigned(h - '0');
      else if (h >= 'a' && h <= 'f') code |= unsigned(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') code |= unsigned(h - 'A' + 10);
      else fail("bad \\u escape");
    }
    return code;
  }

  const std::string &s_;
  std::size_t i_ = 0;
  int depth_ = 0;
};

}  // namespace

void Json::dump_to(std::string &out, int indent) const {
  std::string pad(std::size_t(indent + 2), ' '), close(std::size_t(indent), ' ');
  switch (kind_) {
    case Kind::Null: out += "null"; break;
    case Kind::Bool: out += bool_ ? "true" : "false"; break;
    case Kind::Number:
      if (!std::isfinite(number_))
        out += "null";
      else
        out += fmt::format("{}", number_);
      break;
    case Kind::String: out += json_quote(string_); break;
    case Kind::Array:
      if (items_.empty()) {
        out += "[]";
        break;
      }
      out += "[\n";
      for (std::size_t k = 0; k < items_.size(); ++k) {
        out += pad;
        items_[k].dump_to(out, indent + 2);
        out += k + 1 < items_.size() ? ",\n" : "\n";
      }
      out += close + "]";
      break;
    case Kind::Object:
      if (members_.empty()) {
        out += "{}";
        break;
      }
      out += "{\n";
      for (std::size_t k = 0; k < members_.size(); ++k) {
        out += pad;
        out += json_quote(members_[k].first);
        out += ": ";
        members_[k].second.dump_to(out, indent + 2);
        out += k + 1 < members_.size() ? ",\n" : "\n";
      }
      out += close + "}";
      break;
  }
}

std::string Json::dump() const {
  std::string out;
  dump_to(out, 0);
  return out + "\n";
}

std::string json_quote(const std::string &s) {
  std::string out;
  out += '"';
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {  // UTF-8 passes; a stray byte (a compiler's banner in another locale) would
                      // make the file unreadable, so it becomes U+FFFD
      std::size_t length = utf8_sequence(s, i);
      if (length == 0) {
        out += "\\ufffd";
      } else {
        out.append(s, i, length);
        i += length - 1;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20)
          out += fmt::format("\\u{:04x}", c);
        else
          out += char(c);
    }
  }
  out += '"';
  return out;
}

Json parse_json(const std::string &text) { return Parser(text).document(); }

}  // namespace splgen::support
