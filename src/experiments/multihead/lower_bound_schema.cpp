// `multihead.lower_bound`'s schema, preset and settings (docs/multihead.md s.4).
#include "experiments/multihead/lower_bound_schema.hpp"

#include <string>

namespace attnlab::multihead {

namespace {

const char* const kSpec = "docs/multihead.md s.4";

}  // namespace

Schema lower_bound_schema() {
  std::vector<ParamSpec> s;
  auto add = [&](ParamSpec p) { s.push_back(std::move(p)); };
  add(ParamSpec::integer("max_S", "largest |S|").range(1, 4).value("3").section(kSpec)
      .help_text("Parities on |S| = 1 .. this (8|S| + 8 heads: ours, the paper's 8dM + 8 of Lemma 11.7 specialised "
                 "to a parity)."));
  add(ParamSpec::integer("verify_d", "d for the exact check").range(3, 8).value("6").section(kSpec)
      .help_text("The gadget is checked on all 4^d inputs of two tokens."));
  add(ParamSpec::real("rho", "knot scale rho").range(1, 20).value("12").section(kSpec)
      .help_text("Knots tau = rho c / 2, v = rho 1_S / 2."));
  add(ParamSpec::integer("train_d", "d for learning").range(3, 16).value("10").section(kSpec)
      .help_text("Dimension for gradient descent and Gaussian elimination."));
  add(ParamSpec::integer("adam_samples", "Adam training set").range(100, 200000).value("20000").section(kSpec)
      .help_text("Training examples."));
  add(ParamSpec::integer("adam_steps", "Adam steps").range(0, 100000).value("800").section(kSpec)
      .help_text("Steps per |S|."));
  add(ParamSpec::integer("batch", "batch size").range(1, 4096).value("128").section(kSpec)
      .help_text("Examples per Adam step."));
  add(ParamSpec::real("lr", "learning rate").range(1e-5, 1).value("0.01").section(kSpec).log_slider()
      .help_text("Adam's step size."));
  return Schema(std::move(s));
}

std::vector<Preset> lower_bound_presets() {
  return {{"parities", "Lower bound, |S| = 1..3", "The gadget checked exactly, Adam and GF(2) for |S| = 1, 2, 3.",
           {{"max_S", "3"}, {"verify_d", "6"}, {"train_d", "10"}}}};
}

ParitySettings lower_bound_settings(const Params& p, std::uint64_t seed) {
  ParitySettings run;
  run.max_S = static_cast<int>(p.integer("max_S"));
  run.verify_d = static_cast<int>(p.integer("verify_d"));
  run.train_d = static_cast<int>(p.integer("train_d"));
  if (run.max_S >= run.verify_d || run.max_S >= run.train_d)
    throw ParamError("parameter 'max_S': " + std::to_string(run.max_S) +
                     " needs |S| + 1 <= d for both verify_d and train_d; allowed: max_S < min(verify_d, train_d)");
  run.rho = p.real("rho");
  run.adam.samples = static_cast<int>(p.integer("adam_samples"));
  run.adam.batch = static_cast<int>(p.integer("batch"));
  run.adam.lr = p.real("lr");
  run.adam_steps = static_cast<int>(p.integer("adam_steps"));
  run.seed = seed;
  return run;
}

}  // namespace attnlab::multihead
