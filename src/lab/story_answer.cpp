#include "lab/story_answer.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace attnlab {

std::optional<double> read_cell(const Table& table, const TableCell& cell) {
  const int k = table.column(cell.column);
  if (k < 0 || table.rows.empty()) return std::nullopt;
  if (cell.at_column.empty()) {  // the column's last value: a run's series may stop before its last row
    for (auto row = table.rows.rbegin(); row != table.rows.rend(); ++row)
      if (std::isfinite((*row)[static_cast<std::size_t>(k)])) return (*row)[static_cast<std::size_t>(k)];
    return table.rows.back()[static_cast<std::size_t>(k)];
  }
  const int at = table.column(cell.at_column);
  if (at < 0) return std::nullopt;
  for (const auto& row : table.rows)  // sweep values are written exactly, so == finds them
    if (row[static_cast<std::size_t>(at)] == cell.at_value) return row[static_cast<std::size_t>(k)];
  return std::nullopt;
}

std::string format_like(double value, const std::string& like) {
  if (!std::isfinite(value)) return "not measured";
  const bool percent = !like.empty() && like.back() == '%';
  const double shown = percent ? 100.0 * value : value;
  char buf[64];
  if (like.rfind("sig", 0) == 0) {
    const int asked = std::atoi(like.c_str() + 3), digits = asked > 0 ? asked : 3;
    // A whole number too large for its digits is rounded, not written in exponent form (walk 18:
    // "90 against 6.7e+02" in one sentence): 704 in two digits is "700".
    const double whole_from = std::pow(10.0, digits);
    if (std::fabs(shown) >= whole_from && std::fabs(shown) < 1e6) {
      const double unit = std::pow(10.0, std::floor(std::log10(std::fabs(shown))) + 1 - digits);
      std::snprintf(buf, sizeof buf, percent ? "%.0f%%" : "%.0f", std::round(shown / unit) * unit);
      return buf;
    }
    std::snprintf(buf, sizeof buf, percent ? "%.*g%%" : "%.*g", digits, shown);
    return buf;
  }
  const std::size_t dot = like.find('.');
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(like.size() - dot - 1 - (percent ? 1 : 0));
  std::snprintf(buf, sizeof buf, percent ? "%.*f%%" : "%.*f", decimals, shown);
  return buf;
}

std::vector<std::string> placeholders(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t at = text.find('{'); at != std::string::npos; at = text.find('{', at + 1)) {
    const std::size_t end = text.find('}', at);
    if (end == std::string::npos) break;
    out.push_back(text.substr(at + 1, end - at - 1));
  }
  return out;
}

namespace {

// The token of a note that a placeholder stands for: a bracketed list "[1, 0]", a parenthesised
// pair "(19.3, 342)", or a run of characters up to a space, or up to one of ",;:)" that ends it
// (followed by a space, a punctuation mark or the end: "2.98):" gives "2.98").
std::size_t token_end(const std::string& s, std::size_t at) {
  if (at < s.size() && (s[at] == '[' || s[at] == '(')) {
    const std::size_t close = s.find(s[at] == '[' ? ']' : ')', at);
    return close == std::string::npos ? s.size() : close + 1;
  }
  const auto ends = [&](std::size_t i) {
    if (s[i] == ' ') return true;
    if (s[i] != ',' && s[i] != ';' && s[i] != ')' && s[i] != ':') return false;
    return i + 1 == s.size() || !std::isalnum(static_cast<unsigned char>(s[i + 1]));
  };
  std::size_t i = at;
  while (i < s.size() && !ends(i)) ++i;
  return i;
}

// Matches `pattern` from `p` against `note` from `n`: literal parts as written, a placeholder as a
// token, "{*}" as any text (the shortest that lets the rest match). Sets `found` to the token
// standing where {name} is, when the whole pattern matches.
bool match_from(const std::string& pattern, std::size_t p, const std::string& note, std::size_t n,
                const std::string& name, std::optional<std::string>& found) {
  while (p < pattern.size()) {
    if (pattern[p] == '{') {
      const std::size_t close = pattern.find('}', p);
      const std::string key = pattern.substr(p + 1, close - p - 1);
      if (key == "*") {
        for (std::size_t to = n; to <= note.size(); ++to)
          if (match_from(pattern, close + 1, note, to, name, found)) return true;
        return false;
      }
      const std::size_t end = token_end(note, n);
      if (end == n) return false;
      if (key == name) found = note.substr(n, end - n);
      n = end, p = close + 1;
      continue;
    }
    if (n >= note.size() || note[n] != pattern[p]) return false;
    ++n, ++p;
  }
  return true;
}

std::optional<std::string> match_at(const std::string& pattern, const std::string& note, std::size_t at,
                                    const std::string& name) {
  std::optional<std::string> found;
  if (!match_from(pattern, 0, note, at, name, found)) return std::nullopt;
  return found;
}

Measured parsed(const std::string& text) {
  Measured m{std::numeric_limits<double>::quiet_NaN(), text};
  if (text == "true") m.number = 1.0;
  else if (text == "false") m.number = 0.0;
  else {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() && (*end == '\0' || (*end == '%' && end[1] == '\0')))
      m.number = *end == '%' ? v / 100.0 : v;
  }
  return m;
}

