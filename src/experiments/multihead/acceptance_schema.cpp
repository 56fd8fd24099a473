// `multihead.acceptance`'s schema and presets (docs/multihead.md s.5).
#include "experiments/multihead/acceptance_schema.hpp"

namespace attnlab::multihead {

namespace {

const char* const kSpec = "docs/multihead.md s.5";

}  // namespace

Schema acceptance_schema() {
  std::vector<ParamSpec> s;
  auto add = [&](ParamSpec p) { s.push_back(std::move(p)); };
  add(ParamSpec::integer("d", "dimension d").range(2, 16).value("12").section(kSpec).help_text("Token dimension."));
  add(ParamSpec::integer("k", "tokens k").range(2, 6).value("3").section(kSpec).help_text("Tokens per input."));
  add(ParamSpec::integer("m", "heads m").range(1, 4).value("2").section(kSpec).can_sweep()
      .help_text("Heads of the hidden layer."));
  add(ParamSpec::real("eps", "certification eps").range(0.001, 1).value("0.1").section(kSpec).log_slider().can_sweep()
      .help_text("Residual threshold eps/2."));
  add(ParamSpec::real("norm", "||Theta_1||").range(0.1, 20).value("3").section(kSpec).can_sweep()
      .help_text("Attention norm."));
  add(ParamSpec::integer("samples", "samples per point").range(100, 100000000).value("200000").section(kSpec)
      .help_text("Examples certified at each point (with the true W_sum, so only the attention patterns matter)."));
  add(ParamSpec::sweep("sweep", "sweep").value("m=1,2,3").section(kSpec)
      .help_text("none, or m, eps or norm over values."));
  return Schema(std::move(s));
}

std::vector<Preset> acceptance_presets() {
  return {{"versus_m", "Acceptance vs m", "m = 1, 2, 3 at (12, 3), eps = 0.1.", {{"sweep", "m=1,2,3"}}},
          {"versus_eps", "Acceptance vs eps (m = 2)", "eps from 0.025 to 0.4 at m = 2.",
           {{"m", "2"}, {"sweep", "eps=0.025,0.05,0.1,0.2,0.4"}}},
          {"versus_norm", "Acceptance vs attention norm (m = 2)", "||Theta|| from 1 to 15 at m = 2.",
           {{"m", "2"}, {"sweep", "norm=1,3,5,8,15"}}}};
}

}  // namespace attnlab::multihead
