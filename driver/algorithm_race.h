// `model build --race`: each conv's algorithm settled in the model itself. A record times a kernel
// alone; inside a model a Winograd kernel's transformed weights (up to 7x the direct conv's) and
// its tiles meet the other layers' data in the caches, and here its in-model time was up to twice
// its record's. So a conv workload whose rival algorithms have records close to the chosen one's
// is built both ways and the two whole modules are timed in turns; a rival is kept only if it wins.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/target/target.h"
#include "driver/model_compiler.h"
#include "driver/note_sink.h"

namespace tunefarm::driver {

// Seconds of one model run of each module, one pair per round.
struct RaceTimes {
  std::vector<double> incumbent, challenger;
  std::string timed_by;  // the worker that timed them, or "local"
};

// Times two module files in turns, here or on a device of the key.
using ModuleRaceTimer = std::function<absl::StatusOr<RaceTimes>(const std::string& incumbent,
                                                                const std::string& challenger)>;

struct RaceOptions {
  double band = 2.0;      // race a rival whose best record is within this factor of the chosen's
  double margin = 0.01;   // a rival must save this share of the model's time to be kept
  double budget_s = 600;  // no challenge starts after this many seconds
};

struct RaceVerdict {
  double ratio = 1;  // the median over rounds of challenger / incumbent
  int wins = 0;      // rounds the challenger was faster in
  int rounds = 0;
  bool challenger_wins = false;
};

// The challenger wins when its median ratio is below 1 - margin and it was faster in at least
// three rounds of four (a sign test: 12 of 16 happens by chance 4 % of the time). InvalidArgument
// for times without rounds, of unequal counts or not positive.
absl::StatusOr<RaceVerdict> JudgeRace(const RaceTimes& times, double margin);

struct RaceResult {
  // Every raced workload's algorithm (Winograd's m, 0 direct), for ModelCompileOptions::algorithms.
  std::map<std::string, int64_t> algorithms;
  int challenges = 0;  // rivals timed in the model
  int changed = 0;     // workloads whose algorithm the race changed
  int unraced = 0;     // rivals left when the budget ran out
};

// "F(4x4)", "F(2x2)" or "direct".
std::string AlgorithmName(int64_t tile);

// Races the rivals of every conv whose algorithm `options`' records chose (options.db is needed),
// the workloads of most record time first, each rival against the current best build with
// `timer`; a line per challenge to `note`. Errors: the builds' and the timer's.
absl::StatusOr<RaceResult> RaceAlgorithms(const std::string& onnx,
                                          const ModelCompileOptions& options,
                                          const target::Target& target,
                                          const ModuleRaceTimer& timer, const RaceOptions& race,
                                          const NoteSink& note);

}  // namespace tunefarm::driver
