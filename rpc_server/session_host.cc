#include "rpc_server/session_host.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "proto/mapping/measure_options_proto.h"
#include "proto/tunefarm/v1/session.pb.h"
#include "runtime/core/c_abi.h"
#include "runtime/core/dtype_name.h"
#include "runtime/core/library_loader.h"
#include "runtime/core/thread_pool.h"
#include "runtime/data_type.h"
#include "runtime/graph/graph_executor.h"
#include "runtime/measure/host_timing_lock.h"
#include "runtime/measure/layer_cache_state.h"
#include "runtime/measure/random_fill.h"
#include "runtime/module.h"
#include "runtime/ndarray.h"
#include "runtime/packed_function.h"
#include "runtime/signature_text.h"
#include "runtime/time_evaluator.h"

namespace tunefarm::rpc_server {

struct SessionHost::Session {
  std::map<std::string, std::shared_ptr<runtime::Module>> modules;
  // Model modules also get a graph executor (by module id), for TimeModel.
  std::map<std::string, std::unique_ptr<runtime::GraphExecutor>> graphs;
  std::map<std::string, runtime::NDArray> arrays;
  int64_t bytes = 0;  // arrays and libraries held, against SessionLimits::memory_bytes
};

namespace {

template <typename Map>
auto* Find(Map& map, const std::string& id) {
  auto it = map.find(id);
  return it == map.end() ? nullptr : &it->second;
}

absl::Status NotFound(const char* what, const std::string& id) {
  return absl::NotFoundError(absl::StrCat("no ", what, " '", id, "' in this session"));
}

// Charges `bytes` to the session, or says why it cannot hold them.
absl::Status Reserve(SessionHost::Session& s, const SessionLimits& limits, uint64_t bytes,
                     const char* what) {
  const uint64_t left =
      s.bytes >= limits.memory_bytes ? 0 : static_cast<uint64_t>(limits.memory_bytes - s.bytes);
  if (bytes > left) {
    return absl::ResourceExhaustedError(absl::StrCat(
        what, " of ", bytes, " bytes is over this session's memory limit (", limits.memory_bytes,
        " bytes on this device, ", s.bytes, " already held); free arrays or close the session"));
  }
  s.bytes += static_cast<int64_t>(bytes);
  return absl::OkStatus();
}

absl::StatusOr<runtime::PackedFunction> Function(SessionHost::Session& s,
                                                 const std::string& module_id,
                                                 const std::string& name) {
  auto* module = Find(s.modules, module_id);
  if (module == nullptr) return NotFound("module", module_id);
  return (*module)->GetFunction(name);
}

// The timing a session's options ask for: number 0 lets the evaluator raise it until a repeat
// lasts min_repeat_ms. A function's weights (CacheFlush::kWeights) are added by its caller.
runtime::TimeEvaluatorOptions SessionTiming(const runtime::measure::MeasureOptions& o) {
  runtime::TimeEvaluatorOptions timing;
  timing.number = o.number > 0 ? o.number : 1;
  timing.min_repeat_ms = o.number > 0 ? 0 : o.min_repeat_ms;
  timing.repeat = o.repeat;
  timing.cooldown_ms = o.cooldown_ms;
  timing.flush_cache = o.cache_flush == runtime::measure::CacheFlush::kAll;
  timing.warmup_ms = o.warmup_ms;
  return timing;
}

// The call's arguments; arrays are borrowed from the session, which outlives the call.
absl::StatusOr<std::vector<runtime::PackedArg>> Arguments(
    SessionHost::Session& s, const google::protobuf::RepeatedPtrField<v1::CallArgument>& args) {
  std::vector<runtime::PackedArg> out;
  for (const v1::CallArgument& arg : args) {
    switch (arg.value_case()) {
      case v1::CallArgument::kArrayId: {
        runtime::NDArray* array = Find(s.arrays, arg.array_id());
        if (array == nullptr) return NotFound("array", arg.array_id());
        out.emplace_back(array);
        break;
      }
      case v1::CallArgument::kIntValue:
        out.emplace_back(static_cast<int64_t>(arg.int_value()));
        break;
      case v1::CallArgument::kFloatValue:
        out.emplace_back(arg.float_value());
        break;
      case v1::CallArgument::VALUE_NOT_SET:
        return absl::InvalidArgumentError(
            absl::StrCat("argument ", out.size(), " has no value (array, int or float)"));
    }
  }
  return out;
}

// The graph executor of a model module (its library carries TF_GRAPH_SYMBOL), its arena charged
// to the session; null for a kernel library.
absl::StatusOr<std::unique_ptr<runtime::GraphExecutor>> LoadGraphOf(const std::string& path,
                                                                    SessionHost::Session& s,
                                                                    const SessionLimits& limits) {
  std::string error;
  {
    std::unique_ptr<runtime::LoadedLibrary> library = runtime::LoadedLibrary::Open(path, &error);
    if (library == nullptr) return absl::InvalidArgumentError(error);
    if (library->FindSymbol(TF_GRAPH_SYMBOL) == nullptr) return nullptr;
  }
  runtime::GraphLoadOptions options;
  // Refused before the arena is allocated when the session cannot hold it.
  options.max_arena_bytes =
      s.bytes >= limits.memory_bytes ? 0 : static_cast<uint64_t>(limits.memory_bytes - s.bytes);
  std::unique_ptr<runtime::GraphExecutor> graph =
      runtime::GraphExecutor::Load(path, &error, options);
  if (graph == nullptr) return absl::InvalidArgumentError(error);
  absl::Status reserved = Reserve(s, limits, graph->memory_stats().arena_bytes, "a model's arena");
  if (!reserved.ok()) return reserved;
  return graph;
}

absl::Status Upload(const std::string& dir, int64_t id, SessionHost::Session& s,
                    const SessionLimits& limits, const v1::UploadModuleRequest& request,
                    v1::UploadModuleResponse* response) {
  absl::Status reserved = Reserve(s, limits, request.library().size(), "a library");
  if (!reserved.ok()) return reserved;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string module_id = absl::StrCat("m", id);
  const std::string path = absl::StrCat(dir, "/", module_id, ".so");
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(request.library().data(), static_cast<std::streamsize>(request.library().size()));
    if (!out) {
      s.bytes -= static_cast<int64_t>(request.library().size());
      return absl::InternalError(absl::StrCat("cannot write ", path));
    }
  }
  absl::StatusOr<std::shared_ptr<runtime::Module>> module = runtime::LoadModule(path);
  absl::StatusOr<std::unique_ptr<runtime::GraphExecutor>> graph = nullptr;
  if (module.ok()) graph = LoadGraphOf(path, s, limits);
  // The open library keeps its mapping; the file itself is no longer needed.
  std::remove(path.c_str());
  if (module.ok() && !graph.ok()) {
    s.bytes -= static_cast<int64_t>(request.library().size());
    return absl::Status(graph.status().code(),
                        absl::StrCat("the uploaded model '", request.name(),
                                     "' cannot be loaded: ", graph.status().message()));
  }
  if (!module.ok()) {
    s.bytes -= static_cast<int64_t>(request.library().size());
    return absl::InvalidArgumentError(
        absl::StrCat("the uploaded library '", request.name(),
                     "' cannot be loaded: ", module.status().message()));
  }
  response->set_module_id(module_id);
  std::vector<runtime::FunctionSignature> signatures;
  for (const std::string& name : (*module)->FunctionNames()) {
    absl::StatusOr<runtime::PackedFunction> f = (*module)->GetFunction(name);
    response->add_functions(f.ok() ? runtime::SignatureText(f->signature()) : name);
    if (f.ok()) signatures.push_back(f->signature());
  }
  response->set_manifest(runtime::SerializeManifest(signatures));
  s.modules[module_id] = *std::move(module);
  if (*graph != nullptr) {
    response->set_model(true);
    s.graphs[module_id] = *std::move(graph);
  }
  return absl::OkStatus();
}

absl::Status Alloc(int64_t id, SessionHost::Session& s, const SessionLimits& limits,
                   const v1::AllocArrayRequest& request, v1::AllocArrayResponse* response) {
  absl::StatusOr<DLDataType> dtype = runtime::ParseDataType(request.dtype());
  if (!dtype.ok()) return dtype.status();
  std::vector<int64_t> shape(request.shape().begin(), request.shape().end());
  absl::StatusOr<size_t> bytes = runtime::NDArray::BytesFor(shape, *dtype);
  if (!bytes.ok()) return absl::InvalidArgumentError(bytes.status().message());
  absl::Status reserved = Reserve(s, limits, *bytes, "an array");
  if (!reserved.ok()) return reserved;
  absl::StatusOr<runtime::NDArray> array = runtime::NDArray::Empty(std::move(shape), *dtype);
  if (!array.ok()) {
    s.bytes -= static_cast<int64_t>(*bytes);
    return array.status().code() == absl::StatusCode::kResourceExhausted
               ? array.status()
               : absl::InvalidArgumentError(array.status().message());
  }
  const std::string array_id = absl::StrCat("a", id);
  s.arrays.emplace(array_id, *std::move(array));
  response->set_array_id(array_id);
  return absl::OkStatus();
}

absl::Status CopyTo(SessionHost::Session& s, const v1::CopyToArrayRequest& request) {
  runtime::NDArray* array = Find(s.arrays, request.array_id());
  if (array == nullptr) return NotFound("array", request.array_id());
  if (request.data().size() != array->NumBytes()) {
    return absl::InvalidArgumentError(absl::StrCat("array ", request.array_id(), " holds ",
                                                   array->NumBytes(), " bytes; got ",
                                                   request.data().size()));
  }
  return array->CopyFromBytes(request.data().data(), request.data().size());
}

absl::Status CopyFrom(SessionHost::Session& s, const SessionLimits& limits,
                      const v1::CopyFromArrayRequest& request,
                      v1::CopyFromArrayResponse* response) {
  runtime::NDArray* array = Find(s.arrays, request.array_id());
  if (array == nullptr) return NotFound("array", request.array_id());
  if (static_cast<int64_t>(array->NumBytes()) > limits.max_reply_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "array ", request.array_id(), " holds ", array->NumBytes(),
        " bytes; a reply through the tracker carries at most ", limits.max_reply_bytes,
        " (its max_message_bytes): copy a smaller array, or raise the tracker's limit"));
  }
  std::string data(array->NumBytes(), '\0');
  absl::Status copied = array->CopyToBytes(data.data(), data.size());
  if (!copied.ok()) return copied;
  response->set_data(std::move(data));
  return absl::OkStatus();
}

