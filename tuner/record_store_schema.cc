#include "tuner/record_store_schema.h"

#include <string_view>

#include "absl/strings/str_cat.h"
#include "spdlog/spdlog.h"

namespace tunefarm::tuner {
namespace {

struct Migration {
  int version;
  std::string_view what;
  std::string_view sql;
};

// Records reference workloads, jobs and workers by key, without foreign keys: a record must be
// stored even when it arrives before (or without) the row that describes its worker or job.
constexpr Migration kMigrations[] = {
    {1, "base tables",
     R"sql(
CREATE TABLE workloads (
  key TEXT PRIMARY KEY,
  flops REAL
);
CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  workload_key TEXT NOT NULL,
  target TEXT NOT NULL,
  device_key TEXT NOT NULL,
  created_ms INTEGER NOT NULL
);
CREATE TABLE workers (
  key TEXT PRIMARY KEY,
  device_key TEXT NOT NULL,
  target TEXT NOT NULL,
  last_seen_ms INTEGER NOT NULL
);
CREATE TABLE records (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  workload_key TEXT NOT NULL,
  target TEXT NOT NULL,
  device_key TEXT NOT NULL,
  config_json TEXT NOT NULL,
  repeat_seconds_json TEXT NOT NULL,
  median_seconds REAL,
  error_kind TEXT NOT NULL,
  error_message TEXT NOT NULL,
  build_seconds REAL NOT NULL,
  measured_by TEXT NOT NULL,
  timestamp_ms INTEGER NOT NULL,
  tunefarm_version TEXT NOT NULL,
  job_id TEXT NOT NULL
);
)sql"},
    {2, "indexes for best-config and job-history queries",
     R"sql(
CREATE INDEX records_best ON records
  (workload_key, target, device_key, error_kind, median_seconds);
CREATE INDEX records_job ON records (job_id, id);
)sql"},
    {3, "cost models saved with the records",
     R"sql(
CREATE TABLE cost_models (
  scope TEXT PRIMARY KEY,
  model BLOB NOT NULL,
  training_rows INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL
);
)sql"},
    {4, "tracker jobs: what was asked and where it stands, so a restarted tracker resumes them",
     R"sql(
ALTER TABLE jobs ADD COLUMN spec_json TEXT NOT NULL DEFAULT '{}';
ALTER TABLE jobs ADD COLUMN state TEXT NOT NULL DEFAULT 'queued';
ALTER TABLE jobs ADD COLUMN message TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN trials INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN priority INTEGER NOT NULL DEFAULT 1;
ALTER TABLE jobs ADD COLUMN tuner TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN updated_ms INTEGER NOT NULL DEFAULT 0;
CREATE INDEX jobs_state ON jobs (state, created_ms);
)sql"},
    {5, "who built each record's candidate (a worker, the tracker, or local)",
     R"sql(
ALTER TABLE records ADD COLUMN built_by TEXT NOT NULL DEFAULT '';
)sql"},
    {6, "model jobs: one trial budget spread over a model's tasks, each task a job of its own",
     R"sql(
CREATE TABLE model_jobs (
  id TEXT PRIMARY KEY,
  model_name TEXT NOT NULL,
  target TEXT NOT NULL,
  device_key TEXT NOT NULL,
  spec_json TEXT NOT NULL,
  state TEXT NOT NULL,
  message TEXT NOT NULL,
  trials INTEGER NOT NULL,
  created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL,
  measured_seconds REAL NOT NULL DEFAULT 0,
  untuned_seconds REAL NOT NULL DEFAULT 0,
  measured_by TEXT NOT NULL DEFAULT ''
);
CREATE INDEX model_jobs_state ON model_jobs (state, created_ms);
ALTER TABLE jobs ADD COLUMN model_job_id TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN model_task INTEGER NOT NULL DEFAULT -1;
CREATE INDEX jobs_model_job ON jobs (model_job_id);
)sql"},
    {7, "how each record was timed: warm caches (0) or flushed before every call (1)",
     R"sql(
ALTER TABLE records ADD COLUMN cold_cache INTEGER NOT NULL DEFAULT 0;
)sql"},
    {8,
     "what was evicted before every timed call: nothing (0), every cache (1), the kernel's "
     "weights (2)",
     R"sql(
ALTER TABLE records RENAME COLUMN cold_cache TO cache_flush;
)sql"},
    {9,
     "how far to trust a record's repeats: the canary around them over its best, and whether "
     "they stayed spread or in a slow phase after being timed again",
     R"sql(
ALTER TABLE records ADD COLUMN canary_ratio REAL NOT NULL DEFAULT 1;
ALTER TABLE records ADD COLUMN noisy INTEGER NOT NULL DEFAULT 0;
)sql"},
    {10, "whether a record was measured under an emulator (its times are not the device's)",
     R"sql(
ALTER TABLE records ADD COLUMN emulated INTEGER NOT NULL DEFAULT 0;
)sql"},
};

absl::Status ApplyOne(SqliteDb& db, const Migration& m) {
  absl::StatusOr<SqliteTransaction> txn = SqliteTransaction::Begin(db);
  if (!txn.ok()) return txn.status();
  // Another process may have run this migration while we waited for the write lock.
  absl::StatusOr<int64_t> current = db.QueryInt("PRAGMA user_version");
  if (!current.ok()) return current.status();
  if (*current >= m.version) return txn->Commit();
  if (absl::Status s = db.Exec(m.sql); !s.ok()) return s;
  if (absl::Status s = db.Exec(absl::StrCat("PRAGMA user_version = ", m.version)); !s.ok()) {
    return s;
  }
  spdlog::debug("record store: migrated schema to version {} ({})", m.version, m.what);
  return txn->Commit();
}

}  // namespace

int LatestSchemaVersion() { return std::size(kMigrations); }

absl::Status MigrateSchema(SqliteDb& db, int target_version) {
  absl::StatusOr<int64_t> current = db.QueryInt("PRAGMA user_version");
  if (!current.ok()) return current.status();
  if (target_version > LatestSchemaVersion() || *current > target_version) {
    return absl::FailedPreconditionError(absl::StrCat(
        "record database has schema version ", *current, " but this tunefarm knows up to ",
        LatestSchemaVersion(), "; upgrade tunefarm to open it"));
  }
  for (const Migration& m : kMigrations) {
    if (m.version <= *current || m.version > target_version) continue;
    if (absl::Status s = ApplyOne(db, m); !s.ok()) {
      return absl::Status(s.code(), absl::StrCat("migration ", m.version, ": ", s.message()));
    }
  }
  return absl::OkStatus();
}

}  // namespace tunefarm::tuner
