#include "experiments/multihead/multihead_inputs.hpp"

#include "lab/text.hpp"

namespace attnlab::multihead {

std::vector<Heatmap> attention_heatmaps(const Layer& layer, const Eigen::MatrixXd& X, const std::string& which) {
  const int m = layer.heads(), k = static_cast<int>(X.rows());
  std::vector<Eigen::MatrixXd> attention;
  for (int i = 0; i < m; ++i) attention.push_back(row_softmax(X * layer.Theta[i] * X.transpose()));
  auto base = [&](std::string title) {
    Heatmap h;
    h.title = std::move(title);
    h.y_label = "query token";
    h.rows = k;
    h.low = 0.0, h.high = 1.0;
    h.value_label = "attention weight";
    return h;
  };
  std::vector<Heatmap> out;
  if (m <= 2) {
    for (int i = 0; i < m; ++i) {
      Heatmap h = base(m == 1 ? "Inputs: the hidden head's attention on " + which
                              : printf_text("Inputs: hidden head %.0f's attention on ", i + 1.0) + which);
      h.x_label = "key token";
      h.cols = k;
      for (int r = 0; r < k; ++r)
        for (int c = 0; c < k; ++c) h.values.push_back(attention[static_cast<std::size_t>(i)](r, c));
      out.push_back(std::move(h));
    }
    return out;
  }
  // Side by side: row r holds query token r's attention under head 1, then head 2, ...
  Heatmap h = base("Inputs: the hidden heads' attention on " + which);
  h.x_label = printf_text("key token, head 1 to head %.0f from left to right", double(m));
  h.cols = m * k;
  for (int i = 0; i < m; ++i)  // each head's keys 0 to k-1
    h.x_slices.push_back({k, 0.0, k - 1.0, printf_text("head %.0f", double(i + 1))});
  for (int r = 0; r < k; ++r)
    for (int i = 0; i < m; ++i)
      for (int c = 0; c < k; ++c) h.values.push_back(attention[static_cast<std::size_t>(i)](r, c));
  // One path down each boundary between heads (cell edges sit at whole columns), joined along the
  // top and bottom edges of the image.
  Heatmap::Path bounds{"where one head ends and the next begins", {}, {}};
  for (int i = 1; i < m; ++i) {
    const double col = double(i * k);
    const bool down = i % 2 == 1;
    bounds.cols.push_back(col), bounds.rows.push_back(down ? 0.0 : double(k));
    bounds.cols.push_back(col), bounds.rows.push_back(down ? double(k) : 0.0);
  }
  h.paths.push_back(std::move(bounds));
  out.push_back(std::move(h));
  return out;
}

}  // namespace attnlab::multihead
