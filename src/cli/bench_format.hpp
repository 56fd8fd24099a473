// `attnlab bench --format`: the throughput table as text (one workload a line) or as JSON.
#pragma once
#include "lab/choice_table.hpp"

namespace attnlab::cli {

enum class BenchFormat { Text, Json };

inline constexpr ChoiceTable<BenchFormat> kBenchFormats{{"text", BenchFormat::Text}, {"json", BenchFormat::Json}};

}  // namespace attnlab::cli
