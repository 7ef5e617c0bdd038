#include "tools/commands/records_command.h"

#include <fstream>

#include "driver/record_db.h"
#include "tools/commands/exit_codes.h"

namespace tunefarm::tools {
namespace {

int Fail(std::ostream& err, const absl::Status& s, int code = kExitFailed) {
  err << "tunefarm: " << s.message() << "\n";
  return code;
}

int Export(const RecordsOptions& o, std::ostream& out, std::ostream& err) {
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store =
      driver::OpenRecordDb(o.db, driver::DbMode::kMustExist);
  if (!store.ok()) return Fail(err, store.status(), kExitUsage);
  std::ofstream file;
  std::ostream* sink = &out;
  if (o.file != "-") {
    file.open(o.file, std::ios::binary | std::ios::trunc);
    if (!file) return Fail(err, absl::NotFoundError("cannot write " + o.file));
    sink = &file;
  }
  if (absl::Status s = (*store)->ExportJsonLines(*sink); !s.ok()) return Fail(err, s);
  sink->flush();
  if (!*sink) return Fail(err, absl::DataLossError("write failed: " + o.file));
  absl::StatusOr<int64_t> n = (*store)->RecordCount();
  if (n.ok()) err << "exported " << *n << " records\n";
  return 0;
}

int Import(const RecordsOptions& o, std::istream& in, std::ostream& out, std::ostream& err) {
  std::ifstream file;
  std::istream* source = &in;
  if (o.file != "-") {
    file.open(o.file, std::ios::binary);
    if (!file) return Fail(err, absl::NotFoundError("cannot read " + o.file), kExitUsage);
    source = &file;
  }
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store =
      driver::OpenRecordDb(o.db, driver::DbMode::kCreate);
  if (!store.ok()) return Fail(err, store.status());
  absl::StatusOr<int64_t> n = (*store)->ImportJsonLines(*source);
  if (!n.ok()) {
    return Fail(err, absl::Status(n.status().code(),
                                  std::string(n.status().message()) + " (nothing was imported)"));
  }
  out << "imported " << *n << " records from " << (o.file == "-" ? "stdin" : o.file) << "\n";
  return 0;
}

}  // namespace

int RunRecordsCommand(const RecordsOptions& options, std::istream& in, std::ostream& out,
                      std::ostream& err) {
  if (options.action == "export") return Export(options, out, err);
  if (options.action == "import") return Import(options, in, out, err);
  err << "tunefarm: records: unknown action '" << options.action
      << "' (expected export or import)\n";
  return kExitUsage;
}

}  // namespace tunefarm::tools
