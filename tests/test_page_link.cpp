// The page's link state (page/page_link.hpp) without a browser: the lab, a story step and the
// start page written as links and decoded back to the same state; Back / Next, Home and the
// teacher's preview.
#include <catch2/catch.hpp>

#include "experiments/registry.hpp"
#include "experiments/stories.hpp"
#include "page/page_link.hpp"

using namespace attnlab;
using namespace attnlab::page;

namespace {
Link decode(const std::string& hash, const std::string& on_screen = "separation.toy") {
  return decode_link(hash, link_catalogue(), on_screen);
}

// The page after applying `link`, as the App keeps it: link state, experiment and settings.
struct Page {
  LinkState state;
  std::unique_ptr<Experiment> experiment;
  Params params;
  std::string preset;
  std::uint64_t seed = 1;
  int threads = -1;
  StoryState story;
  explicit Page(const Link& link) {
    REQUIRE_FALSE(link.refused());
    state.apply(link);
    threads = link.threads;
    if (link.page == LinkPage::Start) return;
    experiment = make_experiment(link.experiment);
    params = link.params, preset = link.preset, seed = link.seed.value_or(1);
    if (link.story) story.open(attnlab::story(link.story->story), *link.story);  // as App::apply_link
  }
  LinkSubject subject(bool inspector = false, int point = 0, int trial = 0) const {
    return {experiment.get(), &params, preset, seed, threads, inspector, point, trial, state.in_story() ? &story : nullptr};
  }
  std::string address() const { return state.address(subject()); }
};
}  // namespace

TEST_CASE("page link: the lab's link decodes back to the same page", "[page]") {
  const Page page(decode("exp=separation.toy&preset=fig3b&seed=7&n=500&threads=3&embed=1&hide=tau,presets&theme=light"));
  const std::string link = page.address();
  CHECK(link.find("exp=separation.toy") != std::string::npos);
  CHECK(link.find("threads=3") != std::string::npos);
  const Page again(decode(link));
  CHECK(again.state.page() == LinkPage::Lab);
  CHECK(again.preset == "fig3b");
  CHECK(again.seed == 7);
  CHECK(again.threads == 3);
  CHECK(again.state.embed().embed);
  CHECK(again.state.embed().hidden == std::set<std::string>{"presets", "tau"});
  CHECK(again.state.embed().theme == ThemeChoice::Light);
  CHECK(again.experiment->schema().to_key_values(again.params) == page.experiment->schema().to_key_values(page.params));
  CHECK(again.address() == link);  // a fixed point: decoding and writing again changes nothing

  // The inspector's point and trial, and run=1 for an embed that starts by itself.
  const std::string inspect = page.state.encode(page.subject(true, 2, 1), page.state.embed(), true);
  const Link l = decode(inspect);
  CHECK(l.view == LinkView::Inspector);
  CHECK(l.point == 2);
  CHECK(l.trial == 1);
  CHECK(l.run);
}

TEST_CASE("page link: a story step's link keeps only the student's changes", "[page]") {
  const Story& s = story("separation");
  Page page(decode("story=separation&step=2"));
  REQUIRE(page.state.in_story());
  CHECK(page.address() == "story=separation&step=2");
  const std::string key = page.experiment->schema().specs().front().key;
  const Params opened = page.params;
  page.experiment->schema().set(page.params, key, page.experiment->schema().format(opened, key) == "3" ? "4" : "3");
  const std::string changed = page.address();
  CHECK(changed.rfind("story=separation&step=2&", 0) == 0);
  CHECK(changed.find(key + "=") != std::string::npos);
  const Page again(decode(changed));
  CHECK(again.state.in_story());
  CHECK(again.story.step_index() == 1);
  CHECK(again.address() == changed);
  CHECK(page.experiment->schema().to_key_values(again.params) == page.experiment->schema().to_key_values(page.params));
  // The free lab on the same settings.
  page.state.leave_story();
  CHECK(page.address().rfind("exp=" + s.steps[1].settings.experiment, 0) == 0);
}

