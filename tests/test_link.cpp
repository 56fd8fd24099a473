// decode_link (lab/link.hpp): a link decoded once into one validated value, or a refusal that keeps
// what an embed can salvage.
#include <catch2/catch.hpp>

#include "experiments/registry.hpp"
#include "experiments/stories.hpp"
#include "lab/link.hpp"

using namespace attnlab;

namespace {
Link decode(const std::string& hash, const std::string& on_screen = "separation.toy") {
  return decode_link(hash, link_catalogue(), on_screen);
}
}  // namespace

TEST_CASE("decode_link: an experiment's link becomes one validated value", "[lab][url][link]") {
  const Link link = decode("#exp=separation.toy&preset=fig3b&seed=7&n=500&view=inspector&point=2&trial=3&threads=4"
                           "&embed=1&hide=tau,presets&theme=light&run=1");
  REQUIRE_FALSE(link.refused());
  CHECK(link.page == LinkPage::Lab);
  CHECK(link.experiment == "separation.toy");
  CHECK_FALSE(link.story);
  CHECK(link.preset == "fig3b");
  auto e = make_experiment("separation.toy");
  // The preset's values, then the link's.
  const Params expected = e->make_params("fig3b", {{"n", "500"}});
  CHECK(e->schema().to_key_values(link.params) == e->schema().to_key_values(expected));
  REQUIRE(link.seed);
  CHECK(*link.seed == 7);
  CHECK(link.view == LinkView::Inspector);
  CHECK(link.point == 2);
  CHECK(link.trial == 3);
  CHECK(link.threads == 4);
  CHECK(link.embed.embed);
  CHECK(link.embed.hidden == std::set<std::string>{"presets", "tau"});
  CHECK(link.embed.theme == ThemeChoice::Light);
  CHECK(link.run);
  CHECK_FALSE(link.salvaged_embed);

  // The defaults: no seed (the page keeps its own), the results view, no threads, no run.
  const Link plain = decode("exp=regression");
  REQUIRE_FALSE(plain.refused());
  CHECK(plain.experiment == "regression");
  CHECK(plain.preset.empty());
  CHECK_FALSE(plain.seed);
  CHECK(plain.view == LinkView::Results);
  CHECK(plain.point == 0);
  CHECK(plain.threads == -1);
  CHECK_FALSE(plain.embed.embed);
  CHECK_FALSE(plain.run);
  // A hidden Run button runs by itself; threads=0 computes on the main thread.
  CHECK(decode("exp=regression&hide=run").run);
  CHECK(decode("exp=regression&threads=0").threads == 0);
  CHECK(decode("exp=regression&threads=16").threads == kMaxLinkThreads);
}

TEST_CASE("decode_link: a story's step opens its settings, the link's values are the student's changes",
          "[lab][url][link]") {
  const Story& s = story("separation");
  const StoryStep& first = s.steps[0];
  const Link link = decode("story=separation&step=1&n=800");
  REQUIRE_FALSE(link.refused());
  CHECK(link.page == LinkPage::Story);
  REQUIRE(link.story);
  CHECK(link.story->story == "separation");
  CHECK(link.story->step == 0);
  CHECK(link.experiment == first.settings.experiment);
  CHECK(link.preset == first.settings.preset);
  auto e = make_experiment(first.settings.experiment);
  KeyValues values = first.settings.params;
  values.emplace_back("n", "800");
  CHECK(e->schema().to_key_values(link.params) == e->schema().to_key_values(e->make_params(first.settings.preset, values)));
  REQUIRE(link.seed);
  CHECK(*link.seed == first.settings.seed);  // the step's seed when the link gives none
  CHECK(*decode("story=separation&step=1&seed=9").seed == 9);
  // Every step asks a prediction first, so none runs by itself; run=1 in the link still runs it.
  CHECK_FALSE(link.run);
  CHECK_FALSE(s.steps[1].run);
  CHECK_FALSE(decode("story=separation&step=2").run);
  CHECK(decode("story=separation&step=2&run=1").run);
}

TEST_CASE("decode_link: the start page keeps its flags, never an embed", "[lab][url][link]") {
  const Link link = decode("embed=1&theme=contrast&hide=tau&threads=2");
  REQUIRE_FALSE(link.refused());
  CHECK(link.page == LinkPage::Start);
  CHECK(link.experiment.empty());
  CHECK_FALSE(link.embed.embed);
  CHECK(link.embed.theme == ThemeChoice::HighContrast);
  CHECK(link.embed.hidden == std::set<std::string>{"tau"});  // a key of the experiment on screen
  CHECK(link.threads == 2);
  CHECK(decode("").page == LinkPage::Start);
  CHECK(decode("#").page == LinkPage::Start);
}

