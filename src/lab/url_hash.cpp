#include "lab/url_hash.hpp"

#include <cctype>
#include <cstdlib>
#include <set>

#include "lab/link_keys.hpp"
#include "lab/text.hpp"

namespace attnlab {

std::uint64_t parse_seed(const std::string& text) {
  const long long s = parse_digits(text, 10).value_or(-1);
  if (s < 0 || s > 4294967295LL)
    throw ParamError("parameter 'seed': '" + text + "' is not allowed; allowed: " + find_link_key("seed")->allowed);
  return static_cast<std::uint64_t>(s);
}

std::string HashState::flag(const std::string& key) const {
  for (const auto& [k, v] : flags)
    if (k == key) return v;
  return "";
}

bool is_reserved_hash_key(const std::string& key) { return find_link_key(key) != nullptr; }

std::string percent_encode(const std::string& s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '_' || c == '.' || c == '~' || c == ':' || c == ',';
    if (plain) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string percent_decode(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::strtol(s.substr(i + 1, 2).c_str(), nullptr, 16));
      i += 2;
      continue;
    }
    out += s[i] == '+' ? ' ' : s[i];
  }
  return out;
}

std::string encode_hash(const HashState& st) {
  std::string out = "exp=" + percent_encode(st.experiment);
  if (!st.preset.empty()) out += "&preset=" + percent_encode(st.preset);
  if (st.has_seed) out += "&seed=" + std::to_string(st.seed);
  for (const auto& [k, v] : st.params) out += "&" + percent_encode(k) + "=" + percent_encode(v);
  for (const auto& [k, v] : st.flags) out += "&" + percent_encode(k) + "=" + percent_encode(v);
  return out;
}

HashState decode_hash(const std::string& hash_in) {
  std::string hash = hash_in;
  if (!hash.empty() && hash[0] == '#') hash.erase(0, 1);
  if (hash.size() > kMaxHashBytes)
    throw ParamError("link: " + std::to_string(hash.size()) + " characters is more than the " +
                     std::to_string(kMaxHashBytes) + " a link may have");
  HashState st;
  std::set<std::string> seen;
  for (const std::string& pair : split(hash, '&')) {
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    if (eq == std::string::npos) throw ParamError("link: '" + pair + "' is not of the form key=value");
    const std::string key = percent_decode(pair.substr(0, eq));
    const std::string value = percent_decode(pair.substr(eq + 1));
    if (!seen.insert(key).second) throw ParamError("link: '" + key + "' is given twice; give it once");
    if (key == "exp") {
      st.experiment = value;
    } else if (key == "preset") {
      st.preset = value;
    } else if (key == "seed") {
      st.seed = parse_seed(value);
      st.has_seed = true;
    } else if (const LinkKey* row = find_link_key(key); row && row->flag()) {
      st.flags.emplace_back(key, value);
    } else {
      st.params.emplace_back(key, value);
    }
  }
  return st;
}

}  // namespace attnlab
