#include "lab/results.hpp"

namespace attnlab {

int Table::column(const std::string& name) const {
  for (std::size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == name) return static_cast<int>(i);
  return -1;
}

}  // namespace attnlab
