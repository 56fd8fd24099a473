// Mirror-descent data files ("bring your own data", --data, the page's file picker).
#include "experiments/mirror/dataset.hpp"
#include "fuzz_common.hpp"

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::accepts([&] {
    const mirror::Dataset d = mirror::read_dataset_file(fuzz::text(data, size), 1);
    fuzz::require(d.n() > 0 && d.T() > 0 && d.d() > 0, "an accepted data set is not empty");
  });
  return 0;
}
