// VerifyBest: before a best config and its speedup are published, the fastest recorded configs
// and the template's default are built again and timed here in alternating rounds
// (runtime/measure/interleaved_timing.h), holding the host's timing lock. The published best is
// the one that wins that re-timing, and its speedup over the default comes with a 95 %
// confidence interval, so a number printed from records that a noisy neighbour inflated never
// reaches the user.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/measure/interleaved_timing.h"
#include "tuner/measure.h"
#include "tuner/record_store.h"
#include "tuner/task.h"

namespace tunefarm::tuner {

class LocalBuilder;

struct VerifyOptions {
  int top = 5;  // the fastest distinct configs of the records
  runtime::measure::InterleavedOptions interleaved;
  int threads = 1;              // the kernels' parallel width: what the records were timed with
  std::string work_dir_parent;  // where the libraries are built; empty: $TMPDIR, else /tmp
};

struct VerifiedConfig {
  std::string config_json;
  double recorded_seconds = 0;  // the median of its best record (0 for an unrecorded default)
  double retimed_seconds = 0;   // the median of its rounds here
};

struct VerifiedBest {
  std::vector<VerifiedConfig> candidates;  // by recorded time, fastest first
  int winner = 0;                          // the candidate fastest when re-timed
  VerifiedConfig default_config;
  // The winner's time over the default's, round by round: < 1 is a speedup.
  runtime::measure::RatioInterval winner_over_default;
  bool timed_alone = false;
  std::string timing_note;  // why the host's timing lock was not held, when it was not
};

// What is verified: the fastest distinct configs of the task's successful records (at most
// `top`, fastest first, each with its best median) and the template's default, in the records'
// canonical JSON. NotFound when no record succeeded.
struct VerificationPlan {
  std::vector<VerifiedConfig> candidates;
  VerifiedConfig default_config;
  std::vector<std::string> Configs() const;  // the default first, then the candidates
};
absl::StatusOr<VerificationPlan> PlanVerification(const std::vector<Record>& records,
                                                  const Task& task, const std::string& device_key,
                                                  int top);

// Configs built into libraries on this machine (for the task's target), on disk while this lives.
class BuiltConfigs {
 public:
  // A config that does not build is an error naming it.
  static absl::StatusOr<std::unique_ptr<BuiltConfigs>> Build(
      const Task& task, const std::vector<std::string>& configs,
      const std::string& work_dir_parent = "");
  ~BuiltConfigs();
  // In the order of `configs`: library_path and function_name of each.
  const std::vector<BuildResult>& libraries() const { return libraries_; }

 private:
  BuiltConfigs() = default;
  std::unique_ptr<LocalBuilder> builder_;
  std::vector<BuildResult> libraries_;
};

// The plan's configs timed in alternating rounds wherever they ran: `timing.seconds[0]` is the
// default's, then the candidates' in order. Fills in the re-timed medians, the winner (the
// candidate fastest over the rounds) and its time over the default's.
VerifiedBest ConcludeVerification(VerificationPlan plan,
                                  const runtime::measure::InterleavedTiming& timing);

// The configs (JSON) built here and timed here in alternating rounds, holding the host's timing
// lock; `seconds[i]` are config i's rounds and `over_first[i]` its time over config 0's.
struct ConfigTiming {
  runtime::measure::InterleavedTiming timing;
  bool timed_alone = false;
  std::string timing_note;
};
absl::StatusOr<ConfigTiming> TimeConfigsInterleaved(const Task& task,
                                                    const std::vector<std::string>& configs,
                                                    const VerifyOptions& options = {});

// NotFound when the task has no successful record for `device_key` (timed warm, as jobs time);
// a build or run that fails is returned with the config it was for.
absl::StatusOr<VerifiedBest> VerifyBest(RecordStore& store, const Task& task,
                                        const std::string& device_key,
                                        const VerifyOptions& options = {});

}  // namespace tunefarm::tuner
