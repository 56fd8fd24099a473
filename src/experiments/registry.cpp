#include "experiments/registry.hpp"
#include "experiments/stories.hpp"
#include "lab/find_named.hpp"

#include "experiments/mirror/mirror_experiment.hpp"
#include "experiments/multihead/acceptance_experiment.hpp"
#include "experiments/multihead/lower_bound_experiment.hpp"
#include "experiments/multihead/multihead_experiment.hpp"
#include "experiments/regression/icl_experiment.hpp"
#include "experiments/regression/regression_experiment.hpp"
#include "experiments/separation/attention_experiment.hpp"
#include "experiments/separation/toy_experiment.hpp"

namespace attnlab {

namespace {
struct Entry {
  const char* id;
  std::unique_ptr<Experiment> (*make)();
};
const Entry kEntries[] = {
    {"separation.toy", &separation::make_toy_experiment},
    {"separation.self", &separation::make_self_attention_experiment},
    {"separation.cross", &separation::make_cross_attention_experiment},
    {"regression", &regression::make_regression_experiment},
    {"regression.icl", &regression::make_icl_experiment},
    {"mirror", &mirror::make_mirror_experiment},
    {"multihead", &multihead::make_multihead_experiment},
    {"multihead.lower_bound", &multihead::make_lower_bound_experiment},
    {"multihead.acceptance", &multihead::make_acceptance_experiment},
};
}  // namespace

std::vector<std::string> experiment_ids() {
  std::vector<std::string> ids;
  for (const auto& e : kEntries) ids.push_back(e.id);
  return ids;
}

std::unique_ptr<Experiment> make_experiment(const std::string& id) {
  return find_named(kEntries, id, [](const Entry& e) { return std::string(e.id); }, "experiment", "experiments").make();
}

const LinkCatalogue& link_catalogue() {
  static const LinkCatalogue catalogue{experiment_ids(), &make_experiment, &stories()};
  return catalogue;
}

}  // namespace attnlab
