#include "tracker/service/status_conversion.h"

#include <string>

#include "runtime/core/abbreviate.h"

namespace tunefarm::tracker {

// absl::StatusCode and grpc::StatusCode share their numbering (both follow google.rpc.Code);
// anything outside the known range becomes UNKNOWN.
grpc::Status ToGrpcStatus(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  int code = static_cast<int>(status.code());
  if (code < 0 || code > static_cast<int>(grpc::StatusCode::UNAUTHENTICATED)) {
    code = static_cast<int>(grpc::StatusCode::UNKNOWN);
  }
  return grpc::Status(static_cast<grpc::StatusCode>(code),
                      runtime::Abbreviate(std::string(status.message()), kMaxStatusMessageBytes));
}

absl::Status FromGrpcStatus(const grpc::Status& status) {
  if (status.ok()) return absl::OkStatus();
  int code = static_cast<int>(status.error_code());
  if (code < 0 || code > static_cast<int>(absl::StatusCode::kUnauthenticated)) {
    code = static_cast<int>(absl::StatusCode::kUnknown);
  }
  return absl::Status(static_cast<absl::StatusCode>(code), status.error_message());
}

}  // namespace tunefarm::tracker
