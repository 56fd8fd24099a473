#include <catch2/catch.hpp>

#include "experiments/registry.hpp"
#include "lab/url_hash.hpp"

using namespace attnlab;

TEST_CASE("every experiment's defaults and presets validate", "[lab][registry]") {
  for (const auto& id : experiment_ids()) {
    auto e = make_experiment(id);
    CHECK(e->info().id == id);
    CHECK_NOTHROW(e->schema().defaults());
    for (const auto& p : e->presets()) {
      INFO(id << " preset " << p.name);
      CHECK_NOTHROW(e->make_params(p.name, {}));
      CHECK_FALSE(p.description.empty());
    }
    for (const auto& s : e->schema().specs()) {
      INFO(id << " parameter " << s.key);
      CHECK_FALSE(is_reserved_hash_key(s.key));
      CHECK_FALSE(s.help.empty());
    }
  }
}

TEST_CASE("unknown experiments and presets are named in the error", "[lab][registry]") {
  CHECK_THROWS_WITH(make_experiment("nope"), "unknown experiment 'nope'; experiments: separation.toy, separation.self, separation.cross, regression, regression.icl, mirror, multihead, multihead.lower_bound, multihead.acceptance");
  auto e = make_experiment("separation.toy");
  CHECK_THROWS_WITH(e->make_params("fig9", {}), Catch::StartsWith("unknown preset 'fig9' for separation.toy; presets: fig3a"));
}
