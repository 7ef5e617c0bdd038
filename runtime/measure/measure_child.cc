#include "runtime/measure/measure_child.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace tunefarm::runtime::measure {

absl::StatusOr<std::unique_ptr<MeasureChild>> MeasureChild::Start(
    const std::string& program, const std::vector<std::string>& args) {
  absl::StatusOr<std::unique_ptr<ChildProcess>> process = ChildProcess::Start(program, args);
  if (!process.ok()) {
    return absl::UnavailableError(
        absl::StrCat("the measure program: ", process.status().message()));
  }
  return std::unique_ptr<MeasureChild>(new MeasureChild(*std::move(process)));
}

MeasureChild::Reply MeasureChild::Exchange(std::string_view request, double timeout_s) {
  if (!process_->alive()) return {Reply::Kind::kError, "the measure process is not running"};
  if (!WriteLine(process_->fd(), request).ok()) {
    // EPIPE or ECONNRESET: it died before reading (MSG_NOSIGNAL kept SIGPIPE away from us).
    return {Reply::Kind::kDied, process_->Reap(/*grace_ms=*/1000)};
  }
  std::string line;
  std::string error;
  const int timeout_ms = static_cast<int>(std::clamp(timeout_s * 1000.0, 0.0, 1e9));
  switch (reader_.Read(&line, timeout_ms, &error)) {
    case LineReader::Result::kLine:
      return {Reply::Kind::kLine, std::move(line)};
    case LineReader::Result::kEof:
      return {Reply::Kind::kDied, process_->Reap(/*grace_ms=*/1000)};
    case LineReader::Result::kTimeout:
      process_->Reap(/*grace_ms=*/0);
      return {Reply::Kind::kTimeout, ""};
    case LineReader::Result::kError:
      process_->Reap(/*grace_ms=*/0);
      return {Reply::Kind::kError, error};
  }
  return {Reply::Kind::kError, "unreachable"};
}

}  // namespace tunefarm::runtime::measure
