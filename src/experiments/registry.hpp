// Every experiment of the project, by id. The CLI, the page and the JS API list them from here.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "lab/experiment.hpp"
#include "lab/link.hpp"

namespace attnlab {

std::vector<std::string> experiment_ids();
// Throws ParamError naming the known experiments when `id` is unknown.
std::unique_ptr<Experiment> make_experiment(const std::string& id);
// What a page link may name (lab/link.hpp): these experiments and the stories of stories.hpp.
const LinkCatalogue& link_catalogue();

}  // namespace attnlab
