#include "experiments/regression/problem_file.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

#include "lab/experiment.hpp"
#include "lab/json_document.hpp"
#include "lab/param.hpp"
#include "lab/schema.hpp"

namespace attnlab::regression {

namespace {

using nlohmann::json;
const char* const kSource = "problem file";

[[noreturn]] void fail(const std::string& what) { throw ParamError(std::string(kSource) + ": " + what); }

double number(const json& v, const std::string& where) {
  if (!v.is_number()) fail(where + " is not a number");
  return v.get<double>();
}

Eigen::VectorXd vector_field(const json& doc, const char* key, int size, bool allow_scalar) {
  if (!doc.contains(key)) fail(std::string("the field \"") + key + "\" is missing");
  const json& v = doc[key];
  if (allow_scalar && v.is_number()) return Eigen::VectorXd::Constant(size, number(v, key));
  if (!v.is_array()) fail(std::string(key) + " must be an array of numbers");
  if (static_cast<int>(v.size()) != size)
    fail(std::string(key) + " has " + std::to_string(v.size()) + " entries; it needs " + std::to_string(size));
  Eigen::VectorXd out(size);
  for (int i = 0; i < size; ++i) out[i] = number(v[static_cast<std::size_t>(i)], std::string(key) + "[" + std::to_string(i) + "]");
  return out;
}

SparseRows matrix_field(const json& doc) {
  if (!doc.contains("A")) fail("the field \"A\" is missing");
  const json& a = doc["A"];
  std::vector<Eigen::Triplet<double>> entries;
  int rows = 0, cols = 0;
  if (a.is_array()) {
    rows = static_cast<int>(a.size());
    if (rows == 0 || !a[0].is_array()) fail("A must be an array of rows (arrays of numbers)");
    cols = static_cast<int>(a[0].size());
    for (int i = 0; i < rows; ++i) {
      const json& row = a[static_cast<std::size_t>(i)];
      if (!row.is_array() || static_cast<int>(row.size()) != cols)
        fail("row " + std::to_string(i) + " of A does not have " + std::to_string(cols) + " numbers");
      for (int j = 0; j < cols; ++j) {
        const double x = number(row[static_cast<std::size_t>(j)], "A[" + std::to_string(i) + "][" + std::to_string(j) + "]");
        if (x != 0.0) entries.emplace_back(i, j, x);
      }
    }
  } else if (a.is_object()) {
    if (!a.contains("rows") || !a.contains("cols") || !a.contains("entries"))
      fail("a sparse A needs \"rows\", \"cols\" and \"entries\" ([[i, j, value], ...])");
    // Checked as doubles: converting one beyond int's range (or NaN) to int is undefined.
    const double r = number(a["rows"], "A.rows"), c = number(a["cols"], "A.cols");
    if (!(r >= 1 && c >= 1 && r <= 10000000 && c <= 1000) || r != std::floor(r) || c != std::floor(c))
      fail("A.rows must be an integer in [1, 1e7] and A.cols one in [1, 1000]");
    rows = static_cast<int>(r);
    cols = static_cast<int>(c);
    if (!a["entries"].is_array()) fail("A.entries must be an array of [i, j, value]");
    for (const json& e : a["entries"]) {
      if (!e.is_array() || e.size() != 3) fail("each entry of A.entries must be [i, j, value]");
      const double i = number(e[0], "A entry row"), j = number(e[1], "A entry column");
      if (i < 0 || i >= rows || j < 0 || j >= cols || i != std::floor(i) || j != std::floor(j))
        fail("A entry (" + format_number(i) + ", " + format_number(j) + ") is outside " + std::to_string(rows) + " x " +
             std::to_string(cols));
      entries.emplace_back(static_cast<int>(i), static_cast<int>(j), number(e[2], "A entry value"));
    }
  } else {
    fail("A must be an array of rows or a sparse object");
  }
  if (cols > 1000) fail("A has " + std::to_string(cols) + " columns; at most 1000 are allowed");
  SparseRows A(rows, cols);
  A.setFromTriplets(entries.begin(), entries.end());
  A.makeCompressed();
  return A;
}

}  // namespace

ProblemFile read_problem_file(const std::string& text) {
  const json doc = parse_json_document<json>(text, kSource, Experiment::kMaxDataBytes);
  if (!doc.is_object()) fail("the top level must be an object with A, b and w");
  ProblemFile f;
  if (doc.contains("function")) {
    const json& fn = doc["function"];
    const std::string name = fn.is_string() ? fn.get<std::string>() : "";
    const auto* row = kHyperbolicTable.find(name);
    if (!row) fail("function must be \"exp\", \"cosh\" or \"sinh\"");
    f.problem.function = row->value;
    f.has_function = true;
  }
  f.problem.A = matrix_field(doc);
  const int n = f.problem.n(), d = f.problem.d();
  f.problem.b = vector_field(doc, "b", n, false);
  f.problem.w = vector_field(doc, "w", n, true);
  f.problem.x0 = doc.contains("x0") ? vector_field(doc, "x0", d, false) : Eigen::VectorXd::Zero(d);
  validate(f.problem, kSource);
  if (!doc.contains("x0")) f.problem.x0.resize(0);
  return f;
}

std::string write_problem_file(const Problem& p) {
  json doc;
  doc["function"] = to_string(p.function);
  if (p.A.nonZeros() * 2 >= static_cast<long long>(p.n()) * p.d()) {
    const Eigen::MatrixXd A(p.A);
    json rows = json::array();
    for (int i = 0; i < p.n(); ++i) {
      json row = json::array();
      for (int j = 0; j < p.d(); ++j) row.push_back(A(i, j));
      rows.push_back(row);
    }
    doc["A"] = rows;
  } else {
    json entries = json::array();
    for (int k = 0; k < p.A.outerSize(); ++k)
      for (SparseRows::InnerIterator it(p.A, k); it; ++it)
        entries.push_back({it.row(), it.col(), it.value()});
    doc["A"] = {{"rows", p.n()}, {"cols", p.d()}, {"entries", entries}};
  }
  doc["b"] = std::vector<double>(p.b.data(), p.b.data() + p.b.size());
  doc["w"] = std::vector<double>(p.w.data(), p.w.data() + p.w.size());
  if (p.x0.size()) doc["x0"] = std::vector<double>(p.x0.data(), p.x0.data() + p.x0.size());
  return doc.dump();
}

}  // namespace attnlab::regression
