// RemoteSession: one device of the farm, borrowed through the tracker ("program your board from
// your laptop"): upload a module, allocate and fill arrays, call or time a function, copy results
// back. Closed (the worker released) when destroyed.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "client/farm_client.h"
#include "runtime/core/function_signature.h"

namespace tunefarm::client {

struct UploadedModule {
  std::string module_id;
  bool model = false;  // a model module (`tunefarm model build`): TimeModel times it
  std::vector<runtime::FunctionSignature> functions;
};

// An array id of this session, an integer or a float.
using SessionArgument = std::variant<std::string, int64_t, double>;

struct SessionTiming {
  int number = 0;  // 0: as many as reach min_repeat_ms
  int repeat = 5;
  double min_repeat_ms = 50;
  int threads = 0;  // 0: the device's default
};

// The bytes of a module file to upload: refused before reading past the largest message a session
// carries (2 GiB); errors name the file.
absl::StatusOr<std::string> ReadModuleFile(const std::string& path);

class RemoteSession {
 public:
  // Waits up to `wait_s` for an idle worker of `device_key` (ResourceExhausted otherwise).
  static absl::StatusOr<std::unique_ptr<RemoteSession>> Open(const FarmClientOptions& options,
                                                             const std::string& device_key,
                                                             double wait_s = 30);
  ~RemoteSession();  // CloseSession

  const std::string& worker_id() const { return worker_id_; }
  const std::string& target() const { return target_; }
  const std::string& cpu_model() const { return cpu_model_; }

  absl::StatusOr<UploadedModule> Upload(const std::string& library_bytes, const std::string& name);
  absl::StatusOr<std::string> Alloc(const std::vector<int64_t>& shape, const std::string& dtype);
  absl::Status CopyTo(const std::string& array_id, const std::string& bytes);
  absl::StatusOr<std::string> CopyFrom(const std::string& array_id);
  // Seconds of the one call on the device.
  absl::StatusOr<double> Call(const std::string& module_id, const std::string& function,
                              const std::vector<SessionArgument>& args);
  // Every repeat's mean seconds.
  absl::StatusOr<std::vector<double>> Time(const std::string& module_id,
                                           const std::string& function,
                                           const std::vector<SessionArgument>& args,
                                           const SessionTiming& timing);
  // Every repeat's mean seconds of one run of an uploaded model module's whole graph, on seeded
  // random inputs. InvalidArgument for a kernel library.
  absl::StatusOr<std::vector<double>> TimeModel(const std::string& module_id,
                                                const SessionTiming& timing);

  struct Impl;

 private:
  explicit RemoteSession(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  std::string worker_id_, target_, cpu_model_;
};

}  // namespace tunefarm::client
