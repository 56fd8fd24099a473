// The page's URL hash and embed options, as a course site or a student may edit them by hand:
// decode_hash, the experiment's parameters through its schema (what App::load_hash does before
// anything changes), parse_embed_options and salvage_embed_options. Properties: a decoded hash
// encodes to a link that decodes to the same state; percent-decoding undoes percent-encoding.
#include <string>

#include "experiments/registry.hpp"
#include "fuzz_common.hpp"
#include "lab/embed_options.hpp"
#include "lab/url_hash.hpp"

using namespace attnlab;

namespace {
bool same(const HashState& a, const HashState& b) {
  return a.experiment == b.experiment && a.preset == b.preset && a.params == b.params &&
         a.has_seed == b.has_seed && a.seed == b.seed && a.flags == b.flags;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string hash = fuzz::text(data, size);
  fuzz::require(percent_decode(percent_encode(hash)) == hash, "percent_decode(percent_encode(s)) == s");
  HashState st;
  if (!fuzz::accepts([&] { st = decode_hash(hash); })) return 0;
  // Percent-encoding may triple a link's length: one that grows beyond the limit is refused.
  const std::string encoded = encode_hash(st);
  HashState again;
  if (encoded.size() <= kMaxHashBytes) {
    fuzz::require(fuzz::accepts([&] { again = decode_hash(encoded); }), "an encoded state decodes");
    fuzz::require(same(st, again), "decode(encode(state)) == state");
  }

  std::unique_ptr<Experiment> e;
  if (!fuzz::accepts([&] { e = make_experiment(st.experiment.empty() ? experiment_ids().front() : st.experiment); }))
    return 0;
  fuzz::accepts([&] { e->make_params(st.preset, st.params); });
  fuzz::accepts([&] { parse_embed_options(st, e->schema()); });
  const EmbedOptions salvaged = salvage_embed_options(st, e->schema());  // never refuses
  // What the embed dialog writes back is a link the page accepts.
  HashState link;
  link.flags = salvaged.to_flags();
  fuzz::require(fuzz::accepts([&] { parse_embed_options(link, e->schema()); }), "salvaged options are valid");
  return 0;
}
