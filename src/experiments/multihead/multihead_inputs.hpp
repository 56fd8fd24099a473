// The picture before a run of `multihead` and `multihead.acceptance` (docs/design.md "The picture
// before a run"): the hidden heads' attention on one input the run draws (docs/multihead.md s.1).
#pragma once
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "experiments/multihead/layer.hpp"
#include "lab/results.hpp"

namespace attnlab::multihead {

// softmax(X Theta_i X^T) of every hidden head on the input X (k x d): one k x k heatmap per head
// for one or two heads, else one heatmap with the heads side by side (a path marks where one head
// ends and the next begins). `which` names the input in the titles ("the run's first example").
std::vector<Heatmap> attention_heatmaps(const Layer& layer, const Eigen::MatrixXd& X, const std::string& which);

}  // namespace attnlab::multihead