TEST_CASE("page link: Back / Next keep the look, Home keeps the theme, the start page its flags", "[page]") {
  const Page page(decode("story=separation&step=1&embed=1&theme=contrast&hide=run"));
  const std::string next = page.state.story_step_link(page.story, 1, page.threads);
  const Link l = decode(next);
  REQUIRE_FALSE(l.refused());
  CHECK(l.story->step == 1);
  CHECK(l.embed.embed);
  CHECK(l.embed.theme == ThemeChoice::HighContrast);
  CHECK(l.embed.hidden == std::set<std::string>{"run"});

  const Link home = decode(page.state.home_link(page.threads));
  CHECK(home.page == LinkPage::Start);
  CHECK(home.embed.theme == ThemeChoice::HighContrast);
  CHECK_FALSE(home.embed.embed);
  CHECK(home.embed.hidden.empty());
  // Home keeps how the page looks and computes (theme, threads, the text view), by the link-key table.
  const Page lab(decode("exp=regression&seed=2&threads=3&view=text&theme=light&hide=seed"));
  CHECK(lab.state.home_link(lab.threads) == "theme=light&threads=3&view=text");
  const Link lab_home = decode(lab.state.home_link(lab.threads));
  CHECK(lab_home.threads == 3);
  CHECK(lab_home.text_view);
  CHECK(lab_home.embed.theme == ThemeChoice::Light);
  CHECK(lab_home.embed.hidden.empty());

  const Page start(decode("theme=light&threads=0&view=text"));
  CHECK(start.state.start_page());
  CHECK(start.state.text_view());
  const Link back = decode(start.address());
  CHECK(back.page == LinkPage::Start);
  CHECK(back.threads == 0);
  CHECK(back.text_view);
  CHECK(back.embed.theme == ThemeChoice::Light);
}

TEST_CASE("page link: a preview keeps the page's own link; a refused link keeps an embed's look", "[page]") {
  Page page(decode("exp=regression&seed=4"));
  const std::string own = page.address();
  page.state.start_preview(own);
  page.state.apply(decode("exp=regression&seed=4&embed=1&hide=params"));
  page.state.start_preview(own);
  CHECK(page.address() == own);
  CHECK(page.state.end_preview() == own);
  CHECK_FALSE(page.state.previewing());

  const Link refused = decode("exp=separation.toy&n=-3&embed=1&theme=light");
  REQUIRE(refused.refused());
  LinkState state;
  state.salvage(refused);
  CHECK(state.page() == LinkPage::Lab);
  CHECK(state.embed().embed);
  CHECK(state.embed().theme == ThemeChoice::Light);
}

TEST_CASE("page link: one table of link keys drives the reserved keys, the choices and the refusals", "[page]") {
  for (const LinkKey& k : link_keys()) {
    CHECK(is_reserved_hash_key(k.key));
    CHECK(find_link_key(k.key) == &k);
  }
  CHECK_FALSE(is_reserved_hash_key("n"));
  CHECK(decode_hash("exp=a&view=text&n=3").flag("view") == "text");
  CHECK(decode_hash("exp=a&view=text&n=3").params == KeyValues{{"n", "3"}});
  for (const auto& row : kThemeTable) {
    CHECK(to_string(row.value) == std::string(row.name));
    CHECK(decode("exp=regression&theme=" + std::string(row.name)).embed.theme == row.value);
  }
  CHECK(decode("exp=regression&theme=blue").refusal == "link: 'theme=blue' is not allowed; allowed: dark, light or contrast");
  CHECK(decode("exp=regression&view=map").refusal == "link: 'view=map' is not allowed; allowed: results, inspector or text");
  CHECK_THAT(decode("exp=regression&threads=17").refusal, Catch::Contains("integer in [0, 16]"));
}

