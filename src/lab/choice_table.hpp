// A Choice parameter's table, written once: the texts it accepts, in order, and the typed value
// each stands for. The schema takes its choices from names(); decode() turns a validated value back
// into the typed one (docs/design.md "The experiment contract": nothing past the schema validates
// again, so an unknown text here is a value that did not pass it, refused with a ParamError that
// names the parameter).
//   const ChoiceTable<Rounding> kRoundingTable{{"round", Rounding::Round}, {"floor", Rounding::Floor}};
//   ParamSpec::choice("m_rounding", "m rounding", kRoundingTable.names()) ...
//   const Rounding r = kRoundingTable.decode(params, "m_rounding");
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

#include "lab/find_named.hpp"
#include "lab/param.hpp"

namespace attnlab {

template <class T>
class ChoiceTable {
 public:
  // One row: the text a Choice parameter accepts and the value it stands for.
  struct Row {
    const char* name;
    T value;
  };

  ChoiceTable(std::initializer_list<Row> rows) : rows_(rows) {}

  // The texts, in order (a ParamSpec's choices).
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const Row& r : rows_) out.push_back(r.name);
    return out;
  }

  // The value `text` stands for; `key` names the parameter in the ParamError an unknown text gets.
  T decode(const std::string& key, const std::string& text) const {
    return find_named(rows_, text, [](const Row& r) { return r.name; }, "value", "allowed",
                      " for parameter '" + key + "'")
        .value;
  }
  // The value parameter `key` of `params` stands for.
  T decode(const Params& params, const std::string& key) const { return decode(key, params.text(key)); }

  // The text that stands for `value` (the first row holding it); throws ParamError for a value
  // the table does not hold.
  const char* name_of(const T& value) const {
    for (const Row& r : rows_)
      if (r.value == value) return r.name;
    throw ParamError("a value with no name in the choice table of '" + names_joined() + "'");
  }

  const std::vector<Row>& rows() const { return rows_; }

 private:
  std::string names_joined() const {
    return known_names(rows_, [](const Row& r) { return r.name; });
  }
  std::vector<Row> rows_;
};

}  // namespace attnlab
