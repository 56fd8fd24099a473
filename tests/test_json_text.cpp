// lab/json_text.hpp: JSON written through nlohmann::ordered_json with the lab's number spelling.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "lab/json_text.hpp"
#include "lab/run_record.hpp"

using namespace attnlab;

TEST_CASE("json_text spells numbers as format_number, or with 17 digits for partials", "[lab][writers]") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const JsonValue shortest = {{"a", 0.25}, {"b", 3.0}, {"c", 1e-9}, {"d", 0.1 + 0.2}, {"e", nan}, {"f", -inf},
                              {"g", -0.0}, {"n", std::uint64_t{4294967295}}, {"s", "x"}};
  CHECK(json_text(shortest) ==
        "{\"a\":0.25,\"b\":3,\"c\":1e-09,\"d\":0.30000000000000004,\"e\":null,\"f\":null,\"g\":-0,"
        "\"n\":4294967295,\"s\":\"x\"}");
  CHECK(json_text(JsonValue::array({0.1, -0.0, 3.0}), JsonNumbers::Exact) ==
        "[0.10000000000000001,-0.0,3]");
  CHECK_THROWS_AS(json_text(JsonValue::array({nan}), JsonNumbers::Exact), ParamError);
}

TEST_CASE("json_text keeps the insertion order and escapes as JSON requires", "[lab][writers]") {
  JsonValue j = JsonValue::object();
  j["z"] = 1;
  j["a"] = "tab\there \"quoted\" back\\slash \x01";
  CHECK(json_text(j) == "{\"z\":1,\"a\":\"tab\\there \\\"quoted\\\" back\\\\slash \\u0001\"}");
  CHECK(json_text(json_object({{"k2", "v"}, {"k1", "w"}})) == "{\"k2\":\"v\",\"k1\":\"w\"}");
  CHECK(json_escape("bad \xff byte") == "\"bad \xEF\xBF\xBD byte\"");  // not UTF-8: U+FFFD
}

TEST_CASE("json_text's line layout: one top-level member a line, one element of a member's array a line",
          "[lab][writers]") {
  const JsonValue j = {{"a", 1}, {"p", {{"x", "1"}, {"y", "2"}}}, {"units", JsonValue::array({{{"u", 0}}, {{"u", 1}}})}};
  CHECK(json_text(j, JsonNumbers::Exact, JsonLayout::Lines) ==
        "{\"a\":1,\n\"p\":{\"x\":\"1\",\"y\":\"2\"},\n\"units\":[\n{\"u\":0},\n{\"u\":1}]}");
  CHECK(json_text(j) == "{\"a\":1,\"p\":{\"x\":\"1\",\"y\":\"2\"},\"units\":[{\"u\":0},{\"u\":1}]}");
}
