// Newline-terminated messages over a file descriptor (a pipe or a socket), with a deadline on
// reads: how a runner and its measure child talk.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace tunefarm::runtime::measure {

// Reads lines from a descriptor it does not own, buffering what arrives past a newline.
class LineReader {
 public:
  enum class Result { kLine, kEof, kTimeout, kError };

  explicit LineReader(int fd) : fd_(fd) {}

  // The next line without its '\n'. `timeout_ms` < 0 waits forever; kTimeout leaves the partial
  // line buffered. kError (a read error, or a line over 64 MiB) sets `*error` when given.
  Result Read(std::string* line, int timeout_ms, std::string* error = nullptr);

 private:
  int fd_;
  std::string buffer_;
};

// Writes `line` and a '\n' completely (retrying short writes and EINTR). On a socket it uses
// MSG_NOSIGNAL, so a peer that died is an error (EPIPE), never a SIGPIPE for this process.
absl::Status WriteLine(int fd, std::string_view line);

}  // namespace tunefarm::runtime::measure
