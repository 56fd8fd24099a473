// A unit's partial result as JSON, the form Web Worker messages and shard files carry
// (decode_partial throws std::runtime_error on malformed text). Property: decode(encode(p)) == p,
// bit for bit.
#include <stdexcept>
#include <string>

#include "fuzz_common.hpp"
#include "lab/partial_codec.hpp"

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Partial p;
  try {
    p = decode_partial(fuzz::text(data, size));
  } catch (const std::runtime_error&) {
    return 0;
  }
  const std::string encoded = encode_partial(p);
  Partial again;
  try {
    again = decode_partial(encoded);
  } catch (const std::runtime_error&) {
    fuzz::require(false, "an encoded partial decodes");
  }
  fuzz::require(again == p, "decode(encode(partial)) == partial");
  return 0;
}
