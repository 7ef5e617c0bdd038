#include "rpc_server/session_server.h"

#include <cstdio>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "proto/tunefarm/v1/session.pb.h"
#include "rpc_server/message_frames.h"

namespace tunefarm::rpc_server {
namespace {}  // namespace

std::vector<std::string> SessionServerArgs(const SessionServerConfig& config) {
  return {"--dir",
          config.dir,
          "--memory-bytes",
          std::to_string(config.limits.memory_bytes),
          "--max-reply-bytes",
          std::to_string(config.limits.max_reply_bytes)};
}

absl::StatusOr<SessionServerConfig> ParseSessionServerArgs(const std::vector<std::string>& args) {
  SessionServerConfig config;
  for (size_t i = 0; i < args.size(); i += 2) {
    if (i + 1 >= args.size()) return absl::InvalidArgumentError(args[i] + " needs a value");
    const std::string& flag = args[i];
    const std::string& value = args[i + 1];
    int64_t* number = nullptr;
    if (flag == "--dir") {
      config.dir = value;
      continue;
    }
    if (flag == "--memory-bytes") number = &config.limits.memory_bytes;
    if (flag == "--max-reply-bytes") number = &config.limits.max_reply_bytes;
    if (number == nullptr) return absl::InvalidArgumentError("unknown flag " + flag);
    if (!absl::SimpleAtoi(value, number) || *number <= 0) {
      return absl::InvalidArgumentError(absl::StrCat(flag, " must be a positive byte count"));
    }
  }
  if (config.dir.empty()) return absl::InvalidArgumentError("--dir is required");
  return config;
}

int ServeSessionCalls(int in_fd, int out_fd, const SessionServerConfig& config) {
  SessionHost host(config.dir, config.limits);
  const int64_t max_call = config.limits.memory_bytes + kFrameHeadroom;
  const int64_t max_reply = config.limits.max_reply_bytes + kFrameHeadroom;
  for (;;) {
    v1::SessionCall call;
    std::string error;
    switch (ReadFrame(in_fd, &call, max_call, &error)) {
      case FrameRead::kEof:
        return 0;
      case FrameRead::kError:
        std::fprintf(stderr, "session process: %s\n", error.c_str());
        return 1;
      case FrameRead::kMessage:
        break;
    }
    v1::SessionReply reply;
    host.Handle(call, &reply);
    if (!WriteFrame(out_fd, reply, max_reply).ok()) return 1;
  }
}

}  // namespace tunefarm::rpc_server
