// Parameter declarations: what an experiment accepts (docs/design.md "The experiment contract").
#pragma once
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace attnlab {

enum class ParamType { Integer, Real, Boolean, Choice, Sweep };

// One parameter of an experiment: every face (page, CLI, URL, JS API) is generated from this.
// Declared by name, one factory per type and chained setters, e.g.
//   ParamSpec::real("tau", "threshold tau").range(0.01, 0.5).value("0.25").section(kSec1).can_sweep()
//       .help_text("Readout threshold ...")
// (the setters' names differ from the fields', which readers of a ParamSpec use unchanged).
struct ParamSpec {
  std::string key;    // stable identifier used in URLs, the CLI and JSON
  std::string label;  // short human label
  ParamType type = ParamType::Real;
  double min = 0.0;   // inclusive bounds for Integer and Real
  double max = 0.0;
  std::string default_value;         // canonical text form
  std::string unit;                  // e.g. "tokens", "trials"; may be empty
  std::string help;                  // one or two sentences for tooltips and --help
  std::string paper_ref;             // e.g. "docs/separation.md s.1"
  std::vector<std::string> choices;  // for Choice
  bool log_scale = false;            // sliders move logarithmically
  bool sweepable = false;            // may be the swept parameter of a Sweep

  static ParamSpec integer(std::string key, std::string label) { return of(ParamType::Integer, key, label); }
  static ParamSpec real(std::string key, std::string label) { return of(ParamType::Real, key, label); }
  static ParamSpec boolean(std::string key, std::string label) { return of(ParamType::Boolean, key, label); }
  static ParamSpec sweep(std::string key, std::string label) { return of(ParamType::Sweep, key, label); }
  // `names`: the texts the parameter accepts (a ChoiceTable's names(), lab/choice_table.hpp).
  static ParamSpec choice(std::string key, std::string label, std::vector<std::string> names) {
    ParamSpec s = of(ParamType::Choice, key, label);
    s.choices = std::move(names);
    return s;
  }

  ParamSpec& range(double low, double high) { min = low; max = high; return *this; }
  ParamSpec& value(std::string text) { default_value = std::move(text); return *this; }  // the default
  ParamSpec& in_units(std::string text) { unit = std::move(text); return *this; }
  ParamSpec& help_text(std::string text) { help = std::move(text); return *this; }
  ParamSpec& section(std::string ref) { paper_ref = std::move(ref); return *this; }
  ParamSpec& log_slider(bool on = true) { log_scale = on; return *this; }
  ParamSpec& can_sweep(bool on = true) { sweepable = on; return *this; }

 private:
  static ParamSpec of(ParamType t, std::string& key, std::string& label) {
    ParamSpec s;
    s.key = std::move(key);
    s.label = std::move(label);
    s.type = t;
    return s;
  }
};

// A rejected input: the message names the parameter, the value and what is allowed. Every message
// passes readable_message() on the way in, so no face shows raw user bytes.
class ParamError : public std::invalid_argument {
 public:
  explicit ParamError(const std::string& message);
};

// A message that is safe to show anywhere (terminal, page, JSON): bytes that are not valid UTF-8 and
// control characters become \xNN, a quoted value ('...' without spaces) longer than 80 characters
// keeps its first 60 and says how long it was, and the whole message stops after 2000 characters.
std::string readable_message(const std::string& message);

// A validated value. Numbers (Integer, Real, Boolean as 0/1) live in `number`; Choice and
// Sweep keep their canonical text in `text`.
struct ParamValue {
  double number = 0.0;
  std::string text;
};

// The values of one experiment's parameters, keyed by ParamSpec::key. Only a Schema creates
// and changes them, so every value inside has passed validation.
class Params {
 public:
  long long integer(const std::string& key) const { return static_cast<long long>(at(key).number); }
  double real(const std::string& key) const { return at(key).number; }
  bool boolean(const std::string& key) const { return at(key).number != 0.0; }
  const std::string& text(const std::string& key) const { return at(key).text; }
  bool has(const std::string& key) const { return values_.count(key) != 0; }
  bool operator==(const Params& o) const;

 private:
  friend class Schema;
  const ParamValue& at(const std::string& key) const;
  std::map<std::string, ParamValue> values_;
};

std::string describe_type(const ParamSpec& spec);  // "integer in [10, 1000000] (tokens)", ...

}  // namespace attnlab
