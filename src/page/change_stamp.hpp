// The page's change stamp: a counter that grows by one whenever what a frame would show differs
// from what it showed at the last look (results, state, view, a step of the progress bar, an
// error, the page or step). Unlike a mix of the fields, two changes cannot cancel out.
#pragma once
#include <cstdint>
#include <vector>

namespace attnlab::page {

class ChangeStamp {
 public:
  // The fields a redraw depends on, now; returns the counter, one more than last time if any differs.
  std::uint64_t observe(const std::vector<std::uint64_t>& fields) {
    if (fields != last_) last_ = fields, ++count_;
    return count_;
  }
  std::uint64_t count() const { return count_; }

 private:
  std::vector<std::uint64_t> last_;
  std::uint64_t count_ = 0;
};

}  // namespace attnlab::page
