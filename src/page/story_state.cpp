#include "page/story_state.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace attnlab::page {

void StoryState::open(const Story& story, std::size_t step) {
  if (story.steps.empty()) throw ParamError("story '" + story.id + "' has no step");
  step = std::min(step, story.steps.size() - 1);
  if (story_ != &story || step_ != step) choice_ = -1, number_ = 0.0, number_given_ = false;
  story_ = &story;
  step_ = step;
}

void StoryState::open(const Story& story, const StoryPosition& at) {
  open(story, at.step);
  choice_ = -1, number_ = 0.0, number_given_ = false;
  if (at.prediction) predict(*at.prediction);  // parse_story_position checked it
}

std::string StoryState::predict_at(const std::string& story, std::size_t step, double value) {
  if (!is_open() || story != story_->id || step != step_)
    return "story: step " + std::to_string(step + 1) + " of story '" + story + "' is not on screen; " +
           (is_open() ? "on screen: step " + std::to_string(step_ + 1) + " of story '" + story_->id + "'" : std::string("no story step is open"));
  return predict(value);
}

std::optional<double> StoryState::prediction() const {
  if (choice_ >= 0) return static_cast<double>(choice_);
  if (number_given_) return number_;
  return std::nullopt;
}

KeyValues StoryState::record_context(const Results& results, bool done) const {
  KeyValues out = {{"story", story_->id}, {"story_step", std::to_string(step_ + 1)}};
  if (!step().prediction) return out;
  out.emplace_back("prediction", prediction_text());
  if (done) out.emplace_back("measured", measured_text(results));
  return out;
}

std::string StoryState::predict(double value) {
  if (!step().prediction) return "story: this step asks for no prediction";
  const StoryPrediction& p = *step().prediction;
  if (p.choices.empty()) {
    if (!(value >= p.min && value <= p.max))
      return "story: a prediction in [" + format_number(p.min) + ", " + format_number(p.max) + "] is expected";
    number_ = value, number_given_ = true;
    return "";
  }
  if (!(value >= 0 && value < static_cast<double>(p.choices.size())) || value != static_cast<double>(static_cast<int>(value)))
    return "story: a choice in [0, " + std::to_string(p.choices.size() - 1) + "] is expected";
  choice_ = static_cast<int>(value);
  return "";
}

std::size_t StoryState::step_by(int delta) const {
  const long to = static_cast<long>(step_) + delta;
  if (to < 0 || to >= static_cast<long>(story_->steps.size()))
    throw ParamError("story: no step there; allowed: steps 1 to " + std::to_string(story_->steps.size()) + " of story '" +
                     story_->id + "'");
  return static_cast<std::size_t>(to);
}

std::string StoryState::measured_text(const Results& results) const {
  const StoryPrediction& p = *step().prediction;
  const std::optional<double> value = prediction_value(step(), results);
  if (!value) return "";
  std::string out = p.measured_label + ": " + format_measured(p, *value);
  const int answer = matching_choice(p, *value);
  if (!p.choices.empty() && answer >= 0) out += ". Answer: " + p.choices[static_cast<std::size_t>(answer)].label;
  return out;
}

std::string StoryState::prediction_text() const {
  const StoryPrediction& p = *step().prediction;
  if (!predicted()) return "no prediction";
  if (p.choices.empty()) return format_measured(p, p.percent ? number_ / 100.0 : number_);
  return p.choices[static_cast<std::size_t>(choice_)].label;
}

bool StoryState::prediction_right(const Results& results) const {
  const StoryPrediction& p = *step().prediction;
  const std::optional<double> value = prediction_value(step(), results);
  return value && !p.choices.empty() && matching_choice(p, *value) == choice_;
}

