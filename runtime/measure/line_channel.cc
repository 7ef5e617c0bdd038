#include "runtime/measure/line_channel.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "absl/strings/str_cat.h"

namespace tunefarm::runtime::measure {
namespace {

constexpr size_t kMaxLineBytes = size_t{64} << 20;

using Clock = std::chrono::steady_clock;

// Milliseconds left until `deadline` for poll(), rounded up so a wait never ends early.
int MillisLeft(Clock::time_point deadline) {
  auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left > 0 ? static_cast<int>(std::min<int64_t>(left, 1 << 30)) : 0;
}

ssize_t WriteSome(int fd, const char* data, size_t size, bool* is_socket) {
  if (*is_socket) {
    ssize_t n = send(fd, data, size, MSG_NOSIGNAL);
    if (n >= 0 || errno != ENOTSOCK) return n;
    *is_socket = false;
  }
  return write(fd, data, size);
}

}  // namespace

LineReader::Result LineReader::Read(std::string* line, int timeout_ms, std::string* error) {
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    if (size_t newline = buffer_.find('\n'); newline != std::string::npos) {
      line->assign(buffer_, 0, newline);
      buffer_.erase(0, newline + 1);
      return Result::kLine;
    }
    if (buffer_.size() > kMaxLineBytes) {
      if (error != nullptr) *error = "a line longer than 64 MiB";
      return Result::kError;
    }
    pollfd p{fd_, POLLIN, 0};
    int ready = poll(&p, 1, timeout_ms < 0 ? -1 : MillisLeft(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) {
      if (error != nullptr) *error = absl::StrCat("poll: ", std::strerror(errno));
      return Result::kError;
    }
    if (ready == 0) return Result::kTimeout;
    char chunk[4096];
    ssize_t n = read(fd_, chunk, sizeof(chunk));
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) {
      // A peer that died mid-exchange can show as ECONNRESET on a socket: that is an end too.
      if (errno == ECONNRESET) return Result::kEof;
      if (error != nullptr) *error = absl::StrCat("read: ", std::strerror(errno));
      return Result::kError;
    }
    if (n == 0) return Result::kEof;
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

absl::Status WriteLine(int fd, std::string_view line) {
  std::string data(line);
  data.push_back('\n');
  bool is_socket = true;
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = WriteSome(fd, data.data() + done, data.size() - done, &is_socket);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return absl::UnavailableError(absl::StrCat("write: ", std::strerror(errno)));
    done += static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

}  // namespace tunefarm::runtime::measure
