#include "tools/cli/flag_checks.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

namespace tunefarm::tools::cli {
namespace {

double ParseNumber(const std::string& text, bool* ok) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  *ok = !text.empty() && end == text.c_str() + text.size() && errno == 0 && std::isfinite(v);
  return v;
}

std::string Words(double v, const char* unit = "") {
  std::ostringstream text;
  text << v << unit;
  return text.str();
}

}  // namespace

CLI::Validator NumberCheck(std::function<bool(double)> fits, std::string requirement) {
  return CLI::Validator(
      [fits = std::move(fits), requirement = std::move(requirement)](std::string& text) {
        bool ok = false;
        const double v = ParseNumber(text, &ok);
        if (!ok) return "must be a number, got '" + text + "'";
        if (!fits(v)) return "must be " + requirement + ", got " + text;
        return std::string();
      },
      "", "NumberCheck");
}

CLI::Validator InRange(double lo, double hi) {
  return NumberCheck([lo, hi](double v) { return v >= lo && v <= hi; },
                     "in " + Words(lo) + ".." + Words(hi));
}

CLI::Validator AtLeast(double lo, const char* unit) {
  return NumberCheck([lo](double v) { return v >= lo; }, "at least " + Words(lo, unit));
}

CLI::Validator Above(double lo, const char* unit) {
  return NumberCheck([lo](double v) { return v > lo; }, "more than " + Words(lo, unit));
}

CLI::Validator ReadableFile() {
  return CLI::Validator(
      [](std::string& path) {
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec)) return "'" + path + "' is a directory";
        std::FILE* f = std::fopen(path.c_str(), "rb");
        if (f == nullptr) return "cannot read '" + path + "': " + std::strerror(errno);
        std::fclose(f);
        return std::string();
      },
      "FILE", "ReadableFile");
}

void AddFarmAddress(CLI::App* cmd, client::FarmAddress& farm) {
  cmd->add_option("--tracker", farm.tracker, "The tracker, HOST:PORT")->capture_default_str();
  cmd->add_option("--token-file", farm.token_file, "File holding the farm's token")
      ->check(ReadableFile());
  cmd->add_option("--tls-root-cert", farm.tls_root_cert, "CA certificate (PEM) for TLS")
      ->check(ReadableFile());
}

void AddTimingOption(CLI::App* cmd, TuneCommandOptions& t, const std::string& default_name) {
  cmd->add_option("--timing", t.measure.cache_flush,
                  "hot: back-to-back calls, as a kernel runs in a loop; weights: each timed call "
                  "finds the caches as a layer inside a model does (its weights evicted, other "
                  "data in their place, its input cached); cold: each starts with every cache "
                  "flushed (weights and cold: one call per repeat; give --repeat 10)")
      // The name becomes the enum's number, which CLI11 then stores; any other word is refused in
      // words (CLI11's own checked map prints its internals).
      ->transform(CLI::Validator(
          [](std::string& text) {
            auto it = TimingChoices().find(text);
            if (it == TimingChoices().end()) {
              return "must be hot, weights or cold, got '" + text + "'";
            }
            text = std::to_string(static_cast<int>(it->second));
            return std::string();
          },
          "", "TimingName"))
      ->option_text("hot|weights|cold (default: " + default_name + ")");
}

void AddTuningFlags(CLI::App* cmd, TuneCommandOptions& t, const std::string& trials_help,
                    const std::string& default_timing) {
  cmd->add_option("--trials", t.trials, trials_help)->capture_default_str()->check(AtLeast(1));
  cmd->add_option("--tuner", t.tuner, "xgb (model-based), random, grid or ga")
      ->capture_default_str();
  cmd->add_option("--db", t.db, "The record database (SQLite; created if missing)")
      ->capture_default_str();
  cmd->add_option("--batch-size", t.batch_size, "Candidates per batch")
      ->capture_default_str()
      ->check(AtLeast(1));
  cmd->add_option("--seed", t.seed, "Seed of the search")->capture_default_str();
  cmd->add_option("--threads", t.measure.threads,
                  "Parallel width of measured kernels (0: all cores)")
      ->capture_default_str()
      ->check(AtLeast(0));
  cmd->add_option("--repeat", t.measure.repeat, "Timed repeats per candidate")
      ->capture_default_str()
      ->check(AtLeast(1));
  cmd->add_option("--min-repeat-ms", t.measure.min_repeat_ms,
                  "Shortest repeat, in ms (--timing hot)")
      ->capture_default_str()
      ->check(AtLeast(0, " ms"));
  AddTimingOption(cmd, t, default_timing);
  cmd->add_option("--run-timeout", t.measure.run_timeout_s,
                  "Seconds a candidate may take on the device on top of its timing")
      ->capture_default_str()
      ->check(Above(0, " s"));
  cmd->add_option("--build-timeout", t.measure.build_timeout_s, "Seconds a candidate may compile")
      ->capture_default_str()
      ->check(Above(0, " s"));
}

}  // namespace tunefarm::tools::cli
