// The expected outputs of a candidate: its reference library run once on the seeded inputs, the
// result kept for the next candidates with the same reference key (a few keys, least recently
// used first out).
#pragma once

#include <list>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/measure/kernel_arguments.h"
#include "runtime/measure/measure_protocol.h"

namespace tunefarm::runtime::measure {

struct ReferenceRun {
  std::string key;
  KernelArguments inputs;    // every tensor as it was before the run (outputs hold random data)
  KernelArguments expected;  // every tensor after the reference ran
};

class ReferenceOutputs {
 public:
  explicit ReferenceOutputs(size_t capacity = 4) : capacity_(capacity) {}

  // The cached run for the request's reference key, or a fresh one. Errors name the reference
  // library and what failed (load, arguments, run). The pointer is valid until the next call.
  absl::StatusOr<const ReferenceRun*> Get(const MeasureRequest& request);

  size_t size() const { return runs_.size(); }

 private:
  size_t capacity_;
  std::list<std::unique_ptr<ReferenceRun>> runs_;  // most recently used first
};

// The cache key of a request's reference: its reference_key (else library and function), seed
// and bindings.
std::string ReferenceKeyOf(const MeasureRequest& request);

}  // namespace tunefarm::runtime::measure
