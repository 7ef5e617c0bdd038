#include "client/remote_session.h"

#include <grpcpp/grpcpp.h>
#include <limits>

#include "absl/strings/str_cat.h"
#include "client/farm_channel.h"
#include "compiler/target/target.h"
#include "proto/tunefarm/v1/session.grpc.pb.h"
#include "runtime/core/elf_machine.h"
#include "runtime/measure/library_file.h"

namespace tunefarm::client {

absl::StatusOr<std::string> ReadModuleFile(const std::string& path) {
  return runtime::measure::ReadLibraryFile(path, std::numeric_limits<int32_t>::max());
}
namespace {

namespace pb = tunefarm::v1;

void AddArguments(const std::vector<SessionArgument>& args,
                  google::protobuf::RepeatedPtrField<pb::CallArgument>* out) {
  for (const SessionArgument& a : args) {
    pb::CallArgument* p = out->Add();
    if (const auto* id = std::get_if<std::string>(&a)) {
      p->set_array_id(*id);
    } else if (const auto* i = std::get_if<int64_t>(&a)) {
      p->set_int_value(*i);
    } else {
      p->set_float_value(std::get<double>(a));
    }
  }
}

}  // namespace

struct RemoteSession::Impl {
  FarmClientOptions options;
  std::unique_ptr<pb::SessionService::Stub> stub;
  std::string session_id;

  // Runs one unary call of the session service with the token and deadline.
  template <typename Request, typename Response, typename Method>
  absl::Status Unary(Method method, const Request& request, Response* response) {
    auto ctx = MakeFarmContext(options);
    return FromGrpcStatus((stub.get()->*method)(ctx.get(), request, response), options.address);
  }
};

RemoteSession::RemoteSession(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

RemoteSession::~RemoteSession() {
  pb::CloseSessionRequest request;
  request.set_session_id(impl_->session_id);
  pb::CloseSessionResponse response;
  (void)impl_->Unary(&pb::SessionService::Stub::CloseSession, request, &response);
}

absl::StatusOr<std::unique_ptr<RemoteSession>> RemoteSession::Open(const FarmClientOptions& options,
                                                                   const std::string& device_key,
                                                                   double wait_s) {
  absl::StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeFarmChannel(options);
  if (!channel.ok()) return channel.status();
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  // Waiting for a worker counts against the call, not only the unary timeout.
  impl->options.call_timeout_s = options.call_timeout_s + wait_s;
  impl->stub = pb::SessionService::NewStub(*channel);
  pb::OpenSessionRequest request;
  request.set_device_key(device_key);
  request.set_wait_s(wait_s);
  pb::OpenSessionResponse response;
  if (absl::Status s = impl->Unary(&pb::SessionService::Stub::OpenSession, request, &response);
      !s.ok()) {
    return s;
  }
  impl->options.call_timeout_s = options.call_timeout_s;
  impl->session_id = response.session_id();
  auto session = std::unique_ptr<RemoteSession>(new RemoteSession(std::move(impl)));
  session->worker_id_ = response.worker_id();
  session->target_ = response.target();
  session->cpu_model_ = response.cpu_model();
  return session;
}

absl::StatusOr<UploadedModule> RemoteSession::Upload(const std::string& library_bytes,
                                                     const std::string& name) {
  // Refused here, before the bytes travel: the worker could not load it, and would say only
  // that dlopen() failed.
  absl::StatusOr<target::Target> theirs = target::ParseTarget(target_);
  if (theirs.ok() && !theirs->is_gpu() && target_.find("-mtriple") != std::string::npos) {
    const std::string want = runtime::TripleMachine(theirs->llvm().triple);
    const std::string got = runtime::ElfMachine(library_bytes);
    if (!got.empty() && !want.empty() && got != want) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, " was built for ", got, ", and worker ", worker_id_, " runs ", want,
                       ": build it with --target '", target::DisplayTarget(target_), "'"));
    }
  }
  pb::UploadModuleRequest request;
  request.set_session_id(impl_->session_id);
  request.set_library(library_bytes);
  request.set_name(name);
  pb::UploadModuleResponse response;
  if (absl::Status s = impl_->Unary(&pb::SessionService::Stub::UploadModule, request, &response);
      !s.ok()) {
    return s;
  }
  UploadedModule module;
  module.module_id = response.module_id();
  module.model = response.model();
  std::string error;
  if (!runtime::ParseManifest(response.manifest(), &module.functions, &error)) {
    return absl::DataLossError(absl::StrCat("the worker's manifest of ", name, ": ", error));
  }
  return module;
}

