#include <catch2/catch.hpp>

#include "experiments/registry.hpp"
#include "lab/embed_options.hpp"
#include "lab/embed_snippet.hpp"
#include "lab/url_hash.hpp"

using namespace attnlab;

TEST_CASE("the URL hash round-trips every parameter type", "[lab][url]") {
  auto e = make_experiment("separation.toy");
  const Schema& s = e->schema();
  Params p = s.defaults();
  s.set(p, "n", "1234");                 // integer
  s.set(p, "tau", "0.125");              // real
  s.set(p, "shared_readout", "false");   // boolean
  s.set(p, "sampler", "two_point");      // choice
  s.set(p, "sweep", "n=100,200,300");    // sweep (with '=' and ',' inside the value)
  HashState st;
  st.experiment = "separation.toy";
  st.params = s.to_key_values(p);
  st.has_seed = true;
  st.seed = 4294967295ULL;
  st.flags = {{"run", "1"}, {"hide", "tau,n"}};
  const std::string hash = encode_hash(st);

  const HashState back = decode_hash("#" + hash);
  CHECK(back.experiment == "separation.toy");
  CHECK(back.seed == 4294967295ULL);
  CHECK(back.flag("run") == "1");
  CHECK(back.flag("hide") == "tau,n");
  Params q = s.defaults();
  s.apply(q, back.params);
  CHECK(q == p);
  CHECK(s.format(q, "sweep") == "n=100,200,300");
}

TEST_CASE("percent coding survives awkward characters", "[lab][url]") {
  const std::string awkward = "a b&c=d#e%f/g+h";
  CHECK(percent_decode(percent_encode(awkward)) == awkward);
}

TEST_CASE("bad percent escapes are kept as text", "[lab][url]") {
  CHECK(percent_decode("a%-1b") == "a%-1b");
  CHECK(percent_decode("% f") == "% f");
  CHECK(percent_decode("%4") == "%4");
  CHECK(percent_decode("%41") == "A");
}

TEST_CASE("seeds have one syntax", "[lab][url]") {
  CHECK(parse_seed("0") == 0);
  CHECK(parse_seed("4294967295") == 4294967295ULL);
  for (const char* bad : {"", "-1", "+7", " 7", "4294967296", "1e3", "99999999999999999999"})
    CHECK_THROWS_WITH(parse_seed(bad), Catch::Contains("allowed: integer in [0, 4294967295]"));
}

TEST_CASE("malformed hashes give clear errors", "[lab][url]") {
  CHECK_THROWS_WITH(decode_hash("exp=separation.toy&seed=-3"), Catch::Contains("parameter 'seed'"));
  CHECK_THROWS_WITH(decode_hash("exp=separation.toy&oops"), Catch::Contains("'oops' is not of the form key=value"));
  auto e = make_experiment("separation.toy");
  Params p = e->schema().defaults();
  const HashState st = decode_hash("exp=separation.toy&tau=9");
  CHECK_THROWS_WITH(e->schema().apply(p, st.params), Catch::Contains("parameter 'tau': '9' is out of range"));
}

TEST_CASE("embed links: hide= takes groups and parameter keys, and refuses anything else", "[lab][url][embed]") {
  auto e = make_experiment("separation.toy");
  const HashState link = decode_hash("exp=separation.toy&embed=1&hide=tau,seed,,presets&theme=light");
  const EmbedOptions o = parse_embed_options(link, e->schema());
  CHECK(o.embed);
  CHECK(o.hidden == std::set<std::string>{"presets", "seed", "tau"});
  CHECK(o.theme == ThemeChoice::Light);
  CHECK(o.hides_param("tau"));
  CHECK_FALSE(o.hides_param("n"));
  // The flags written back are sorted and decode to the same options.
  CHECK(encode_hash({"separation.toy", "", {}, false, 0, o.to_flags(), }) ==
        "exp=separation.toy&embed=1&hide=presets,seed,tau&theme=light");
  const EmbedOptions again = parse_embed_options(decode_hash(encode_hash({"separation.toy", "", {}, false, 0, o.to_flags()})),
                                                 e->schema());
  CHECK(again.hidden == o.hidden);
  CHECK(again.embed);

  EmbedOptions all;
  all.hidden = {"params"};
  CHECK(all.hides_param("n"));
  CHECK(EmbedOptions{}.to_flags().empty());

  CHECK_THROWS_WITH(parse_embed_options(decode_hash("exp=separation.toy&hide=tau,bogus"), e->schema()),
                    Catch::StartsWith("link: 'hide' names 'bogus', which is not a control here; allowed: run, presets, "
                                      "seed, export, info, tabs, data, params, n,"));
  CHECK_THROWS_WITH(parse_embed_options(decode_hash("exp=separation.toy&embed=yes"), e->schema()),
                    "link: 'embed=yes' is not allowed; allowed: 0 or 1");
  CHECK_THROWS_WITH(parse_embed_options(decode_hash("exp=separation.toy&theme=pink"), e->schema()),
                    "link: 'theme=pink' is not allowed; allowed: dark, light or contrast");
  // A key of another experiment is not a control of this one.
  CHECK_THROWS(parse_embed_options(decode_hash("exp=separation.toy&hide=approx_diag"), e->schema()));
  CHECK(is_reserved_hash_key("theme"));
}

TEST_CASE("the iframe snippet fits any column and refuses a size outside 240 to 4000", "[lab][embed]") {
  const std::string html = attnlab::iframe_snippet("https://h/#story=mirror&step=2", "Lab \"x\"", 960, 640);
  CHECK(html.find(" src=\"https://h/#story=mirror&amp;step=2\"") != std::string::npos);
  CHECK(html.find(" width=\"100%\" height=\"640\"") != std::string::npos);  // with style stripped
  CHECK(html.find("max-width:960px") != std::string::npos);
  CHECK(html.find("min-height:min(640px,90vh);max-height:90vh") != std::string::npos);
  CHECK(html.find("title=\"Lab &quot;x&quot;\"") != std::string::npos);
  CHECK(attnlab::iframe_snippet("u", "t", 960, 300).find("min-height:min(300px,90vh)") != std::string::npos);
  CHECK_THROWS_WITH(attnlab::iframe_snippet("u", "t", 100, 640),
                    "embed width 100 is not allowed; allowed: 240 to 4000 (CSS pixels)");
  CHECK_THROWS_WITH(attnlab::iframe_snippet("u", "t", 960, 5000),
                    "embed height 5000 is not allowed; allowed: 240 to 4000 (CSS pixels)");
}