absl::Status Call(SessionHost::Session& s, const v1::CallFunctionRequest& request,
                  v1::CallFunctionResponse* response) {
  absl::StatusOr<runtime::PackedFunction> f = Function(s, request.module_id(), request.function());
  if (!f.ok()) return f.status();
  absl::StatusOr<std::vector<runtime::PackedArg>> args = Arguments(s, request.args());
  if (!args.ok()) return args.status();
  const auto start = std::chrono::steady_clock::now();
  absl::Status called = f->Call(*args);
  response->set_seconds(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return called;
}

// A session times on this host in turn with every worker and build here
// (runtime/measure/host_timing_lock.h). It waits at most 20 s, then times anyway: the client's
// call has a deadline (a minute by default) that the wait must leave room in.
using HostTurn = std::optional<runtime::measure::HostTimingLock>;
HostTurn TakeTimingTurn() {
  absl::StatusOr<runtime::measure::HostTimingLock> turn = runtime::measure::HostTimingLock::Acquire(
      runtime::measure::HostTimingLock::Mode::kTiming, 20);
  if (!turn.ok()) return std::nullopt;
  return *std::move(turn);
}

absl::Status Time(SessionHost::Session& s, const v1::TimeFunctionRequest& request,
                  v1::TimeFunctionResponse* response) {
  absl::StatusOr<runtime::PackedFunction> f = Function(s, request.module_id(), request.function());
  if (!f.ok()) return f.status();
  absl::StatusOr<std::vector<runtime::PackedArg>> args = Arguments(s, request.args());
  if (!args.ok()) return args.status();
  // Checked as a lease's are: the same defaults, and no number out of range reaches the timer.
  absl::StatusOr<runtime::measure::MeasureOptions> o =
      proto_mapping::MeasureOptionsFromProto(request.options(), "options.");
  if (!o.ok()) return o.status();
  std::string error;
  if (!runtime::SetNumThreads(o->threads, &error)) return absl::InvalidArgumentError(error);
  runtime::TimeEvaluatorOptions timing = SessionTiming(*o);
  if (o->cache_flush == runtime::measure::CacheFlush::kWeights) {
    std::vector<const runtime::NDArray*> arrays;
    for (const v1::CallArgument& arg : request.args()) {
      if (arg.value_case() == v1::CallArgument::kArrayId) {
        arrays.push_back(Find(s.arrays, arg.array_id()));
      }
    }
    timing.layer = runtime::measure::LayerCacheStateOf(arrays);
  }
  const runtime::PackedFunction& fn = *f;
  const std::vector<runtime::PackedArg>& call_args = *args;
  const HostTurn turn = TakeTimingTurn();
  absl::StatusOr<std::vector<double>> seconds =
      runtime::TimeFunction([&] { return fn.Call(call_args); }, timing);
  if (!seconds.ok()) return seconds.status();
  for (double t : *seconds) response->add_repeat_seconds(t);
  response->set_median_seconds(runtime::Summarize(*seconds).median);
  return absl::OkStatus();
}

// Times the model module's whole graph on seeded random inputs (runtime/measure/random_fill.h).
absl::Status TimeModel(SessionHost::Session& s, const v1::TimeModelRequest& request,
                       v1::TimeModelResponse* response) {
  auto* graph = Find(s.graphs, request.module_id());
  if (graph == nullptr) {
    return Find(s.modules, request.module_id()) == nullptr
               ? NotFound("module", request.module_id())
               : absl::InvalidArgumentError(absl::StrCat(
                     "module '", request.module_id(),
                     "' is a kernel library, not a model module: time its functions instead"));
  }
  runtime::GraphExecutor& g = **graph;
  absl::StatusOr<runtime::measure::MeasureOptions> o =
      proto_mapping::MeasureOptionsFromProto(request.options(), "options.");
  if (!o.ok()) return o.status();
  std::string error;
  if (!runtime::SetNumThreads(o->threads, &error)) return absl::InvalidArgumentError(error);
  uint64_t seed = request.input_seed() == 0 ? 1 : request.input_seed();
  for (int i = 0; i < static_cast<int>(g.inputs().size()); ++i) {
    const runtime::GraphTensorInfo& in = g.inputs()[i];
    absl::StatusOr<runtime::NDArray> values = runtime::NDArray::Empty(in.shape, in.dtype);
    if (!values.ok()) return values.status();
    runtime::measure::FillSeededRandom(*values, seed++);
    if (!g.SetInput(i, values->dl()->data, in.bytes, &error)) {
      return absl::InvalidArgumentError(error);
    }
  }
  if (o->cache_flush == runtime::measure::CacheFlush::kWeights) {
    return absl::InvalidArgumentError(
        "options.cache_flush: weights names a kernel's arguments; a model is timed with all or "
        "none");
  }
  runtime::TimeEvaluatorOptions timing = SessionTiming(*o);
  const HostTurn turn = TakeTimingTurn();
  absl::StatusOr<std::vector<double>> seconds = runtime::TimeFunction(
      [&]() -> absl::Status {
        std::string run_error;
        if (!g.Run(&run_error)) return absl::InternalError(run_error);
        return absl::OkStatus();
      },
      timing);
  if (!seconds.ok()) return seconds.status();
  for (double t : *seconds) response->add_repeat_seconds(t);
  response->set_median_seconds(runtime::Summarize(*seconds).median);
  response->set_arena_bytes(static_cast<int64_t>(g.memory_stats().arena_bytes));
  return absl::OkStatus();
}

}  // namespace

