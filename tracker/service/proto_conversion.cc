#include "tracker/service/proto_conversion.h"

#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "farm_api/job_proto.h"
#include "proto/mapping/measure_options_proto.h"
#include "proto/mapping/or_default.h"
#include "proto/tunefarm/v1/session.pb.h"
#include "runtime/core/abbreviate.h"
#include "runtime/measure/sha256.h"
#include "runtime/measure_limits.h"
#include "tuner/record.h"

namespace tunefarm::tracker {
using proto_mapping::OrDefault;

absl::StatusOr<SessionTimeouts> SessionTimeoutsFromProto(const v1::OpenSessionRequest& request) {
  for (const auto& [field, value] : {std::pair{"wait_s", request.wait_s()},
                                     std::pair{"idle_timeout_s", request.idle_timeout_s()}}) {
    if (absl::Status s = runtime::CheckInRange(field, value, runtime::kWaitRange); !s.ok()) {
      return s;
    }
  }
  SessionTimeouts t;
  t.wait_s = OrDefault(request.wait_s(), t.wait_s);
  t.idle_timeout_s = OrDefault(request.idle_timeout_s(), t.idle_timeout_s);
  return t;
}

farm_api::WorkerDescription WorkerDescriptionFromRegister(const v1::Register& reg) {
  farm_api::WorkerDescription d;
  d.device_key = reg.device_key();
  d.target = reg.target();
  d.cpu_model = reg.cpu_model();
  d.cores = reg.cores();
  d.memory_bytes = reg.memory_bytes();
  d.gpu_model = reg.gpu_model();
  d.gpu_memory_bytes = reg.gpu_memory_bytes();
  if (reg.has_gpu()) d.gpu = farm_api::GpuDescriptionFromProto(reg.gpu());
  d.can_build = reg.can_build();
  d.build_only = reg.build_only();
  d.cpu_features.assign(reg.cpu_features().begin(), reg.cpu_features().end());
  d.emulated = reg.emulated();
  d.tunefarm_version = reg.tunefarm_version();
  d.hostname = reg.hostname();
  return d;
}

namespace {

WorkOutcome RuntimeError(WorkOutcome o, std::string message) {
  o.error_kind = tuner::ErrorKind::kRuntimeError;
  o.error_message = std::move(message);
  o.repeat_seconds.clear();
  o.built.reset();
  return o;
}

// A library a builder sent back. Its hash is ours, not the builder's claim: the artifact cache
// names libraries by what they hold.
absl::StatusOr<Artifact> ArtifactFromBuilder(const v1::Artifact& a, const char* what) {
  if (a.bytes().empty()) {
    return absl::InvalidArgumentError(absl::StrCat("builder sent its ", what, " without bytes"));
  }
  Artifact artifact;
  artifact.sha256 = runtime::measure::Sha256Hex(a.bytes());
  if (!a.sha256().empty() && a.sha256() != artifact.sha256) {
    return absl::InvalidArgumentError(
        absl::StrCat("builder's ", what, " does not match its sha256"));
  }
  artifact.bytes = std::make_shared<const std::string>(a.bytes());
  artifact.name = a.name().empty() ? "candidate.so" : runtime::Abbreviate(a.name(), 64);
  return artifact;
}

}  // namespace

WorkOutcome WorkOutcomeFromResult(const v1::LeaseResult& result, const std::string& worker_id) {
  const v1::MeasureOutcome& outcome = result.outcome();
  WorkOutcome o;
  o.worker_id = worker_id;
  o.error_message = outcome.error_message();
  // Only a worker's own build has a time; a negative or non-finite one is not one.
  if (std::isfinite(result.build_seconds()) && result.build_seconds() > 0) {
    o.build_seconds = result.build_seconds();
  }
  o.unbuilt = result.cannot_build();
  auto kind = tuner::ParseErrorKind(outcome.error_kind());
  if (!kind.ok()) {
    std::string message = "worker reported unknown error kind '" +
                          runtime::Abbreviate(outcome.error_kind()) + "'" +
                          (o.error_message.empty() ? "" : ": " + o.error_message);
    return RuntimeError(std::move(o), std::move(message));
  }
  o.error_kind = *kind;
  if (o.error_kind != tuner::ErrorKind::kOk || o.unbuilt) return o;  // no timings, no libraries
  if (result.has_library()) {
    // A builder's answer to build-only work: the libraries instead of timings.
    BuiltLibraries built;
    absl::StatusOr<Artifact> library = ArtifactFromBuilder(result.library(), "library");
    if (!library.ok()) return RuntimeError(std::move(o), std::string(library.status().message()));
    built.library = *std::move(library);
    built.function_name = result.function_name();
    if (result.has_reference_library()) {
      absl::StatusOr<Artifact> reference =
          ArtifactFromBuilder(result.reference_library(), "reference library");
      if (!reference.ok()) {
        return RuntimeError(std::move(o), std::string(reference.status().message()));
      }
      built.reference = *std::move(reference);
      built.reference_key = result.reference_key();
    }
    if (built.function_name.empty()) {
      return RuntimeError(std::move(o), "builder sent a library without its function name");
    }
    o.built = std::move(built);
    return o;
  }
  for (double s : outcome.repeat_seconds()) {
    if (!std::isfinite(s) || s <= 0) {
      return RuntimeError(std::move(o),
                          "worker reported ok with an invalid time (" + std::to_string(s) + " s)");
    }
    o.repeat_seconds.push_back(s);
  }
  if (o.repeat_seconds.empty()) {
    return RuntimeError(std::move(o), "worker reported ok without any timings");
  }
  const double canary = outcome.canary_ratio();
  if (!std::isfinite(canary) || canary < 0) {
    return RuntimeError(std::move(o),
                        "worker reported an invalid canary ratio (" + std::to_string(canary) + ")");
  }
  o.canary_ratio = canary > 0 ? canary : 1;  // 0: a worker older than the canary
  o.noisy = outcome.noisy();
  return o;
}

// The client's directions.

}  // namespace tunefarm::tracker