TEST_CASE("page link: the student's prediction rides in the link and a reload restores it", "[page]") {
  const Story& s = story("separation");
  REQUIRE(s.steps[0].prediction);
  const std::size_t n = s.steps[0].prediction->choices.size();
  REQUIRE(n >= 2);
  Page page(decode("story=separation&step=1&theme=light"));
  CHECK(page.address() == "story=separation&step=1&theme=light");  // no prediction yet
  REQUIRE(page.story.predict(1.0).empty());
  const std::string predicted = page.address();
  CHECK(predicted == "story=separation&step=1&predict=2&theme=light");  // from 1, as step=, right after it
  const Page reloaded(decode(predicted));
  CHECK(reloaded.story.choice() == 1);
  CHECK_FALSE(reloaded.story.awaiting_prediction());
  CHECK(reloaded.address() == predicted);  // a fixed point
  // The link is the page: opening the step's link without predict= leaves it unpredicted.
  StoryState same = reloaded.story;
  same.open(s, *decode("story=separation&step=1").story);
  CHECK_FALSE(same.predicted());
  // An embed's link (the teacher's snippet) never answers for the students; Back / Next and Home
  // write no prediction; "Open in Attention Lab" (not an embed) keeps it.
  EmbedOptions embed = page.state.embed();
  embed.embed = true;
  CHECK(page.state.encode(page.subject(), embed, false).find("predict=") == std::string::npos);
  CHECK_FALSE(link_key("predict").embed_keeps());
  CHECK_FALSE(link_key("predict").home_keeps());
  CHECK(page.state.story_step_link(page.story, 1, page.threads).find("predict=") == std::string::npos);
  CHECK(page.state.home_link(page.threads).find("predict=") == std::string::npos);
  CHECK(page.state.encode(page.subject(), EmbedOptions{}, false).find("&predict=2") != std::string::npos);

  // Refused with the key, the value and what is allowed.
  const std::string choices = "allowed: " + link_key("predict").allowed + " (integer in [1, " + std::to_string(n) +
                              "]: the choices of step 1 of story 'separation')";
  for (const std::string& bad : std::vector<std::string>{"0", std::to_string(n + 1), "x", "1.5", "-1", ""})
    CHECK(decode("story=separation&step=1&predict=" + bad).refusal == "link: 'predict=" + bad + "' is not allowed; " + choices);
  CHECK(decode("predict=1").refusal == "link: 'predict=1' needs a story; allowed: story=ID&step=N");
  CHECK(decode("exp=regression&predict=1").refusal == "link: 'predict=1' needs a story; allowed: story=ID&step=N");
}

TEST_CASE("page link: a typed prediction in the link, and a step that asks for none", "[page]") {
  Story typed;
  typed.id = "typed";
  typed.steps.resize(2);
  typed.steps[0].prediction = StoryPrediction::asking("How many?").typed_range(0, 100).in_percent();
  const std::vector<Story> both = {typed};
  const auto at = [&](const std::string& hash) { return parse_story_position(decode_hash(hash), both); };
  CHECK(*at("story=typed&step=1&predict=12.5")->prediction == 12.5);
  CHECK_FALSE(at("story=typed&step=1")->prediction.has_value());
  CHECK_THROWS_WITH(at("story=typed&step=1&predict=101"),
                    "link: 'predict=101' is not allowed; allowed: " + link_key("predict").allowed +
                        " (a number in [0, 100]: the prediction of step 1 of story 'typed')");
  for (const std::string& bad : std::vector<std::string>{"1e3", "nan", "12.5x", " 3", "0x10"})
    CHECK_THROWS_WITH(at("story=typed&step=1&predict=" + bad), Catch::Contains("a number in [0, 100]"));
  CHECK_THROWS_WITH(at("story=typed&step=2&predict=1"),
                    "link: 'predict=1' is not allowed; step 2 of story 'typed' asks for no prediction");
  CHECK(encode_story_hash({"typed", 0, 12.5}, typed.steps[0], {}, 1, {}) == "story=typed&step=1&predict=12.5");
  CHECK(encode_story_hash({"typed", 1, std::nullopt}, typed.steps[1], {}, 1, {}) == "story=typed&step=2");
}
