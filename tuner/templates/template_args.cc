#include "tuner/templates/template_args.h"

#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "compiler/ir/expr.h"

namespace tunefarm::tuner::templates {

absl::Status WorkloadError(const Workload& workload, const absl::Status& status) {
  return absl::Status(status.code(),
                      absl::StrCat("workload '", workload.Key(), "': ", status.message()));
}

absl::Status CheckWorkloadArgs(const Workload& workload, const TemplateInfo& info,
                               const std::string& may_be_zero, const std::string& dtype) {
  const std::vector<std::string> names = absl::StrSplit(info.args_help, ',');
  if (workload.args.size() != names.size()) {
    return WorkloadError(workload, absl::InvalidArgumentError(absl::StrCat(
                                       info.name, " takes ", names.size(), " arguments ",
                                       info.args_help, ", got ", workload.args.size())));
  }
  for (size_t i = 0; i < names.size(); ++i) {
    const bool zero_ok = names[i] == may_be_zero;
    if (workload.args[i] < 0 || (workload.args[i] == 0 && !zero_ok)) {
      return WorkloadError(workload, absl::InvalidArgumentError(absl::StrCat(
                                         info.name, " argument ", names[i], " = ", workload.args[i],
                                         " must be ", zero_ok ? "non-negative" : "positive",
                                         " (arguments ", info.args_help, ")")));
    }
  }
  if (workload.dtype != dtype) {
    return WorkloadError(
        workload, absl::InvalidArgumentError(absl::StrCat(info.name, " supports dtype ", dtype,
                                                          " only, not '", workload.dtype, "'")));
  }
  return absl::OkStatus();
}

absl::Status CheckTensorSize(const Workload& workload, const std::string& tensor,
                             const std::vector<int64_t>& shape) {
  int64_t elements = 1;
  for (int64_t d : shape) {
    if (d > std::numeric_limits<int32_t>::max() ||
        elements > std::numeric_limits<int32_t>::max() / d) {
      return WorkloadError(workload, absl::InvalidArgumentError(absl::StrCat(
                                         tensor, " of shape ", absl::StrJoin(shape, "x"),
                                         " has more than 2^31 elements")));
    }
    elements *= d;
  }
  return absl::OkStatus();
}

te::Tensor Float32Placeholder(const std::vector<int64_t>& shape, const std::string& name) {
  std::vector<ir::Expr> dims;
  for (int64_t d : shape) dims.push_back(ir::IntImm(ir::DataType::Int(32), d));
  return te::placeholder(dims, ir::DataType::Float(32), name);
}

}  // namespace tunefarm::tuner::templates
