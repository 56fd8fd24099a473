#include <catch2/catch.hpp>

#include "lab/choice_table.hpp"
#include "lab/schema.hpp"
#include "lab/sweep.hpp"

using namespace attnlab;

namespace {
enum class Kind { A, BC };
constexpr ChoiceTable<Kind> kKindTable{{"a", Kind::A}, {"b_c", Kind::BC}};

Schema demo_schema() {
  return Schema({
      ParamSpec::integer("n", "n").range(2, 1000000).value("1000").in_units("tokens").help_text("help").log_slider()
          .can_sweep(),
      ParamSpec::real("tau", "tau").range(0.01, 0.5).value("0.25").help_text("help").can_sweep(),
      ParamSpec::boolean("flag", "flag").value("true").help_text("help"),
      ParamSpec::choice("kind", "kind", kKindTable.names()).value("a").help_text("help"),
      ParamSpec::sweep("sweep", "sweep").value("none").help_text("help"),
  });
}
}  // namespace

TEST_CASE("a spec declared by name fills the fields a positional one did", "[lab][schema]") {
  const ParamSpec named = ParamSpec::real("tau", "threshold tau")
                              .range(0.01, 0.5)
                              .value("0.25")
                              .in_units("units")
                              .help_text("help")
                              .section("docs/design.md")
                              .log_slider()
                              .can_sweep();
  const ParamSpec positional{"tau", "threshold tau", ParamType::Real, 0.01, 0.5, "0.25", "units", "help",
                             "docs/design.md", {}, true, true};
  CHECK(named.key == positional.key);
  CHECK(named.label == positional.label);
  CHECK(named.type == positional.type);
  CHECK(named.min == positional.min);
  CHECK(named.max == positional.max);
  CHECK(named.default_value == positional.default_value);
  CHECK(named.unit == positional.unit);
  CHECK(named.help == positional.help);
  CHECK(named.paper_ref == positional.paper_ref);
  CHECK(named.choices == positional.choices);
  CHECK(named.log_scale == positional.log_scale);
  CHECK(named.sweepable == positional.sweepable);
  const ParamSpec choice = ParamSpec::choice("kind", "kind", kKindTable.names());
  CHECK(choice.type == ParamType::Choice);
  CHECK(choice.choices == std::vector<std::string>{"a", "b_c"});
  CHECK_FALSE(choice.sweepable);
}

TEST_CASE("a choice table gives the schema its texts and decodes them, refusing an unknown one", "[lab][schema]") {
  const Schema s = demo_schema();
  Params p = s.defaults();
  CHECK(kKindTable.decode(p, "kind") == Kind::A);
  s.set(p, "kind", "b_c");
  CHECK(kKindTable.decode(p, "kind") == Kind::BC);
  CHECK(std::string(kKindTable.name_of(Kind::BC)) == "b_c");
  CHECK(kKindTable.find("b_c") != nullptr);
  CHECK(kKindTable.find("c") == nullptr);
  CHECK_THROWS_WITH(kKindTable.decode("kind", "c"), "unknown value 'c' for parameter 'kind'; allowed: a, b_c");
  CHECK_THROWS_AS(kKindTable.decode("kind", "c"), ParamError);
}

TEST_CASE("defaults are valid and typed", "[lab][schema]") {
  const Schema s = demo_schema();
  const Params p = s.defaults();
  CHECK(p.integer("n") == 1000);
  CHECK(p.real("tau") == 0.25);
  CHECK(p.boolean("flag"));
  CHECK(p.text("kind") == "a");
  CHECK(p.text("sweep") == "none");
}

TEST_CASE("validation messages name the parameter, the value and the allowed range", "[lab][schema]") {
  const Schema s = demo_schema();
  Params p = s.defaults();
  CHECK_THROWS_WITH(s.set(p, "n", "1"),
                    "parameter 'n': '1' is out of range; allowed: integer in [2, 1000000] (tokens)");
  CHECK_THROWS_WITH(s.set(p, "n", "12.5"),
                    "parameter 'n': '12.5' is not an integer; allowed: integer in [2, 1000000] (tokens)");
  CHECK_THROWS_WITH(s.set(p, "n", "abc"),
                    "parameter 'n': 'abc' is not a number; allowed: integer in [2, 1000000] (tokens)");
  CHECK_THROWS_WITH(s.set(p, "tau", "0.7"), "parameter 'tau': '0.7' is out of range; allowed: number in [0.01, 0.5]");
  CHECK_THROWS_WITH(s.set(p, "tau", "nan"), Catch::Contains("is not a number"));
  // One number syntax everywhere: no spaces, '+', hex or inf.
  for (const char* bad : {" 5", "5 ", "+5", "0x10", "1e", ".", "-", "inf", "1,5", ""})
    CHECK_THROWS_WITH(s.set(p, "n", bad), Catch::Contains("is not a number"));
  CHECK_NOTHROW(s.set(p, "tau", ".5"));
  CHECK_NOTHROW(s.set(p, "tau", "2.5e-1"));
  CHECK_THROWS_WITH(s.set(p, "tau", "1e999"), Catch::Contains("is beyond the range of a double"));
  CHECK_THROWS_WITH(s.set(p, "flag", "maybe"), "parameter 'flag': 'maybe' is not a boolean; allowed: true or false");
  CHECK_THROWS_WITH(s.set(p, "kind", "c"), "parameter 'kind': 'c' is not a valid choice; allowed: one of a, b_c");
  CHECK_THROWS_WITH(s.set(p, "nope", "1"), Catch::StartsWith("unknown parameter 'nope'; known parameters: n, tau"));
  // A rejected value leaves the previous one in place.
  CHECK(p.integer("n") == 1000);
  s.set(p, "n", "1e3");
  CHECK(p.integer("n") == 1000);
  s.set(p, "flag", "off");
  CHECK_FALSE(p.boolean("flag"));
}