std::string value_of(const KeyValues& kv, const std::string& key) {
  for (const auto& [k, v] : kv)
    if (k == key) return v;
  return "";
}

const StoryMeasure& declared(const std::vector<StoryMeasure>& measures, const std::string& name) {
  for (const StoryMeasure& m : measures)
    if (m.name == name) return m;
  throw std::invalid_argument("story answer: '{" + name + "}' names no declared measure");
}

}  // namespace

std::optional<Measured> measure_value(const StoryMeasure& measure, const Results& results,
                                      const RunSettings& settings) {
  if (!measure.setting.empty()) {
    std::string v = value_of(settings.yours, measure.setting);
    if (v.empty()) v = value_of(settings.step, measure.setting);
    if (v.empty()) return std::nullopt;
    return parsed(v);
  }
  if (measure.note.empty()) {
    const std::optional<double> v = read_cell(results.table, measure.cell);
    if (!v) return std::nullopt;
    return Measured{*v, format_like(*v, measure.format.empty() ? "sig3" : measure.format)};
  }
  const std::size_t first_brace = measure.note.find('{');
  const std::string lead = measure.note.substr(0, first_brace);
  for (const std::string& note : results.notes)
    for (std::size_t at = note.find(lead); at != std::string::npos; at = note.find(lead, at + 1))
      if (const auto token = match_at(measure.note, note, at, measure.name)) {
        Measured m = parsed(*token);
        if (!measure.format.empty() && std::isfinite(m.number)) m.text = format_like(m.number, measure.format);
        return m;
      }
  return std::nullopt;
}

std::string settings_changed(const RunSettings& settings) {
  // A switch reads as the page shows it: on or off.
  const auto shown = [](const std::string& v) { return v == "true" ? std::string("on") : v == "false" ? std::string("off") : v; };
  std::string changed;
  for (const auto& [key, value] : settings.yours) {
    const std::string was = value_of(settings.step, key);
    if (was.empty() || was == value) continue;
    const std::string label = value_of(settings.labels, key);
    const std::string& name = label.empty() ? key : label;
    changed += std::string(changed.empty() ? "" : ", ") + name + " from " + shown(was) + " to " + shown(value);
  }
  if (changed.empty()) return "";
  // Walk 13: a second sentence, "The step's settings: n = 1000", read as if the run still had them.
  return "You changed " + changed + "; these numbers are from your run; the step's text describes its own settings.";
}

namespace {

// Whether the run's setting `key` has the step's value (true when the settings are unknown).
bool at_step_value(const std::string& key, const RunSettings& settings) {
  if (settings.step.empty() || settings.yours.empty()) return true;
  const auto value = [&key](const KeyValues& all) {
    for (const auto& [k, v] : all)
      if (k == key) return v;
    throw std::invalid_argument("an answer names setting '" + key + "', which the step's experiment lacks");
  };
  return value(settings.step) == value(settings.yours);
}

}  // namespace

bool part_shown(const AnswerPart& part, const std::vector<StoryMeasure>& measures, const Results& results,
                const RunSettings& settings) {
  if (!part.at_step.empty() && !at_step_value(part.at_step, settings)) return false;
  const auto holds = [&](const std::string& name, double low, double high) {
    if (name.empty()) return true;
    const auto v = measure_value(declared(measures, name), results, settings);
    return v && std::isfinite(v->number) && v->number >= low && v->number <= high;
  };
  return holds(part.when, part.low, part.high) && holds(part.also_when, part.also_low, part.also_high);
}

std::string render_parts(const std::vector<AnswerPart>& parts, const std::vector<StoryMeasure>& measures,
                         const Results& results, const RunSettings& settings) {
  const std::string notice = settings_changed(settings);
  const std::string body = render_parts_only(parts, measures, results, settings);
  return notice.empty() || body.empty() ? notice + body : notice + " " + body;
}

std::string render_parts_only(const std::vector<AnswerPart>& parts, const std::vector<StoryMeasure>& measures,
                              const Results& results, const RunSettings& settings) {
  std::string out;
  for (const AnswerPart& part : parts) {
    if (!part_shown(part, measures, results, settings)) continue;
    std::string text;
    std::size_t from = 0;
    for (std::size_t at = part.text.find('{'); at != std::string::npos; at = part.text.find('{', from)) {
      const std::size_t end = part.text.find('}', at);
      if (end == std::string::npos) break;
      const auto v = measure_value(declared(measures, part.text.substr(at + 1, end - at - 1)), results, settings);
      text += part.text.substr(from, at - from) + (v ? v->text : "not measured");
      from = end + 1;
    }
    text += part.text.substr(from);
    if (!text.empty()) out += (out.empty() ? "" : " ") + text;
  }
  return out;
}

std::string parts_template(const std::vector<AnswerPart>& parts) {
  std::string out;
  for (const AnswerPart& part : parts) out += (out.empty() ? "" : " ") + part.text;
  return out;
}

}  // namespace attnlab