absl::StatusOr<std::string> RemoteSession::Alloc(const std::vector<int64_t>& shape,
                                                 const std::string& dtype) {
  pb::AllocArrayRequest request;
  request.set_session_id(impl_->session_id);
  for (int64_t d : shape) request.add_shape(d);
  request.set_dtype(dtype);
  pb::AllocArrayResponse response;
  if (absl::Status s = impl_->Unary(&pb::SessionService::Stub::AllocArray, request, &response);
      !s.ok()) {
    return s;
  }
  return response.array_id();
}

absl::Status RemoteSession::CopyTo(const std::string& array_id, const std::string& bytes) {
  pb::CopyToArrayRequest request;
  request.set_session_id(impl_->session_id);
  request.set_array_id(array_id);
  request.set_data(bytes);
  pb::CopyToArrayResponse response;
  return impl_->Unary(&pb::SessionService::Stub::CopyToArray, request, &response);
}

absl::StatusOr<std::string> RemoteSession::CopyFrom(const std::string& array_id) {
  pb::CopyFromArrayRequest request;
  request.set_session_id(impl_->session_id);
  request.set_array_id(array_id);
  pb::CopyFromArrayResponse response;
  if (absl::Status s = impl_->Unary(&pb::SessionService::Stub::CopyFromArray, request, &response);
      !s.ok()) {
    return s;
  }
  return response.data();
}

absl::StatusOr<double> RemoteSession::Call(const std::string& module_id,
                                           const std::string& function,
                                           const std::vector<SessionArgument>& args) {
  pb::CallFunctionRequest request;
  request.set_session_id(impl_->session_id);
  request.set_module_id(module_id);
  request.set_function(function);
  AddArguments(args, request.mutable_args());
  pb::CallFunctionResponse response;
  if (absl::Status s = impl_->Unary(&pb::SessionService::Stub::CallFunction, request, &response);
      !s.ok()) {
    return s;
  }
  return response.seconds();
}

namespace {

void SetTiming(const SessionTiming& timing, pb::MeasureOptions* options) {
  options->set_number(timing.number);
  options->set_repeat(timing.repeat);
  options->set_min_repeat_ms(timing.min_repeat_ms);
  options->set_threads(timing.threads);
}

}  // namespace

absl::StatusOr<std::vector<double>> RemoteSession::TimeModel(const std::string& module_id,
                                                             const SessionTiming& timing) {
  pb::TimeModelRequest request;
  request.set_session_id(impl_->session_id);
  request.set_module_id(module_id);
  SetTiming(timing, request.mutable_options());
  pb::TimeModelResponse response;
  if (absl::Status s = impl_->Unary(&pb::SessionService::Stub::TimeModel, request, &response);
      !s.ok()) {
    return s;
  }
  return std::vector<double>(response.repeat_seconds().begin(), response.repeat_seconds().end());
}

absl::StatusOr<std::vector<double>> RemoteSession::Time(const std::string& module_id,
                                                        const std::string& function,
                                                        const std::vector<SessionArgument>& args,
                                                        const SessionTiming& timing) {
  pb::TimeFunctionRequest request;
  request.set_session_id(impl_->session_id);
  request.set_module_id(module_id);
  request.set_function(function);
  AddArguments(args, request.mutable_args());
  SetTiming(timing, request.mutable_options());
  pb::TimeFunctionResponse response;
  if (absl::Status s = impl_->Unary(&pb::SessionService::Stub::TimeFunction, request, &response);
      !s.ok()) {
    return s;
  }
  return std::vector<double>(response.repeat_seconds().begin(), response.repeat_seconds().end());
}

}  // namespace tunefarm::client
