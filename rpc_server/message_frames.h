// Protobuf messages over a socket to a session process: each one a 4-byte little-endian length
// and the serialized bytes. Length-prefixed, not lines, because arrays travel as raw bytes.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/status.h"

namespace google::protobuf {
class MessageLite;
}  // namespace google::protobuf

namespace tunefarm::rpc_server {

// Room for a message's own fields around the bytes it carries (an array, a library, a reply):
// a frame may be this much larger than the payload a session's limits allow.
inline constexpr int64_t kFrameHeadroom = int64_t{1} << 20;

// Writes the whole frame (retrying short writes and EINTR; MSG_NOSIGNAL on a socket, so a peer
// that died is an error, not a SIGPIPE). InvalidArgument when the message exceeds `max_bytes`.
absl::Status WriteFrame(int fd, const google::protobuf::MessageLite& message, int64_t max_bytes);

enum class FrameRead { kMessage, kEof, kError };

// Reads one frame into `message`. kEof: the peer closed before a frame began. kError (with
// `*error` set): a read error, a frame cut short, one over `max_bytes` (refused before its
// bytes are allocated), or bytes that do not parse.
FrameRead ReadFrame(int fd, google::protobuf::MessageLite* message, int64_t max_bytes,
                    std::string* error);

}  // namespace tunefarm::rpc_server
