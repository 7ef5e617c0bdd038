// The record store's schema as an ordered list of migrations, tracked by PRAGMA user_version:
// version N means migrations 1..N have run. Migrations are append-only; never edit a shipped one.
#pragma once

#include "absl/status/status.h"
#include "tuner/sqlite_db.h"

namespace tunefarm::tuner {

// The schema version this build writes and understands.
int LatestSchemaVersion();

// Brings `db` from its user_version up to `target_version` (each migration in its own
// transaction, together with its user_version bump, so a crash leaves a whole version).
// FailedPrecondition when the file is newer than `target_version` (or than this build knows).
absl::Status MigrateSchema(SqliteDb& db, int target_version);

}  // namespace tunefarm::tuner
