// Values for a script's symbolic variables (`--bind n=67,m=45`), and the concrete shapes of its
// argument tensors once those values are known.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/mutator.h"
#include "compiler/te/tensor.h"

namespace tunefarm::driver {

// Name to value, ordered so that messages list names alphabetically.
using Bindings = std::map<std::string, int64_t>;

// Parses "n=67,m=45" (spaces around items allowed, "" is no binding). A malformed item or a name
// given twice is InvalidArgument naming the item.
absl::StatusOr<Bindings> ParseBindings(const std::string& text);

// Matches the bound names to the script's variables (every variable of that name gets the value).
// A name the script does not have is an error listing the known names; a variable that appears in
// an argument's shape and has no value is an error naming it and the argument.
absl::StatusOr<ir::VarMap> ResolveBindings(const Bindings& bindings,
                                           const std::vector<ir::Var>& vars,
                                           const std::vector<te::Tensor>& args);

// The integer value of an index expression with variables replaced by `values` (+ - * floordiv
// floormod div mod min max and casts of those); InvalidArgument when it is not such a constant.
absl::StatusOr<int64_t> EvaluateInt(const ir::Expr& e, const ir::VarMap& values);

// A tensor's shape with the variables bound; negative dimensions are an error.
absl::StatusOr<std::vector<int64_t>> ConcreteShape(const te::Tensor& tensor,
                                                   const ir::VarMap& values);

}  // namespace tunefarm::driver
