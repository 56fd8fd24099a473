// A story step's answer bound to the run the student made (docs/design.md "How to add a story"):
// the step declares named measured values (a table cell, a number matched out of a run note, or
// a setting of the run), and its answer is a list of parts, each shown always or only when a
// declared condition on a measured value holds, with `{name}` placeholders filled from the run.
// render_answer is what every face shows; this header knows no paper.
#pragma once
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "lab/results.hpp"
#include "lab/schema.hpp"

namespace attnlab {

// One number of a run's table: column `column` in the row where column `at_column` equals
// `at_value`, or the column's last value (its last row that holds a number: a solver that stopped
// early leaves the rows after its stop empty) when `at_column` is empty.
struct TableCell {
  std::string column;
  std::string at_column;
  double at_value = 0.0;
};
// The cell's value, or nothing when the table has no such column or row (a run still going).
std::optional<double> read_cell(const Table& table, const TableCell& cell);

// `value` written the way `like` is: "99.6%" -> percent with one decimal, "0.875" -> three
// decimals, "12" -> an integer; "sig3" -> three significant digits, "sig2%" -> a percent with two.
std::string format_like(double value, const std::string& like);

// A value the step's run measures, by name. From the table (`cell`), from a note (`note`: a
// pattern such as "Certification: {certified} of {rows} rows accepted"; the value stands where
// {name} does, the other placeholders match any number), or a setting of the run (`setting`: the
// parameter's key; "true"/"false" read as 1/0). `format` is format_like's; a note's value with no
// format is written as the note writes it.
struct StoryMeasure {
  std::string name;
  TableCell cell;
  std::string note;
  std::string setting;
  std::string format;
  // A note that only some runs write (e.g. "Certification stopped after ..."): its absence is an
  // answer (a condition on it then shows nothing), not a value the run failed to measure.
  bool only_some_runs = false;

  static StoryMeasure from_cell(std::string name, TableCell cell, std::string format) {
    return {std::move(name), std::move(cell), "", "", std::move(format)};
  }
  static StoryMeasure from_note(std::string name, std::string pattern, std::string format = "") {
    return {std::move(name), {}, std::move(pattern), "", std::move(format)};
  }
  static StoryMeasure from_note_some_runs_write(std::string name, std::string pattern) {
    StoryMeasure m = from_note(std::move(name), std::move(pattern));
    m.only_some_runs = true;
    return m;
  }
  static StoryMeasure from_setting(std::string name, std::string key) {
    return {std::move(name), {}, "", std::move(key), ""};
  }
};

// A measured value: its number (NaN when the run wrote text, e.g. "[1, 0]") and its text as shown.
struct Measured {
  double number = std::numeric_limits<double>::quiet_NaN();
  std::string text;
};

// The settings of the run on screen and of the step, each a full list in schema order
// (Schema::to_key_values); empty when unknown (the answer then says nothing about settings).
struct RunSettings {
  KeyValues step;
  KeyValues yours;
  KeyValues labels;  // a setting's key -> the label its control shows (the key itself when absent)
};

// The value `measure` has in `results` (and `settings` for a setting), or nothing when the run
// has not measured it (yet).
std::optional<Measured> measure_value(const StoryMeasure& measure, const Results& results,
                                      const RunSettings& settings = {});

// A part of an answer: shown always, or when the measured value `when` lies in [low, high], or
// while the run's setting `at_step` has the value the step's settings give it.
struct AnswerPart {
  std::string text;
  std::string when;
  double low = -std::numeric_limits<double>::infinity();
  double high = std::numeric_limits<double>::infinity();
  std::string at_step;  // a parameter's key
  // A second condition that must hold too (say_if(...).and_if(...)): a sentence true only when two
  // measured values agree, e.g. one solver at x* while the other is not. Empty: none.
  std::string also_when;
  double also_low = -std::numeric_limits<double>::infinity();
  double also_high = std::numeric_limits<double>::infinity();
  AnswerPart& and_if(std::string name, double from, double to) {
    also_when = std::move(name), also_low = from, also_high = to;
    return *this;
  }
};
inline AnswerPart say(std::string text) { return {std::move(text), ""}; }
inline AnswerPart say_if(std::string name, double low, double high, std::string text) {
  return {std::move(text), std::move(name), low, high};
}
// A part shown only while the run's setting `key` is the step's own (e.g. the invitation "Then try
// d = 10", which the run at d = 10 no longer shows); the step's value has one home, its settings.
inline AnswerPart say_at_step(std::string key, std::string text) {
  AnswerPart part{std::move(text), ""};
  part.at_step = std::move(key);
  return part;
}

// Whether `part` is shown for this run: always when it has no condition, else when its measured
// value is measured, finite and in [low, high], and (at_step) when the run's setting equals the
// step's, or the settings are unknown; and (and_if) its second measured value too. Throws like
// render_parts on an undeclared name, and std::invalid_argument on an at_step key that the known
// settings lack.
bool part_shown(const AnswerPart& part, const std::vector<StoryMeasure>& measures, const Results& results,
                const RunSettings& settings = {});
// The parts joined by spaces, each part shown when its condition holds, `{name}` replaced by the
// measured value of the measure called name ("not measured" while the run lacks it; a part whose
// condition's value is not measured is left out). When `settings.yours` differs from
// `settings.step`, it begins with "You changed n from 1000 to 200; these numbers are from your
// run; the step's text describes its own settings." (walk 18: its text above kept the step's 50000
// samples). Throws std::invalid_argument on a placeholder or a
// condition naming no declared measure.
std::string render_parts(const std::vector<AnswerPart>& parts, const std::vector<StoryMeasure>& measures,
                         const Results& results, const RunSettings& settings = {});

// render_parts without the sentence on the student's changes: for a text shown under the answer
// that already said it (the story's "What you saw").
std::string render_parts_only(const std::vector<AnswerPart>& parts, const std::vector<StoryMeasure>& measures,
                              const Results& results, const RunSettings& settings = {});

// The sentence on the student's changes ("" when none).
std::string settings_changed(const RunSettings& settings);

// The parts' text with every placeholder and every condition left as written (for faces that
// show the answer before a run exists, e.g. the CLI's listing): "{name}" stays.
std::string parts_template(const std::vector<AnswerPart>& parts);

// The names `text` holds in braces: "{certified} of {rows}" -> certified, rows.
std::vector<std::string> placeholders(const std::string& text);

// One entry of a story's glossary: a term, its definition in a student's words, and where it
// comes from (the paper's section, or "ours"). A symbol (eps0, tau_i) must first be read in a
// step's text, where the step defines it.
struct GlossaryEntry {
  std::string term;
  std::string definition;
  std::string source;
  bool symbol = false;
};

}  // namespace attnlab
