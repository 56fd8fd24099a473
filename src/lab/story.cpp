#include "lab/story.hpp"

#include <cmath>
#include <cstdio>

#include "lab/find_named.hpp"
#include "lab/param.hpp"
#include "lab/json_text.hpp"
#include "lab/text.hpp"

namespace attnlab {

std::string format_measured(const StoryPrediction& p, double value) {
  if (!std::isfinite(value)) return "not measured";
  char buf[64];
  if (p.percent && value != 0.0 && std::fabs(value) < 0.01)  // small rates keep two digits: "0.13%"
    std::snprintf(buf, sizeof buf, "%.2g%%", 100.0 * value);
  else if (p.percent)
    return format_like(value, "0.0%");
  else
    std::snprintf(buf, sizeof buf, "%.3g", value);
  return buf;
}

std::string render_answer(const StoryStep& step, const Results& results, const RunSettings& settings) {
  return render_parts(step.answer, step.measures, results, settings);
}

std::optional<double> prediction_value(const StoryStep& step, const Results& results) {
  if (!step.prediction) return std::nullopt;
  for (const StoryMeasure& m : step.measures)
    if (m.name == step.prediction->measured) {
      const auto v = measure_value(m, results);
      if (v && std::isfinite(v->number)) return v->number;
    }
  return std::nullopt;
}

std::string render_summary(const Story& story, const Results& last_step_results, const RunSettings& settings) {
  return render_parts(story.summary, story.steps.back().measures, last_step_results, settings);
}

int matching_choice(const StoryPrediction& p, double value) {
  for (std::size_t i = 0; i < p.choices.size(); ++i)
    if (value >= p.choices[i].low && value <= p.choices[i].high) return static_cast<int>(i);
  return -1;
}

std::optional<StoryPosition> parse_story_position(const HashState& link, const std::vector<Story>& stories) {
  bool has_story = false, has_step = false;
  std::string id, step;
  for (const auto& [key, value] : link.flags) {
    if (key == "story") has_story = true, id = value;
    if (key == "step") has_step = true, step = value;
  }
  if (!has_story) {
    if (has_step) throw ParamError("link: 'step=" + step + "' needs a story; allowed: story=ID&step=N");
    return std::nullopt;
  }
  if (!link.experiment.empty())
    throw ParamError("link: 'exp=" + link.experiment + "' cannot be given with 'story'; a story's step names its experiment");
  if (!link.preset.empty())
    throw ParamError("link: 'preset=" + link.preset + "' cannot be given with 'story'; a story's step names its preset");
  const auto id_of = [](const Story& s) { return s.id; };
  const Story* found = find_named_or_null(stories, id, id_of);
  if (!found) throw ParamError("link: 'story=" + id + "' is not allowed; allowed: " + known_names(stories, id_of));
  const std::size_t count = found->steps.size();
  const long long n = parse_digits(step, 3).value_or(0);
  if (has_step && (n < 1 || static_cast<std::size_t>(n) > count))
    throw ParamError("link: 'step=" + step + "' is not allowed; allowed: integer in [1, " + std::to_string(count) +
                     "] (the steps of story '" + id + "')");
  return StoryPosition{id, has_step ? static_cast<std::size_t>(n - 1) : 0};
}

std::string encode_story_hash(const StoryPosition& at, const StoryStep& step, const KeyValues& params,
                              std::uint64_t seed, const KeyValues& flags) {
  std::string out = "story=" + percent_encode(at.story) + "&step=" + std::to_string(at.step + 1);
  if (seed != step.settings.seed) out += "&seed=" + std::to_string(seed);
  for (const auto& [k, v] : params) out += "&" + percent_encode(k) + "=" + percent_encode(v);
  for (const auto& [k, v] : flags) out += "&" + percent_encode(k) + "=" + percent_encode(v);
  return out;
}

namespace {

JsonValue step_json(const Story& s, std::size_t k) {
  const StoryStep& step = s.steps[k];
  JsonValue prediction = nullptr;
  if (step.prediction) {
    JsonValue choices = JsonValue::array();
    for (const auto& c : step.prediction->choices) choices.push_back(c.label);
    prediction = {{"question", step.prediction->question}, {"choices", std::move(choices)}};
  }
  return {{"title", step.title},
          {"text", step.text},
          {"question", step.question},
          {"answer", parts_template(step.answer)},
          {"link", encode_story_hash({s.id, k}, step, {}, step.settings.seed, {})},
          {"experiment", step.settings.experiment},
          {"preset", step.settings.preset},
          {"params", json_object(step.settings.params)},
          {"seed", step.settings.seed},
          {"shows", step.shows},
          {"run", step.run},
          {"prediction", std::move(prediction)}};
}

JsonValue story_json(const Story& s) {
  JsonValue steps = JsonValue::array();
  for (std::size_t k = 0; k < s.steps.size(); ++k) steps.push_back(step_json(s, k));
  return {{"id", s.id},
          {"paper", s.paper},
          {"authors", s.authors},
          {"result", s.result},
          {"figureCaption", s.figure_caption},
          {"summary", parts_template(s.summary)},
          {"steps", std::move(steps)}};
}

}  // namespace

std::string story_to_json(const Story& s) { return json_text(story_json(s)); }

std::string stories_to_json(const std::vector<Story>& stories) {
  JsonValue all = JsonValue::array();
  for (const Story& s : stories) all.push_back(story_json(s));
  return json_text(all);
}

}  // namespace attnlab
