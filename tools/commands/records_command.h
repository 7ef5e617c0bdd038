// `tunefarm records export|import --db tf.db [FILE]`: every record as JSON lines
// (docs/records.md), to a file or stdout, and back in one all-or-nothing transaction.
#pragma once

#include <istream>
#include <ostream>
#include <string>

namespace tunefarm::tools {

struct RecordsOptions {
  std::string action;  // "export" or "import"
  std::string db;
  std::string file = "-";  // "-": stdout for export, stdin for import
};

// export: the lines on `out` (or FILE), a count on `err`; import: "imported N records from FILE"
// on `out`. 1 with one "tunefarm: ..." line (a missing database for export, a bad line, which
// names its number and stores nothing), 2 for an unknown action.
int RunRecordsCommand(const RecordsOptions& options, std::istream& in, std::ostream& out,
                      std::ostream& err);

}  // namespace tunefarm::tools
