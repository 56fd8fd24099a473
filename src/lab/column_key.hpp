// What a results table's columns mean, for the text view's whole table and the JSON (walk 13: the
// CSV's names, "exp_d1_low", "newton_eps0", read as unexplained words). Each column's words come
// from the table's own key (Table::key: exact names and patterns "exp_d1*", "*_low") and, for a
// column named as a parameter, from the parameter's label.
#pragma once
#include <string>
#include <vector>

#include "lab/results.hpp"
#include "lab/schema.hpp"

namespace attnlab {

// The words of `column`: an exact entry of `key`; else the parameter's label when a parameter has
// that key; else the words of every pattern it matches, in the key's order ("exp_d1*" and "*_low":
// "softmax fires on D1; lower end of the Wilson 95% range"), joined by "; "; "" when none matches.
std::string column_words(const std::string& column, const std::vector<Table::KeyEntry>& key, const Schema& schema);

// One entry per column of `t`, in order: {column, its words} (words may be "").
std::vector<Table::KeyEntry> column_key(const Table& t, const Schema& schema);

}  // namespace attnlab
