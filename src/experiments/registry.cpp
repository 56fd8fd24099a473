#include "experiments/registry.hpp"
#include "experiments/stories.hpp"
#include "lab/find_named.hpp"

#include "experiments/papers.hpp"

namespace attnlab {

// The experiments are those of the papers' table (src/experiments/papers.cpp), in its order.
std::vector<std::string> experiment_ids() {
  std::vector<std::string> ids;
  for (const auto& f : experiment_factories()) ids.push_back(f.id);
  return ids;
}

std::unique_ptr<Experiment> make_experiment(const std::string& id) {
  return find_named(experiment_factories(), id, [](const ExperimentFactory& f) { return std::string(f.id); },
                    "experiment", "experiments")
      .make();
}

const LinkCatalogue& link_catalogue() {
  static const LinkCatalogue catalogue{experiment_ids(), &make_experiment, &stories()};
  return catalogue;
}

}  // namespace attnlab
