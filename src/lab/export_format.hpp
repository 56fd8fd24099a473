// The formats a run's table is exported in, as one choice table: the CLI's --format (run, inspect,
// merge), the page's Download buttons (appDownload(kind)) and the JS API (Session json/csv) read
// it; record_text() (lab/run_record.hpp) writes a record in one.
#pragma once
#include "lab/choice_table.hpp"

namespace attnlab {

enum class TableFormat { Csv, Json };

inline constexpr ChoiceTable<TableFormat> kTableFormats{{"csv", TableFormat::Csv}, {"json", TableFormat::Json}};

}  // namespace attnlab
