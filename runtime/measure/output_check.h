// Compares a candidate's arguments after a run with the reference's, elementwise within a
// tolerance, and describes the first element that differs.
#pragma once

#include <string>

#include "runtime/measure/kernel_arguments.h"

namespace tunefarm::runtime::measure {

// Empty when every tensor of `got` matches `want` (|got - want| <= atol + rtol * |want|; equal
// values, infinities included, and NaN against NaN agree). Otherwise one line naming the argument,
// the index and both values, e.g. "C[3, 4] = 1.5, expected 2.25 (|diff| 0.75 > 0.00235)".
// Inputs are compared too: a kernel that scribbles on its inputs is as wrong as a bad output.
std::string FindMismatch(const KernelArguments& got, const KernelArguments& want, double rtol,
                         double atol);

}  // namespace tunefarm::runtime::measure
