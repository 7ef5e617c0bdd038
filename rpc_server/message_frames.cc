#include "rpc_server/message_frames.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sys/socket.h>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "google/protobuf/message_lite.h"

namespace tunefarm::rpc_server {
namespace {

// The most a frame may claim, whatever the caller allows: protobuf parses at most 2 GiB.
constexpr int64_t kFrameLimit = (int64_t{1} << 31) - 1;

absl::Status WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == ENOTSOCK) n = write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return absl::UnavailableError(absl::StrCat("write: ", std::strerror(errno)));
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

// Reads exactly `size` bytes: 1 when done, 0 on EOF before the first byte, -1 otherwise.
int ReadAll(int fd, char* data, size_t size, std::string* error) {
  size_t got = 0;
  while (got < size) {
    ssize_t n = read(fd, data + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *error = absl::StrCat("read: ", std::strerror(errno));
      return -1;
    }
    if (n == 0) {
      if (got == 0) return 0;
      *error = absl::StrCat("the stream ended inside a frame (", got, " of ", size, " bytes)");
      return -1;
    }
    got += static_cast<size_t>(n);
  }
  return 1;
}

}  // namespace

absl::Status WriteFrame(int fd, const google::protobuf::MessageLite& message, int64_t max_bytes) {
  const size_t size = message.ByteSizeLong();
  if (static_cast<int64_t>(size) > std::min(max_bytes, kFrameLimit)) {
    return absl::InvalidArgumentError(absl::StrCat("a message of ", size,
                                                   " bytes is over the limit of ",
                                                   std::min(max_bytes, kFrameLimit), " bytes"));
  }
  std::string frame(4 + size, '\0');
  for (int i = 0; i < 4; ++i) frame[i] = static_cast<char>((size >> (8 * i)) & 0xff);
  if (!message.SerializeToArray(frame.data() + 4, static_cast<int>(size))) {
    return absl::InternalError("the message cannot be serialized");
  }
  return WriteAll(fd, frame.data(), frame.size());
}

FrameRead ReadFrame(int fd, google::protobuf::MessageLite* message, int64_t max_bytes,
                    std::string* error) {
  unsigned char header[4];
  const int got = ReadAll(fd, reinterpret_cast<char*>(header), sizeof(header), error);
  if (got == 0) return FrameRead::kEof;
  if (got < 0) return FrameRead::kError;
  const int64_t size = int64_t{header[0]} | (int64_t{header[1]} << 8) | (int64_t{header[2]} << 16) |
                       (int64_t{header[3]} << 24);
  if (size > std::min(max_bytes, kFrameLimit)) {
    *error = absl::StrCat("a frame claims ", size, " bytes; the limit is ",
                          std::min(max_bytes, kFrameLimit));
    return FrameRead::kError;
  }
  std::string bytes(static_cast<size_t>(size), '\0');
  if (size > 0 && ReadAll(fd, bytes.data(), bytes.size(), error) != 1) {
    if (error->empty()) *error = "the stream ended inside a frame";
    return FrameRead::kError;
  }
  if (!message->ParseFromString(bytes)) {
    *error = absl::StrCat("a frame of ", size, " bytes does not parse");
    return FrameRead::kError;
  }
  return FrameRead::kMessage;
}

}  // namespace tunefarm::rpc_server
