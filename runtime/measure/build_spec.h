// BuildSpec: what a worker needs to compile one candidate itself — the task (a workload key, or
// a TE script with its bindings), the target and one point of the task's config space. Plain
// data, so the tracker, the proto mapping and the worker share it without linking the compiler.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace tunefarm::runtime::measure {

struct BuildSpec {
  std::string workload_key;  // canonical, e.g. "matmul:64,64,64:float32"; empty for a script
  std::string script_name;   // a script task: its name, source and size bindings
  std::string script_source;
  std::map<std::string, int64_t> script_bindings;
  std::string target;           // e.g. "llvm -mcpu=znver3"
  std::string config_json;      // one point of the task's config space
  bool with_reference = false;  // also build the naive reference: correctness is checked
  double build_timeout_s = 20;

  bool operator==(const BuildSpec&) const = default;
};

}  // namespace tunefarm::runtime::measure
