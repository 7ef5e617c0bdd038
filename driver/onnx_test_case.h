// One ONNX backend test case (a folder with model.onnx and test_data_set_*/input_N.pb,
// output_N.pb) built into a module and run on every data set, its outputs compared with the
// expected ones: what `tunefarm model test` and the node-test suites run.
#pragma once

#include <string>

#include "compiler/target/target.h"

namespace tunefarm::driver {

enum class CaseOutcome { kPassed, kFailed, kUnsupported };

struct CaseResult {
  CaseOutcome outcome = CaseOutcome::kPassed;
  std::string why;  // empty when passed
};

// An element matches when |got - want| <= atol + rtol * |want| (ONNX's backend test rule) for
// float32, exactly for integers and bools. Parameters given as inputs (Reshape's shape, Clip's
// bounds, integer and scalar inputs) are built in as constants from the first data set. What the
// importer or the build does not handle (Unimplemented) is kUnsupported, with the reason.
CaseResult RunOnnxTestCase(const std::string& dir, const target::Target& target, double rtol,
                           double atol);

}  // namespace tunefarm::driver