TEST_CASE("decode_link: every refusal names what is wrong", "[lab][url][link]") {
  const std::vector<std::pair<std::string, std::string>> refused = {
      // The hash itself.
      {"exp=separation.toy&oops", "'oops' is not of the form key=value"},
      {"exp=separation.toy&tau=1&tau=2", "'tau' is given twice"},
      {"exp=separation.toy&seed=-3", "parameter 'seed'"},
      {"exp=separation.toy&seed=4294967296", "parameter 'seed'"},
      {"exp=separation.toy&n=" + std::string(kMaxHashBytes, '1'), "a link may have"},
      // What it opens.
      {"exp=nothing.here", "nothing.here"},
      {"story=nope", "link: 'story=nope' is not allowed"},
      {"story=separation&step=99", "link: 'step=99' is not allowed"},
      {"step=2", "needs a story"},
      {"story=separation&exp=regression", "cannot be given with 'story'"},
      {"story=separation&preset=fig3b", "cannot be given with 'story'"},
      // The values, checked by the schema.
      {"exp=separation.toy&tau=9", "parameter 'tau': '9' is out of range"},
      {"exp=separation.toy&bogus=1", "bogus"},
      {"exp=separation.toy&preset=nope", "nope"},
      {"story=separation&step=1&tau=9", "parameter 'tau'"},
      // The page's flags.
      {"exp=separation.toy&embed=yes", "link: 'embed=yes' is not allowed; allowed: 0 or 1"},
      {"exp=separation.toy&theme=pink", "link: 'theme=pink' is not allowed"},
      {"exp=separation.toy&hide=approx_diag", "link: 'hide' names 'approx_diag'"},
      {"exp=separation.toy&view=table", "link: 'view=table' is not allowed; allowed: results, inspector or text"},
      {"exp=separation.toy&point=x", "link: 'point=x' is not allowed"},
      {"exp=separation.toy&trial=-1", "link: 'trial=-1' is not allowed"},
      {"exp=separation.toy&threads=17", "link: 'threads=17' is not allowed; allowed: integer in [0, 16]"},
      {"exp=separation.toy&threads=two", "link: 'threads=two' is not allowed"},
      // Settings without an experiment would be lost.
      {"seed=3", "link: 'seed' needs an experiment or a story"},
      {"preset=fig3b", "link: 'preset' needs an experiment or a story"},
      {"n=100", "link: 'n' needs an experiment or a story"},
      {"threads=99", "link: 'threads=99' is not allowed"},
      {"hide=nothing", "link: 'hide' names 'nothing'"},
  };
  for (const auto& [hash, message] : refused) {
    INFO(hash.substr(0, 80));
    const Link link = decode(hash);
    CHECK(link.refused());
    CHECK_THAT(link.refusal, Catch::Contains(message));
    CHECK_FALSE(link.salvaged_embed);  // none of them asked for an embed
  }
}

TEST_CASE("decode_link: a refused embed keeps what is valid of its look", "[lab][url][link]") {
  // A bad value: the embed, its theme and its valid hidden controls stay, for its own experiment.
  const Link link = decode("exp=regression&kappa=0&embed=1&hide=run,bogus,params&theme=dark");
  REQUIRE(link.refused());
  REQUIRE(link.salvaged_embed);
  CHECK(link.salvaged_experiment == "regression");
  CHECK(link.salvaged_embed->embed);
  CHECK(link.salvaged_embed->hidden == std::set<std::string>{"params", "run"});
  CHECK(link.salvaged_embed->theme == ThemeChoice::Dark);
  // hide= is checked against the experiment the link names...
  const Link named = decode("exp=separation.toy&view=x&embed=1&hide=tau,approx_diag", "regression");
  REQUIRE(named.salvaged_embed);
  CHECK(named.salvaged_experiment == "separation.toy");
  CHECK(named.salvaged_embed->hidden == std::set<std::string>{"tau"});
  // ... or, when it names none that exists, against the experiment on screen.
  const Link unknown = decode("exp=nothing.here&embed=1&hide=tau,info&theme=wrong");
  REQUIRE(unknown.salvaged_embed);
  CHECK(unknown.salvaged_experiment.empty());
  CHECK(unknown.salvaged_embed->hidden == std::set<std::string>{"info", "tau"});
  CHECK(unknown.salvaged_embed->theme == ThemeChoice::Default);
  const Link story_link = decode("story=separation&step=42&embed=1&theme=light", "regression");
  REQUIRE(story_link.salvaged_embed);
  CHECK(story_link.salvaged_experiment.empty());
  CHECK(story_link.salvaged_embed->theme == ThemeChoice::Light);
  // A link that does not even decode keeps nothing; nor does one without embed=1.
  CHECK_FALSE(decode("exp=regression&embed=1&oops").salvaged_embed);
  CHECK_FALSE(decode("exp=regression&kappa=0&embed=0&theme=dark").salvaged_embed);
}
