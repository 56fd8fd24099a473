// Every paper of the project, declared once (src/lab/paper.hpp; docs/design.md "How to add a
// paper"). The experiment registry (registry.cpp), the stories (stories.cpp), every experiment's
// citation, the start page, `attnlab papers`, the JS API's listPapers() and the README check
// (tests/readme_papers.sh) read them from here.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "lab/experiment.hpp"
#include "lab/paper.hpp"
#include "lab/story.hpp"

namespace attnlab {

// In the table's order: the start page's, the CLI's and the registry's.
const std::vector<Paper>& papers();
// Throws ParamError naming the known papers when `id` is unknown.
const Paper& paper(const std::string& id);
// The paper's citation with `where` in it (Paper::citation): what ExperimentInfo::paper holds.
std::string paper_citation(const std::string& paper_id, const std::string& where = "");

// The factories the table lists, for registry.cpp and stories.cpp.
struct ExperimentFactory {
  const char* id;
  std::unique_ptr<Experiment> (*make)();
};
const std::vector<ExperimentFactory>& experiment_factories();  // every paper's, in order
std::vector<Story> make_stories();                              // every paper's story, in order

}  // namespace attnlab
