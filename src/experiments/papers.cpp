#include "experiments/papers.hpp"

#include "experiments/mirror/mirror_experiment.hpp"
#include "experiments/mirror/mirror_story.hpp"
#include "experiments/multihead/acceptance_experiment.hpp"
#include "experiments/multihead/lower_bound_experiment.hpp"
#include "experiments/multihead/multihead_experiment.hpp"
#include "experiments/multihead/multihead_story.hpp"
#include "experiments/regression/icl_experiment.hpp"
#include "experiments/regression/regression_experiment.hpp"
#include "experiments/regression/regression_story.hpp"
#include "experiments/separation/attention_experiment.hpp"
#include "experiments/separation/separation_story.hpp"
#include "experiments/separation/toy_experiment.hpp"
#include "lab/find_named.hpp"

namespace attnlab {

namespace {

// One row per paper, in the start page's order: what Paper holds, with the experiments' factories
// (Paper::experiments is their ids) and the story's (Paper::story is its id).
struct Entry {
  const char* id;
  const char* title;
  const char* authors;
  const char* arxiv;
  const char* docs_page;
  std::vector<ExperimentFactory> experiments;
  Story (*story)();          // nullptr: no story
  const char* reproduction;  // "": no reproduction (src/experiments/reproductions.cpp)
};

const std::vector<Entry>& entries() {
  static const std::vector<Entry> all = {
      {"separation", "Why Softmax Attention Outperforms Linear Attention", "Deng, Song, Yuan, Zhou", "2310.11685",
       "docs/separation.md",
       {{"separation.toy", &separation::make_toy_experiment},
        {"separation.self", &separation::make_self_attention_experiment},
        {"separation.cross", &separation::make_cross_attention_experiment}},
       &separation::make_story, "separation"},
      {"regression", "An Iterative Algorithm for Rescaled Hyperbolic Functions Regression", "Gao, Song, Yin",
       "2305.00660", "docs/regression.md",
       {{"regression", &regression::make_regression_experiment},
        {"regression.icl", &regression::make_icl_experiment}},
       &regression::make_story, ""},
      {"mirror", "Optimizing Attention with Mirror Descent: Generalized Max-Margin Token Selection",
       "Julistiono, Tarzanagh, Azizan", "2410.14581", "docs/mirror.md",
       {{"mirror", &mirror::make_mirror_experiment}}, &mirror::make_story, ""},
      {"multihead", "Provably Learning a Multi-head Attention Layer", "Chen, Li", "2402.04084", "docs/multihead.md",
       {{"multihead", &multihead::make_multihead_experiment},
        {"multihead.lower_bound", &multihead::make_lower_bound_experiment},
        {"multihead.acceptance", &multihead::make_acceptance_experiment}},
       &multihead::make_story, ""},
  };
  return all;
}

}  // namespace

const std::vector<Paper>& papers() {
  static const std::vector<Paper> all = [] {
    std::vector<Paper> out;
    for (const Entry& e : entries()) {
      Paper p{e.id, e.title, e.authors, e.arxiv, e.docs_page, {}, e.story ? e.story().id : "", e.reproduction};
      for (const ExperimentFactory& f : e.experiments) p.experiments.push_back(f.id);
      out.push_back(std::move(p));
    }
    return out;
  }();
  return all;
}

const Paper& paper(const std::string& id) {
  return find_named(papers(), id, [](const Paper& p) { return p.id; }, "paper", "papers");
}

std::string paper_citation(const std::string& paper_id, const std::string& where) {
  return paper(paper_id).citation(where);
}

const std::vector<ExperimentFactory>& experiment_factories() {
  static const std::vector<ExperimentFactory> all = [] {
    std::vector<ExperimentFactory> out;
    for (const Entry& e : entries()) out.insert(out.end(), e.experiments.begin(), e.experiments.end());
    return out;
  }();
  return all;
}

// A story's paper and authors come from its paper's row.
std::vector<Story> make_stories() {
  std::vector<Story> out;
  for (const Entry& e : entries())
    if (e.story) {
      Story s = e.story();
      s.paper = e.title;
      s.authors = e.authors;
      s.glossary.push_back(ours_glossary_entry());
      out.push_back(std::move(s));
    }
  return out;
}

}  // namespace attnlab
