// TimedModule: a built file made ready to time on this machine: a kernel library (one function,
// every argument filled with seeded data) or a model module (the graph executor, its inputs
// seeded). `tunefarm time` and the verification of published speedups time these.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tunefarm::runtime::measure {

class TimedModule {
 public:
  // `function` empty: the library's only kernel (ignored for a model module). `bindings` give
  // symbolic extents and integer arguments. Errors name the file and what is wrong with it.
  static absl::StatusOr<std::unique_ptr<TimedModule>> Load(
      const std::string& path, const std::string& function,
      const std::map<std::string, int64_t>& bindings, uint64_t seed);

  virtual ~TimedModule() = default;

  // One run: a kernel call or the whole graph.
  virtual absl::Status Run() = 0;
  // "kernel matmul_512 of a.so" or "model of resnet18.so (21 steps)".
  virtual std::string Describe() const = 0;
  // What Run reads and writes, to hold two modules' runs equal: the signature's or the graph's
  // inputs and outputs, as text.
  virtual std::string Interface() const = 0;
};

}  // namespace tunefarm::runtime::measure
