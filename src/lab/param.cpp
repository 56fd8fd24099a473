#include "lab/param.hpp"

#include "lab/schema.hpp"
#include "lab/text.hpp"

namespace attnlab {

namespace {

// The length of the valid UTF-8 sequence at s[i], or 0 (overlong forms, surrogates and code points
// beyond U+10FFFF are invalid).
std::size_t utf8_length(const std::string& s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  unsigned long cp = n == 1 ? c : n == 2 ? (c & 0x1Fu) : n == 3 ? (c & 0x0Fu) : (c & 0x07u);
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) >> 6) != 2) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3Fu);
  }
  const unsigned long least[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

}  // namespace

std::string readable_message(const std::string& message) {
  constexpr std::size_t kLongQuote = 80, kKeptQuote = 60, kMaxMessage = 2000;
  static const char* hex = "0123456789ABCDEF";
  std::string clean;
  for (std::size_t i = 0; i < message.size();) {
    const std::size_t n = utf8_length(message, i);
    const unsigned char c = static_cast<unsigned char>(message[i]);
    if (n == 0 || (n == 1 && (c < 0x20 || c == 0x7F))) {
      clean += "\\x";
      clean += hex[c >> 4];
      clean += hex[c & 15];
      ++i;
    } else {
      clean.append(message, i, n);
      i += n;
    }
  }
  // Shorten long quoted values: 'abc...' (100000 characters).
  std::string out;
  for (std::size_t i = 0; i < clean.size();) {
    const std::size_t open = clean.find('\'', i);
    const std::size_t close = open == std::string::npos ? open : clean.find('\'', open + 1);
    if (close == std::string::npos) {
      out.append(clean, i, std::string::npos);
      break;
    }
    const std::string inside = clean.substr(open + 1, close - open - 1);
    out.append(clean, i, open + 1 - i);
    const bool value = inside.find(' ') == std::string::npos;  // prose has spaces; a value rarely
    out += value && characters(inside) > kLongQuote
               ? first_characters(inside, kKeptQuote) + "...' (" + std::to_string(characters(inside)) + " characters)"
               : inside + "'";
    i = close + 1;
  }
  if (characters(out) > kMaxMessage) out = first_characters(out, kMaxMessage) + "...";
  return out;
}

ParamError::ParamError(const std::string& message) : std::invalid_argument(readable_message(message)) {}

const ParamValue& Params::at(const std::string& key) const {
  auto it = values_.find(key);
  if (it == values_.end()) throw ParamError("unknown parameter '" + key + "'");
  return it->second;
}

bool Params::operator==(const Params& o) const {
  if (values_.size() != o.values_.size()) return false;
  for (const auto& [k, v] : values_) {
    auto it = o.values_.find(k);
    if (it == o.values_.end() || it->second.number != v.number || it->second.text != v.text) return false;
  }
  return true;
}

std::string describe_type(const ParamSpec& spec) {
  std::string unit = spec.unit.empty() ? "" : " (" + spec.unit + ")";
  switch (spec.type) {
    case ParamType::Integer:
      return "integer in [" + format_number(spec.min) + ", " + format_number(spec.max) + "]" + unit;
    case ParamType::Real:
      return "number in [" + format_number(spec.min) + ", " + format_number(spec.max) + "]" + unit;
    case ParamType::Boolean:
      return "true or false";
    case ParamType::Choice: {
      std::string s = "one of ";
      for (std::size_t i = 0; i < spec.choices.size(); ++i) s += (i ? ", " : "") + spec.choices[i];
      return s;
    }
    case ParamType::Sweep:
      return "none, KEY=FROM:TO:STEP or KEY=V1,V2,... with KEY a sweepable parameter";
  }
  return "";
}

}  // namespace attnlab
