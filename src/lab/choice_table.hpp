// A Choice parameter's table, written once: the texts it accepts, in order, and the typed value
// each stands for. The schema takes its choices from names(); decode() turns a validated value back
// into the typed one (docs/design.md "The experiment contract": nothing past the schema validates
// again, so an unknown text here is a value that did not pass it, refused with a ParamError that
// names the parameter).
//   inline constexpr ChoiceTable<Rounding> kRoundingTable{{"round", Rounding::Round}, {"floor", Rounding::Floor}};
//   ParamSpec::choice("m_rounding", "m rounding", kRoundingTable.names()) ...
//   const Rounding r = kRoundingTable.decode(params, "m_rounding");
#pragma once
#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

#include "lab/find_named.hpp"
#include "lab/param.hpp"

namespace attnlab {

template <class T>
class ChoiceTable {
 public:
  static constexpr std::size_t kMaxRows = 8;
  // One row: the text a Choice parameter accepts and the value it stands for.
  struct Row {
    const char* name = nullptr;
    T value{};
  };

  // constexpr, so a table at namespace scope is ready before any other static is initialised.
  constexpr ChoiceTable(std::initializer_list<Row> rows) : size_(rows.size()) {
    if (rows.size() > kMaxRows) throw ParamError("a choice table holds at most 8 rows");
    std::size_t i = 0;
    for (const Row& r : rows) rows_[i++] = r;
  }

  const Row* begin() const { return rows_; }
  const Row* end() const { return rows_ + size_; }

  // The texts, in order (a ParamSpec's choices).
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const Row& r : *this) out.push_back(r.name);
    return out;
  }

  // The row whose text is `text`, or nullptr.
  const Row* find(const std::string& text) const {
    return find_named_or_null(*this, text, [](const Row& r) { return r.name; });
  }

  // The value `text` stands for; `key` names the parameter in the ParamError an unknown text gets:
  //   "unknown value 'x' for parameter 'key'; allowed: a, b"
  T decode(const std::string& key, const std::string& text) const {
    return find_named(*this, text, [](const Row& r) { return r.name; }, "value", "allowed",
                      " for parameter '" + key + "'")
        .value;
  }
  // The value parameter `key` of `params` stands for.
  T decode(const Params& params, const std::string& key) const { return decode(key, params.text(key)); }

  // The text that stands for `value` (the first row holding it); throws ParamError for a value
  // the table does not hold.
  const char* name_of(const T& value) const {
    for (const Row& r : *this)
      if (r.value == value) return r.name;
    throw ParamError("a value with no text in the choice table " +
                     known_names(*this, [](const Row& r) { return r.name; }));
  }

 private:
  Row rows_[kMaxRows] = {};
  std::size_t size_ = 0;
};

}  // namespace attnlab
