#include "lab/column_key.hpp"

namespace attnlab {

namespace {

// "exp_d1*" matches names starting "exp_d1", "*_low" names ending "_low", "D_p=*_low" both.
bool matches(const std::string& pattern, const std::string& name) {
  const std::size_t star = pattern.find('*');
  if (star == std::string::npos) return false;
  const std::string head = pattern.substr(0, star), tail = pattern.substr(star + 1);
  return name.size() >= head.size() + tail.size() && name.compare(0, head.size(), head) == 0 &&
         name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::string column_words(const std::string& column, const std::vector<Table::KeyEntry>& key, const Schema& schema) {
  for (const Table::KeyEntry& e : key)
    if (e.name == column) return e.words;
  if (const ParamSpec* p = schema.find(column)) return p->label;
  std::string words;
  for (const Table::KeyEntry& e : key)
    if (matches(e.name, column)) words += (words.empty() ? "" : "; ") + e.words;
  return words;
}

std::vector<Table::KeyEntry> column_key(const Table& t, const Schema& schema) {
  std::vector<Table::KeyEntry> out;
  for (const std::string& c : t.columns) out.push_back({c, column_words(c, t.key, schema)});
  return out;
}

}  // namespace attnlab
