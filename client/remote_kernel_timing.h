// Kernels timed on a farm device through a remote session: one set of arguments made on the
// device from seeded data, then kernels of that signature timed in alternating rounds, one
// repeat each per round (runtime/measure/interleaved_timing.h gives the ratios' intervals).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "client/remote_session.h"
#include "driver/bindings.h"
#include "runtime/core/function_signature.h"
#include "runtime/measure/interleaved_timing.h"

namespace tunefarm::client {

// The kernel `wanted` of an uploaded library (empty: its only one); InvalidArgument listing the
// library's kernels otherwise.
absl::StatusOr<const runtime::FunctionSignature*> PickFunction(const UploadedModule& module,
                                                               const std::string& wanted);

// Allocates every argument of `f` on the device and fills it with seeded data (integers from
// `bindings`); InvalidArgument naming an unbound size or an argument a session cannot make.
absl::StatusOr<std::vector<SessionArgument>> PrepareSessionArguments(
    RemoteSession& session, const runtime::FunctionSignature& f, const driver::Bindings& bindings,
    uint64_t seed);

// Whether two kernels take the same arguments (names aside), so one set of arrays serves both.
bool SameArguments(const runtime::FunctionSignature& a, const runtime::FunctionSignature& b);

struct DeviceKernel {
  std::string module_id;
  std::string function;
};

// `rounds` (>= 2) rounds, the order reversed every other round, each kernel timed once per round
// with `slot` (repeat 1): seconds[i] are kernel i's rounds, over_first[i] its ratio to kernel 0.
absl::StatusOr<runtime::measure::InterleavedTiming> TimeInTurnsOnDevice(
    RemoteSession& session, const std::vector<DeviceKernel>& kernels,
    const std::vector<SessionArgument>& args, const SessionTiming& slot, int rounds);

}  // namespace tunefarm::client
