// What the operator-library templates share: checking a workload's arguments against a
// template's TemplateInfo (count, positive, float32, tensor sizes), with errors naming the key.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "compiler/te/tensor.h"
#include "tuner/task_template.h"
#include "tuner/workload.h"

namespace tunefarm::tuner::templates {

// InvalidArgument naming the workload key and `info.args_help` for a wrong argument count, a
// non-positive argument (a negative one for the argument named `may_be_zero`, e.g. "pad"), or a
// dtype other than `dtype`.
absl::Status CheckWorkloadArgs(const Workload& workload, const TemplateInfo& info,
                               const std::string& may_be_zero = "",
                               const std::string& dtype = "float32");

// InvalidArgument naming the key when a tensor of `shape` would not fit 32-bit indexing (the
// compiler's index type).
absl::Status CheckTensorSize(const Workload& workload, const std::string& tensor,
                             const std::vector<int64_t>& shape);

// `status` with "workload '<key>': " in front, same code.
absl::Status WorkloadError(const Workload& workload, const absl::Status& status);

// A float32 placeholder of a constant shape.
te::Tensor Float32Placeholder(const std::vector<int64_t>& shape, const std::string& name);

}  // namespace tunefarm::tuner::templates