SessionHost::SessionHost(std::string dir, SessionLimits limits)
    : dir_(std::move(dir)), limits_(limits) {}
SessionHost::~SessionHost() = default;

SessionHost::Session& SessionHost::SessionFor(const std::string& session_id) {
  std::unique_ptr<Session>& s = sessions_[session_id];
  if (s == nullptr) s = std::make_unique<Session>();
  return *s;
}

void SessionHost::Handle(const v1::SessionCall& call, v1::SessionReply* reply) {
  std::lock_guard<std::mutex> lock(mu_);
  reply->set_call_id(call.call_id());
  absl::Status status;
  // The tracker opened the session; its first call here creates our side of it.
  Session& s = SessionFor(call.session_id());
  switch (call.call_case()) {
    case v1::SessionCall::kUpload:
      status = Upload(dir_, next_id_++, s, limits_, call.upload(), reply->mutable_upload());
      break;
    case v1::SessionCall::kAlloc:
      status = Alloc(next_id_++, s, limits_, call.alloc(), reply->mutable_alloc());
      break;
    case v1::SessionCall::kCopyTo:
      status = CopyTo(s, call.copy_to());
      if (status.ok()) reply->mutable_copy_to();
      break;
    case v1::SessionCall::kCopyFrom:
      status = CopyFrom(s, limits_, call.copy_from(), reply->mutable_copy_from());
      break;
    case v1::SessionCall::kCallFunction:
      status = Call(s, call.call_function(), reply->mutable_call_function());
      break;
    case v1::SessionCall::kTimeFunction:
      status = Time(s, call.time_function(), reply->mutable_time_function());
      break;
    case v1::SessionCall::kTimeModel:
      status = TimeModel(s, call.time_model(), reply->mutable_time_model());
      break;
    case v1::SessionCall::kClose:
      sessions_.erase(call.session_id());  // frees its arrays and unloads its modules
      reply->mutable_close();
      break;
    case v1::SessionCall::CALL_NOT_SET:
      status = absl::InvalidArgumentError("the session call names no operation");
      break;
  }
  if (!status.ok()) {
    reply->clear_result();
    reply->set_status_code(static_cast<int>(status.code()));  // absl and gRPC share the codes
    reply->set_status_message(std::string(status.message()));
  }
}

void SessionHost::CloseAll() {
  std::lock_guard<std::mutex> lock(mu_);
  sessions_.clear();
}

size_t SessionHost::open_sessions() const {
  std::lock_guard<std::mutex> lock(mu_);
  return sessions_.size();
}

}  // namespace tunefarm::rpc_server
