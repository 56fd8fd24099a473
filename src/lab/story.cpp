#include "lab/story.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "lab/find_named.hpp"
#include "lab/param.hpp"
#include "lab/json_text.hpp"
#include "lab/link_keys.hpp"
#include "lab/text.hpp"

namespace attnlab {

std::string format_measured(const StoryPrediction& p, double value) {
  if (!std::isfinite(value)) return "not measured";
  char buf[64];
  // More digits while the written value reads as a choice's edge that the value is not: 0.99017
  // beside "over 99%" is 99.02%, not 99.0%.
  for (int extra = 0; extra < 4; ++extra) {
    if (p.percent && value != 0.0 && std::fabs(value) < 0.01)  // small rates keep two digits: "0.13%"
      std::snprintf(buf, sizeof buf, "%.*g%%", 2 + extra, 100.0 * value);
    else if (p.percent)
      std::snprintf(buf, sizeof buf, "%.*f%%", 1 + extra, 100.0 * value);
    else
      std::snprintf(buf, sizeof buf, "%.*g", 3 + extra, value);
    const double written = std::strtod(buf, nullptr) / (p.percent ? 100.0 : 1.0);
    bool on_edge = false;
    for (const PredictionChoice& c : p.choices)
      on_edge = on_edge || ((written == c.low || written == c.high) && std::fabs(written - value) > 1e-12 * std::fabs(value));
    if (!on_edge) break;
  }
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
  // The last step's answer above it has said what the student changed: said once, there.
  return render_parts_only(story.summary, story.steps.back().measures, last_step_results, settings);
}

int matching_choice(const StoryPrediction& p, double value) {
  for (std::size_t i = 0; i < p.choices.size(); ++i)
    if (value >= p.choices[i].low && value <= p.choices[i].high) return static_cast<int>(i);
  return -1;
}

std::vector<GlossarySegment> glossary_segments(const std::vector<GlossaryEntry>& glossary, const std::string& text,
                                               std::vector<std::string>* marked) {
  const auto lower = [](std::string t) {
    for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return t;
  };
  const auto letter = [&text](std::size_t i) {
    return i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_');
  };
  const std::string low = lower(text);
  struct Hit { std::size_t at, size; const GlossaryEntry* entry; };
  std::vector<Hit> hits;
  for (const GlossaryEntry& g : glossary) {
    const std::string term = lower(g.term);
    if (term.empty() || (marked && std::find(marked->begin(), marked->end(), g.term) != marked->end())) continue;
    for (std::size_t at = low.find(term); at != std::string::npos; at = low.find(term, at + 1)) {
      std::size_t end = at + term.size();
      if (low[end - 1] != 's' && end < low.size() && low[end] == 's' && !letter(end + 1)) ++end;  // a plural
      if ((at > 0 && letter(at - 1)) || letter(end)) continue;
      if (at > 0 && text[at - 1] == '^') continue;  // an exponent's notation: (kd)^Theta(m) is big-Theta
      hits.push_back({at, end - at, &g});
      break;
    }
  }
  std::sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) { return a.at < b.at || (a.at == b.at && a.size > b.size); });
  std::vector<GlossarySegment> out;
  std::size_t from = 0;
  for (const Hit& h : hits) {
    if (h.at < from) continue;  // inside a longer term marked before
    if (h.at > from) out.push_back({text.substr(from, h.at - from), nullptr});
    out.push_back({text.substr(h.at, h.size), h.entry});
    if (marked) marked->push_back(h.entry->term);
    from = h.at + h.size;
  }
  if (from < text.size()) out.push_back({text.substr(from), nullptr});
  return out;
}

