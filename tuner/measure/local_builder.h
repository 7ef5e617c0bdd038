// LocalBuilder: compiles candidates into shared libraries on worker threads of this process,
// each under a deadline, plus one library of the naive reference schedule per reference key.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tuner/measure.h"

namespace tunefarm::tuner {

struct LocalBuilderOptions {
  std::string work_dir_parent;  // where the scratch directory goes; empty: $TMPDIR, else /tmp
  bool keep_work_dir = false;   // leave the libraries on disk (debugging)
  int parallelism = 0;          // builds at once; 0: the hardware threads
  // Libraries of this many recent Build calls stay on disk (older ones are deleted when a new
  // batch starts), so a runner may still be measuring the previous batch while the next builds.
  int keep_batches = 2;
  MeasureOptions measure;  // build_timeout_s, check_correctness
  // How long the destructor waits for builds past their deadline to end (see below).
  double late_build_grace_s = 2;
};

// Thread safety: Build may be called from several threads at once (the tracker's build threads
// share one builder per job); each call runs its own workers, and `keep_batches` then counts
// calls from all threads. Task::Apply and TaskTemplate::Reference are called from several
// threads at once (templates are const and build fresh schedules).
//
// Timeouts: a thread cannot be killed, so a build past its deadline is recorded as
// build_timeout, a fresh worker takes over the rest of the batch, and the late thread runs on,
// detached, until its build ends; then its library is deleted. It owns what it touches (the
// batch's shared state, the work directory), so the builder may be destroyed meanwhile; the
// directory goes when the last late build ends. The deadline covers lowering and code
// generation, which can blow up; Build does not return while a late build is still inside
// Task::Apply or TaskTemplate::Reference (those read the caller's Task, which the caller may
// destroy once Build returns), so a template's Apply must not hang. The destructor waits up to
// late_build_grace_s for late builds, since one still inside LLVM when the process exits can
// crash in LLVM's static destructors; past that it returns and they finish on their own.
class LocalBuilder final : public Builder {
 public:
  static absl::StatusOr<std::unique_ptr<LocalBuilder>> Create(LocalBuilderOptions options = {});
  ~LocalBuilder() override;

  // Results in input order: ok with library_path and function_name (and the reference's library
  // and key when correctness is checked), invalid_config when the template rejects the config,
  // build_error with the compiler's message, or build_timeout.
  std::vector<BuildResult> Build(const std::vector<MeasureInput>& inputs) override;

  const std::string& work_dir() const;

  // Waits up to timeout_s until no build abandoned past its deadline is still running anywhere
  // in this process (every late thread has dropped what it owned). For exit paths, so that no
  // late build is inside LLVM or logging while static destructors run, and for tests. True when
  // none is left.
  static bool WaitForLateBuilds(double timeout_s);

  struct Shared;  // state late builds share with the builder; defined in the .cc

 private:
  explicit LocalBuilder(std::shared_ptr<Shared> shared) : shared_(std::move(shared)) {}
  std::shared_ptr<Shared> shared_;
};

}  // namespace tunefarm::tuner
