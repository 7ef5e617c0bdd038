#include "proto/mapping/build_spec_proto.h"

#include "proto/tunefarm/v1/worker.pb.h"

namespace tunefarm::proto_mapping {

absl::StatusOr<runtime::measure::BuildSpec> BuildSpecFromProto(
    const v1::BuildSpec& proto, const runtime::measure::MeasureOptions& options) {
  if (proto.workload_key().empty() == proto.script_source().empty()) {
    return absl::InvalidArgumentError(
        "build spec: give exactly one of a workload key and a script source");
  }
  if (proto.target().empty()) return absl::InvalidArgumentError("build spec: no target");
  if (proto.config_json().empty()) return absl::InvalidArgumentError("build spec: no config");
  runtime::measure::BuildSpec s;
  s.workload_key = proto.workload_key();
  s.script_name = proto.script_name();
  s.script_source = proto.script_source();
  s.script_bindings.insert(proto.script_bindings().begin(), proto.script_bindings().end());
  s.target = proto.target();
  s.config_json = proto.config_json();
  s.with_reference = options.check_correctness;
  s.build_timeout_s = options.build_timeout_s;
  return s;
}

v1::BuildSpec BuildSpecToProto(const runtime::measure::BuildSpec& spec) {
  v1::BuildSpec p;
  p.set_workload_key(spec.workload_key);
  p.set_script_name(spec.script_name);
  p.set_script_source(spec.script_source);
  p.mutable_script_bindings()->insert(spec.script_bindings.begin(), spec.script_bindings.end());
  p.set_target(spec.target);
  p.set_config_json(spec.config_json);
  return p;
}

}  // namespace tunefarm::proto_mapping
