#include "runtime/measure/output_check.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "runtime/data_type.h"
#include "runtime/measure/element_access.h"

namespace tunefarm::runtime::measure {

std::string FindMismatch(const KernelArguments& got, const KernelArguments& want, double rtol,
                         double atol) {
  if (got.tensors().size() != want.tensors().size()) {
    return absl::StrCat("the candidate has ", got.tensors().size(), " tensor arguments, the ",
                        "reference ", want.tensors().size());
  }
  for (size_t t = 0; t < got.tensors().size(); ++t) {
    const NDArray& a = got.tensors()[t];
    const NDArray& b = want.tensors()[t];
    const std::string& name = got.signature().args[got.tensor_positions()[t]].name;
    if (a.shape() != b.shape() || !SameDataType(a.dtype(), b.dtype())) {
      return absl::StrCat("argument ", name, " differs from the reference's in shape or dtype");
    }
    for (int64_t i = 0; i < a.NumElements(); ++i) {
      const double x = LoadElement(a, i);
      const double y = LoadElement(b, i);
      if (x == y || (std::isnan(x) && std::isnan(y))) continue;
      const double diff = std::fabs(x - y);
      const double allowed = atol + rtol * std::fabs(y);
      if (std::isfinite(x) && std::isfinite(y) && diff <= allowed) continue;
      return absl::StrCat(name, FormatIndex(i, a.shape()), " = ", x, ", expected ", y, " (|diff| ",
                          diff, " > ", allowed, ")");
    }
  }
  return "";
}

}  // namespace tunefarm::runtime::measure