TEST_CASE("numbers at the edges of a double: -0, underflow, overflow", "[lab][schema]") {
  const Schema s = demo_schema();
  Params p = s.defaults();
  // -0 is 0 (its canonical text has no sign); 1e-400 underflows to 0 and meets the range check.
  CHECK_THROWS_WITH(s.set(p, "tau", "-0"), Catch::Contains("'-0' is out of range"));
  CHECK_THROWS_WITH(s.set(p, "tau", "1e-400"), Catch::Contains("'1e-400' is out of range"));
  s.set(p, "n", "2");
  CHECK_THROWS_WITH(s.set(p, "n", "-1e400"), Catch::Contains("is beyond the range of a double"));
  CHECK_THROWS_WITH(s.set(p, "n", "1e-400"), Catch::Contains("is out of range"));
}

TEST_CASE("messages never carry raw bytes or a whole 100 KB value", "[lab][schema]") {
  const Schema s = demo_schema();
  Params p = s.defaults();
  // Invalid UTF-8 and control characters are shown as \xNN; valid UTF-8 stays as it is.
  CHECK_THROWS_WITH(s.set(p, std::string("ta\xFFu\n"), "1"), Catch::StartsWith("unknown parameter 'ta\\xFFu\\x0A'"));
  CHECK_THROWS_WITH(s.set(p, "kind", "\xC3\xA9t\xC3\xA9"), Catch::Contains("'\xC3\xA9t\xC3\xA9' is not a valid choice"));
  // Overlong forms and surrogates are not UTF-8.
  CHECK(readable_message("'\xC0\xAF' '\xED\xA0\x80'") == "'\\xC0\\xAF' '\\xED\\xA0\\x80'");
  // A long value keeps its first 60 characters and says how long it was; the message keeps its end.
  const std::string huge = "0." + std::string(99998, '9');
  try {
    s.set(p, "tau", huge);
    FAIL("accepted");
  } catch (const ParamError& e) {
    const std::string m = e.what();
    CHECK(m == "parameter 'tau': '0." + std::string(58, '9') +
                   "...' (100000 characters) is out of range; allowed: number in [0.01, 0.5]");
  }
  // Prose between apostrophes (it has spaces) is never cut; the whole message stops at 2000.
  const std::string prose = "the experiment's data selector is not the run's own " + std::string(100, 'x') + " 'v'";
  CHECK(readable_message(prose) == prose);
  CHECK(readable_message(std::string(5000, 'a')).size() == 2003);
}

TEST_CASE("sweeps parse ranges and lists and validate each value", "[lab][sweep]") {
  const Schema s = demo_schema();
  Sweep a = parse_sweep(s, "sweep", "n=100:130:10");
  CHECK(a.key == "n");
  CHECK(a.values == std::vector<double>{100, 110, 120, 130});
  Sweep b = parse_sweep(s, "sweep", "tau=0.1:0.3:0.1");
  CHECK(b.values == std::vector<double>{0.1, 0.2, 0.3});
  Sweep c = parse_sweep(s, "sweep", "n=4,6,10");
  CHECK(c.values == std::vector<double>{4, 6, 10});
  CHECK_FALSE(parse_sweep(s, "sweep", "none").active());

  CHECK_THROWS_WITH(parse_sweep(s, "sweep", "n=1:10:1"), Catch::Contains("parameter 'n': '1' is out of range"));
  CHECK_THROWS_WITH(parse_sweep(s, "sweep", "kind=a,b_c"), Catch::Contains("cannot be swept; sweepable: n, tau"));
  CHECK_THROWS_WITH(parse_sweep(s, "sweep", "n=100:10:1"), Catch::Contains("runs backwards"));
  CHECK_THROWS_WITH(parse_sweep(s, "sweep", "n=10:100:0"), Catch::Contains("the step must be a positive number"));
  CHECK_THROWS_WITH(parse_sweep(s, "sweep", "n=10:100:1.5"), Catch::Contains("the step must be too"));
  CHECK_THROWS_WITH(parse_sweep(s, "sweep", "n=2:1000000:1"), Catch::Contains("at most 10000 are allowed"));
  CHECK_THROWS_WITH(parse_sweep(s, "sweep", "n"), Catch::Contains("has no '='"));
  Params p = s.defaults();
  CHECK_THROWS_WITH(s.set(p, "sweep", "tau=0:1:0.1"), Catch::Contains("parameter 'tau': '0' is out of range"));
}

TEST_CASE("format_number gives the shortest exact text", "[lab][schema]") {
  CHECK(format_number(0.25) == "0.25");
  CHECK(format_number(1000) == "1000");
  CHECK(format_number(0.1) == "0.1");
  CHECK(format_number(1.0 / 3.0) == "0.3333333333333333");
  CHECK(std::stod(format_number(2.0 / 3.0)) == 2.0 / 3.0);
}
