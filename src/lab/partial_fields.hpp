// A record's share of a unit's Partial, its fields listed once (docs/design.md "The run: prepare,
// units, merge, results"): the record writes one template, `fields(record, io)`, that names each
// field in order, and walks it with a PartialWriter to encode (record -> Partial) or a PartialReader
// to decode (Partial -> record). Every field is stored as "<prefix><name>". Reading throws
// std::runtime_error naming a field that is missing or the wrong size.
#pragma once
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "lab/work_unit.hpp"

namespace attnlab {

class PartialWriter {
 public:
  PartialWriter(Partial& out, std::string prefix) : out_(out), prefix_(std::move(prefix)) {}
  void numbers(const std::string& name, const std::vector<double>& v) { out_.put(prefix_ + name, v); }
  void optional_numbers(const std::string& name, const std::vector<double>& v) {  // left out when empty
    if (!v.empty()) numbers(name, v);
  }
  void number(const std::string& name, double x) { out_.put(prefix_ + name, x); }
  void flag(const std::string& name, bool b) { number(name, b ? 1.0 : 0.0); }
  void text(const std::string& name, const std::string& t) { out_.put_text(prefix_ + name, t); }
  void optional_text(const std::string& name, const std::string& t) {  // left out when empty
    if (!t.empty()) text(name, t);
  }
  template <class... T>  // numbers and flags in one field
  void pack(const std::string& name, const T&... xs) {
    numbers(name, {static_cast<double>(xs)...});
  }
  template <class Matrix>  // an Eigen matrix, column-major
  void matrix(const std::string& name, const Matrix& m) {
    numbers(name, std::vector<double>(m.data(), m.data() + m.size()));
  }
  // Whether the fields that follow are there: `has` on writing, the field's presence on reading.
  bool present(const std::string&, bool has) { return has; }

 private:
  Partial& out_;
  std::string prefix_;
};

class PartialReader {
 public:
  // `rows`: of every matrix field.
  PartialReader(const Partial& in, std::string prefix, std::ptrdiff_t rows = 0)
      : in_(in), prefix_(std::move(prefix)), rows_(rows) {}
  void numbers(const std::string& name, std::vector<double>& v) { v = in_.values(prefix_ + name); }
  void optional_numbers(const std::string& name, std::vector<double>& v) {
    if (in_.has(prefix_ + name)) numbers(name, v);
  }
  void number(const std::string& name, double& x) { x = in_.value(prefix_ + name); }
  void flag(const std::string& name, bool& b) { b = in_.value(prefix_ + name) != 0.0; }
  void text(const std::string& name, std::string& t) { t = in_.text(prefix_ + name); }
  void optional_text(const std::string& name, std::string& t) {
    if (in_.has(prefix_ + name)) text(name, t);
  }
  template <class... T>
  void pack(const std::string& name, T&... xs) {
    const std::vector<double>& v = in_.values(prefix_ + name);
    if (v.size() != sizeof...(T))
      throw std::runtime_error("partial result: field '" + prefix_ + name + "' needs " + std::to_string(sizeof...(T)) +
                               " numbers");
    std::size_t i = 0;
    ((xs = static_cast<T>(v[i++])), ...);
  }
  template <class Matrix>
  void matrix(const std::string& name, Matrix& m) {
    const std::vector<double>& v = in_.values(prefix_ + name);
    const auto size = static_cast<std::ptrdiff_t>(v.size());
    if (rows_ <= 0 || size % rows_ != 0)
      throw std::runtime_error("partial result: field '" + prefix_ + name + "' does not fit " + std::to_string(rows_) +
                               " rows");
    m.resize(rows_, size / rows_);
    std::copy(v.begin(), v.end(), m.data());
  }
  bool present(const std::string& name, bool& has) { return has = in_.has(prefix_ + name); }

 private:
  const Partial& in_;
  std::string prefix_;
  std::ptrdiff_t rows_;
};

}  // namespace attnlab
