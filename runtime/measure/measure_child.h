// The tunefarm-measure child process as a runner sees it: spawned with a Unix socket as its
// stdin and stdout, sent one request line at a time, and killed and reaped when it crashes,
// hangs or misbehaves, so that generated code never takes the tuner down.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/measure/child_process.h"
#include "runtime/measure/line_channel.h"

namespace tunefarm::runtime::measure {

class MeasureChild {
 public:
  // Spawns `program` in its own process group (a Ctrl-C at the terminal is the tuner's to
  // handle, not the candidate's). Unavailable naming the program when it cannot start.
  // `args` follow the program name on its command line.
  static absl::StatusOr<std::unique_ptr<MeasureChild>> Start(
      const std::string& program, const std::vector<std::string>& args = {});

  // Closes the channel (the child exits at end of input), waits up to a second, then kills it;
  // always reaps it, so no zombie is left.
  ~MeasureChild() = default;
  MeasureChild(const MeasureChild&) = delete;
  MeasureChild& operator=(const MeasureChild&) = delete;

  struct Reply {
    enum class Kind {
      kLine,     // `text` is the response line
      kDied,     // the child ended; `text` says how ("killed by SIGSEGV", "exited with status 1")
      kTimeout,  // no reply in time; the child was killed
      kError,    // the channel failed; `text` says how; the child was killed
    };
    Kind kind = Kind::kLine;
    std::string text;
  };

  // Sends one request line and waits up to `timeout_s` for one reply line. After anything but
  // kLine the child is gone (alive() is false) and a new one must be started.
  Reply Exchange(std::string_view request, double timeout_s);

  bool alive() const { return process_->alive(); }
  // True (and the child reaped) when it has already ended; never blocks.
  bool ExitedWhileIdle() { return process_->ExitedWhileIdle(); }
  pid_t pid() const { return process_->pid(); }

 private:
  explicit MeasureChild(std::unique_ptr<ChildProcess> process)
      : process_(std::move(process)), reader_(process_->fd()) {}

  std::unique_ptr<ChildProcess> process_;
  LineReader reader_;
};

}  // namespace tunefarm::runtime::measure