namespace {
// A text (the step's, its answer, the summary: each marks its own first uses) as glossary_segments
// cuts it: [{"text"}, {"text", "term", "definition", "source"}].
nlohmann::ordered_json text_parts(const std::vector<GlossaryEntry>& glossary, const std::string& text) {
  nlohmann::ordered_json parts = nlohmann::ordered_json::array();
  for (const GlossarySegment& seg : glossary_segments(glossary, text)) {
    if (!seg.term) parts.push_back({{"text", seg.text}});
    else parts.push_back({{"text", seg.text}, {"term", seg.term->term}, {"definition", seg.term->definition}, {"source", seg.term->source}});
  }
  return parts;
}
// The words a student reads on the plots and heatmaps of `results`.
std::string results_words(const Results& results) {
  std::string out;
  for (const Plot& p : results.plots) {
    out += p.title + "\n" + p.x_label + "\n" + p.y_label + "\n";
    for (const Series& series : p.series) out += series.name + "\n";
  }
  for (const Heatmap& h : results.heatmaps)
    out += h.title + "\n" + h.x_label + "\n" + h.y_label + "\n" + h.note + "\n" + h.value_label + "\n";
  return out;
}
}  // namespace

std::vector<const GlossaryEntry*> StoryState::words(const Results& results, const std::string& answer,
                                                    const std::string& summary) const {
  const StoryStep& s = step();
  std::vector<std::string> shown{s.text, s.question};
  if (s.prediction) {
    shown.push_back(s.prediction->question);
    for (const PredictionChoice& c : s.prediction->choices) shown.push_back(c.label);
  }
  shown.insert(shown.end(), {results_words(results), answer, summary});
  std::vector<std::string> used;  // glossary_segments marks each term once, across the texts
  for (const std::string& text : shown) glossary_segments(story_->glossary, text, &used);
  std::vector<const GlossaryEntry*> out;
  for (const std::string& term : used)
    for (const GlossaryEntry& g : story_->glossary)
      if (g.term == term) out.push_back(&g);
  return out;
}

std::string StoryState::json(const Results& results, bool done, const RunSettings& settings) const {
  using Json = nlohmann::ordered_json;
  const std::string answer = done ? render_answer(step(), results, settings) : "";
  const std::string summary = done && last_step() ? render_summary(*story_, results, settings) : "";
  Json out = {{"story", story_->id},
              {"step", step_ + 1},
              {"steps", story_->steps.size()},
              {"title", step().title},
              {"text", step().text},
              {"textParts", text_parts(story_->glossary, step().text)},
              {"words", Json::array()},
              {"question", step().question},
              {"plot", step().plot},
              {"answer", answer},
              {"answerParts", text_parts(story_->glossary, answer)},
              {"summary", summary},
              {"summaryParts", text_parts(story_->glossary, summary)},
              {"summaryHeading", kSummaryHeading},
              {"changed", !settings_changed(settings).empty()},
              {"prediction", nullptr}};
  // The table rows the answer reads (a cell at a1 = 0.712): the text view keeps them when it thins a
  // table (web/twin.js; walk 12: every 2nd row dropped the two the answer quotes).
  out["quoted"] = Json::array();
  for (const StoryMeasure& m : step().measures)
    if (!m.cell.at_column.empty()) out["quoted"].push_back({{"column", m.cell.at_column}, {"value", m.cell.at_value}});
  for (const GlossaryEntry* g : words(results, answer, summary))
    out["words"].push_back({{"term", g->term}, {"definition", g->definition}, {"source", g->source}});
  if (step().prediction) {
    const StoryPrediction& p = *step().prediction;
    Json choices = Json::array();
    for (const PredictionChoice& c : p.choices) choices.push_back(c.label);
    Json guess = nullptr;
    if (predicted()) guess = p.choices.empty() ? Json(number_) : Json(choice_);
    out["prediction"] = {{"question", p.question},
                         {"choices", choices},
                         {"predicted", guess},
                         {"predictedText", predicted() ? prediction_text() : ""},
                         {"measured", done ? measured_text(results) : ""}};
  }
  return out.dump();
}

std::string next_story_id(const std::vector<Story>& all, const std::string& id) {
  for (std::size_t i = 0; i + 1 < all.size(); ++i)
    if (all[i].id == id) return all[i + 1].id;
  return "";
}

}  // namespace attnlab::page