namespace {

// predict= of step `k` of `story`: the value StoryState::predict takes, or a ParamError.
double parse_prediction(const std::string& value, const Story& story, std::size_t k) {
  const std::string key = link_key("predict").key;
  const std::string where = "step " + std::to_string(k + 1) + " of story '" + story.id + "'";
  const std::optional<StoryPrediction>& p = story.steps[k].prediction;
  if (!p) throw ParamError("link: '" + key + "=" + value + "' is not allowed; " + where + " asks for no prediction");
  if (p->choices.empty()) {
    double typed = 0.0;
    char* end = nullptr;
    if (is_plain_decimal(value)) typed = std::strtod(value.c_str(), &end);
    if (!end || *end != '\0' || !(typed >= p->min && typed <= p->max))
      throw link_value_refused(key, value, " (a number in [" + format_number(p->min) + ", " + format_number(p->max) +
                                                "]: the prediction of " + where + ")");
    return typed;
  }
  const long long n = parse_digits(value, 2).value_or(0);
  if (n < 1 || static_cast<std::size_t>(n) > p->choices.size())
    throw link_value_refused(key, value, " (integer in [1, " + std::to_string(p->choices.size()) + "]: the choices of " +
                                             where + ")");
  return static_cast<double>(n - 1);
}

// predict='s value for a prediction of `step` as StoryState::predict takes it.
std::string prediction_link_value(const StoryStep& step, double prediction) {
  if (step.prediction && !step.prediction->choices.empty()) return std::to_string(static_cast<long long>(prediction) + 1);
  return format_number(prediction);
}

}  // namespace

std::optional<StoryPosition> parse_story_position(const HashState& link, const std::vector<Story>& stories) {
  const std::string story_key = link_key("story").key, step_key = link_key("step").key,
                    predict_key = link_key("predict").key;
  const auto given = [&link](const std::string& key) -> const std::string* {
    for (const auto& kv : link.flags)
      if (kv.first == key) return &kv.second;
    return nullptr;
  };
  const std::string *id = given(story_key), *step = given(step_key), *predict = given(predict_key);
  if (!id) {
    for (const auto& [key, value] : {std::pair{step_key, step}, std::pair{predict_key, predict}})
      if (value)
        throw ParamError("link: '" + key + "=" + *value + "' needs a story; allowed: " + story_key + "=ID&" + step_key + "=N");
    return std::nullopt;
  }
  if (!link.experiment.empty())
    throw ParamError(std::string("link: '") + link_key("exp").key + "=" + link.experiment + "' cannot be given with '" +
                     story_key + "'; a story's step names its experiment");
  if (!link.preset.empty())
    throw ParamError(std::string("link: '") + link_key("preset").key + "=" + link.preset + "' cannot be given with '" +
                     story_key + "'; a story's step names its preset");
  const auto id_of = [](const Story& s) { return s.id; };
  const Story* found = find_named_or_null(stories, *id, id_of);
  if (!found)
    throw ParamError("link: '" + story_key + "=" + *id + "' is not allowed; allowed: " + known_names(stories, id_of));
  const std::size_t count = found->steps.size();
  const long long n = step ? parse_digits(*step, 3).value_or(0) : 1;
  if (n < 1 || static_cast<std::size_t>(n) > count)
    throw ParamError("link: '" + step_key + "=" + *step + "' is not allowed; allowed: integer in [1, " +
                     std::to_string(count) + "] (the steps of story '" + *id + "')");
  StoryPosition at{*id, static_cast<std::size_t>(n - 1), std::nullopt};
  if (predict) at.prediction = parse_prediction(*predict, *found, at.step);
  return at;
}

std::string encode_story_hash(const StoryPosition& at, const StoryStep& step, const KeyValues& params,
                              std::uint64_t seed, const KeyValues& flags) {
  std::string out = std::string(link_key("story").key) + "=" + percent_encode(at.story) + "&" + link_key("step").key + "=" +
                    std::to_string(at.step + 1);
  if (at.prediction) out += "&" + std::string(link_key("predict").key) + "=" + prediction_link_value(step, *at.prediction);
  if (seed != step.settings.seed) out += "&" + std::string(link_key("seed").key) + "=" + std::to_string(seed);
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
          {"link", encode_story_hash({s.id, k, std::nullopt}, step, {}, step.settings.seed, {})},
          {"experiment", step.settings.experiment},
          {"preset", step.settings.preset},
          {"params", json_object(step.settings.params)},
          {"seed", step.settings.seed},
          {"shows", step.shows},
          {"given", step.given},
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
