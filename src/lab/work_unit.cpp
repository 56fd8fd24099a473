#include "lab/work_unit.hpp"

#include <cstring>
#include <stdexcept>

namespace attnlab {

void Partial::put(const std::string& name, std::vector<double> v) {
  for (auto& [k, existing] : values_)
    if (k == name) {
      existing = std::move(v);
      return;
    }
  values_.emplace_back(name, std::move(v));
}

void Partial::put_text(const std::string& name, std::string text) {
  for (auto& [k, existing] : texts_)
    if (k == name) {
      existing = std::move(text);
      return;
    }
  texts_.emplace_back(name, std::move(text));
}

const std::vector<double>& Partial::values(const std::string& name) const {
  for (const auto& [k, v] : values_)
    if (k == name) return v;
  throw std::runtime_error("partial result: no field '" + name + "'");
}

double Partial::value(const std::string& name) const {
  const std::vector<double>& v = values(name);
  if (v.size() != 1) throw std::runtime_error("partial result: field '" + name + "' is not one number");
  return v[0];
}

const std::string& Partial::text(const std::string& name) const {
  for (const auto& [k, t] : texts_)
    if (k == name) return t;
  throw std::runtime_error("partial result: no text '" + name + "'");
}

bool Partial::has(const std::string& name) const {
  for (const auto& [k, v] : values_)
    if (k == name) return true;
  for (const auto& [k, t] : texts_)
    if (k == name) return true;
  return false;
}

bool Partial::operator==(const Partial& other) const {
  if (texts_ != other.texts_ || values_.size() != other.values_.size()) return false;
  for (std::size_t i = 0; i < values_.size(); ++i) {
    const auto& a = values_[i];
    const auto& b = other.values_[i];
    if (a.first != b.first || a.second.size() != b.second.size()) return false;
    if (!a.second.empty() && std::memcmp(a.second.data(), b.second.data(), a.second.size() * sizeof(double)) != 0)
      return false;
  }
  return true;
}

namespace {

class PiecewiseTask final : public UnitTask {
 public:
  PiecewiseTask(std::int64_t pieces, std::function<void(std::int64_t)> piece, std::function<Partial()> finish,
                std::function<bool(Partial&)> preview)
      : pieces_(pieces), piece_(std::move(piece)), finish_(std::move(finish)), preview_(std::move(preview)) {}
  bool run_piece() override {
    if (next_ < pieces_) piece_(next_++);
    return next_ >= pieces_;
  }
  Partial finish() override { return finish_(); }
  double fraction() const override { return pieces_ > 0 ? double(next_) / double(pieces_) : 1.0; }
  bool preview(Partial& out) const override { return preview_ && next_ > 0 && preview_(out); }

 private:
  std::int64_t pieces_, next_ = 0;
  std::function<void(std::int64_t)> piece_;
  std::function<Partial()> finish_;
  std::function<bool(Partial&)> preview_;
};

class SinglePieceTask final : public UnitTask {
 public:
  explicit SinglePieceTask(std::function<Partial()> compute) : compute_(std::move(compute)) {}
  bool run_piece() override {
    if (!done_) result_ = compute_(), done_ = true;
    return true;
  }
  Partial finish() override { return std::move(result_); }
  double fraction() const override { return done_ ? 1.0 : 0.0; }

 private:
  std::function<Partial()> compute_;
  Partial result_;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<UnitTask> make_piecewise_task(std::int64_t pieces, std::function<void(std::int64_t)> piece,
                                              std::function<Partial()> finish, std::function<bool(Partial&)> preview) {
  return std::make_unique<PiecewiseTask>(pieces, std::move(piece), std::move(finish), std::move(preview));
}

std::unique_ptr<UnitTask> make_single_piece_task(std::function<Partial()> compute) {
  return std::make_unique<SinglePieceTask>(std::move(compute));
}

Partial run_task_to_end(UnitTask& task) {
  while (!task.run_piece()) {
  }
  return task.finish();
}

}  // namespace attnlab
