#include "driver/algorithm_race.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/temp_dir.h"

namespace tunefarm::driver {
namespace {

// A rival algorithm of a workload, and what the race may gain by it (its record time in the model).
struct Challenge {
  std::string workload;
  int convs = 0;
  int64_t rival = 0;
  double record_seconds = 0;  // the rival's best record
  double stake = 0;           // the workload's record time per model run
};

std::vector<Challenge> ChallengesOf(const std::vector<AlgorithmChoice>& choices, double band) {
  std::vector<Challenge> out;
  for (const AlgorithmChoice& c : choices) {
    const auto chosen = c.best_seconds.find(c.chosen);
    if (chosen == c.best_seconds.end()) continue;  // forced to an algorithm without records
    for (const auto& [tile, seconds] : c.best_seconds) {
      if (tile == c.chosen || seconds > band * chosen->second) continue;
      out.push_back({c.workload, c.convs, tile, seconds, c.convs * chosen->second});
    }
  }
  // The largest stakes first, and of one workload the rival whose record is closest.
  std::stable_sort(out.begin(), out.end(), [](const Challenge& a, const Challenge& b) {
    if (a.stake != b.stake) return a.stake > b.stake;
    return a.record_seconds < b.record_seconds;
  });
  return out;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

absl::Status BuildInto(const std::string& onnx, const ModelCompileOptions& options,
                       const target::Target& target, const std::string& path) {
  absl::StatusOr<CompiledModel> model = CompileModel(onnx, options, target);
  if (!model.ok()) return model.status();
  return ExportCompiledModel(*model, path);
}

}  // namespace

std::string AlgorithmName(int64_t tile) {
  return tile == 0 ? std::string("direct") : absl::StrCat("F(", tile, "x", tile, ")");
}

absl::StatusOr<RaceVerdict> JudgeRace(const RaceTimes& times, double margin) {
  if (times.incumbent.empty() || times.incumbent.size() != times.challenger.size()) {
    return absl::InvalidArgumentError(absl::StrCat("a race needs rounds of both modules (got ",
                                                   times.incumbent.size(), " and ",
                                                   times.challenger.size(), ")"));
  }
  RaceVerdict v;
  v.rounds = static_cast<int>(times.incumbent.size());
  std::vector<double> ratios;
  for (int r = 0; r < v.rounds; ++r) {
    if (!(times.incumbent[r] > 0) || !(times.challenger[r] > 0)) {
      return absl::InvalidArgumentError(absl::StrCat("round ", r, " timed nothing"));
    }
    ratios.push_back(times.challenger[r] / times.incumbent[r]);
    if (ratios.back() < 1) ++v.wins;
  }
  v.ratio = Median(ratios);
  v.challenger_wins = v.ratio < 1 - margin && 4 * v.wins >= 3 * v.rounds;
  return v;
}

absl::StatusOr<RaceResult> RaceAlgorithms(const std::string& onnx,
                                          const ModelCompileOptions& options,
                                          const target::Target& target,
                                          const ModuleRaceTimer& timer, const RaceOptions& race,
                                          const NoteSink& note) {
  if (options.db.empty()) {
    return absl::InvalidArgumentError("--race needs records (--db): they name the rivals");
  }
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<codegen::TempDir> scratch = codegen::TempDir::Create("tunefarm-race");
  if (!scratch.ok()) return scratch.status();
  // Each build its own file: a module the timer loaded stays mapped under its path.
  int builds = 0;
  auto next_path = [&] { return absl::StrCat(scratch->path(), "/model-", builds++, ".so"); };

  absl::StatusOr<CompiledModel> first = CompileModel(onnx, options, target);
  if (!first.ok()) return first.status();
  std::string incumbent = next_path();
  if (absl::Status s = ExportCompiledModel(*first, incumbent); !s.ok()) return s;
  ModelCompileOptions current = options;
  RaceResult result;
  for (const AlgorithmChoice& c : first->algorithms) current.algorithms[c.workload] = c.chosen;
  const std::vector<Challenge> challenges = ChallengesOf(first->algorithms, race.band);
  note(absl::StrCat("race: ", challenges.size(), " rivals of ", first->algorithms.size(),
                    " conv workloads (records within ", race.band, "x of the chosen algorithm's)"));
  for (const Challenge& c : challenges) {
    const int64_t held = current.algorithms[c.workload];
    if (c.rival == held) continue;  // it won against the records' choice already
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > race.budget_s) {
      ++result.unraced;
      continue;
    }
    ModelCompileOptions trial = current;
    trial.algorithms[c.workload] = c.rival;
    const std::string challenger = next_path();
    if (absl::Status s = BuildInto(onnx, trial, target, challenger); !s.ok()) return s;
    absl::StatusOr<RaceTimes> times = timer(incumbent, challenger);
    if (!times.ok()) return times.status();
    absl::StatusOr<RaceVerdict> verdict = JudgeRace(*times, race.margin);
    if (!verdict.ok()) return verdict.status();
    ++result.challenges;
    char ratio[64];
    std::snprintf(ratio, sizeof ratio, "%.3f", verdict->ratio);
    note(absl::StrCat("  ", c.workload, " (", c.convs, " convs): ", AlgorithmName(c.rival),
                      " against ", AlgorithmName(held), ": ", ratio,
                      " of the model's time, faster in ", verdict->wins, " of ", verdict->rounds,
                      " rounds: ", AlgorithmName(verdict->challenger_wins ? c.rival : held)));
    std::error_code ec;
    if (verdict->challenger_wins) {
      current = std::move(trial);
      std::filesystem::remove(incumbent, ec);
      incumbent = challenger;
    } else {
      std::filesystem::remove(challenger, ec);
    }
  }
  for (const AlgorithmChoice& c : first->algorithms) {
    if (current.algorithms[c.workload] != c.chosen) ++result.changed;
  }
  if (result.unraced > 0) {
    note(absl::StrCat("race: ", result.unraced, " rivals not raced: the ", race.budget_s,
                      " s budget was spent"));
  }
  result.algorithms = std::move(current.algorithms);
  return result;
}

}  // namespace tunefarm::driver
