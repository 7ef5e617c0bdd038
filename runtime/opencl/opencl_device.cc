#include "runtime/opencl/opencl_device.h"

#include <algorithm>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "dlpack/dlpack.h"

namespace tunefarm::runtime::opencl {
namespace {

template <typename T>
T DeviceValue(const OpenClDriver& d, cl_device_id device, cl_device_info what) {
  T value{};
  if (d.GetDeviceInfo(device, what, sizeof(T), &value, nullptr) != CL_SUCCESS) return T{};
  return value;
}

std::string DeviceString(const OpenClDriver& d, cl_device_id device, cl_device_info what) {
  size_t size = 0;
  if (d.GetDeviceInfo(device, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
  std::string s(size, '\0');
  if (d.GetDeviceInfo(device, what, size, s.data(), nullptr) != CL_SUCCESS) return "";
  s.resize(std::min(s.size(), s.find('\0')));
  return s;
}

std::string PlatformString(const OpenClDriver& d, cl_platform_id platform, cl_platform_info what) {
  size_t size = 0;
  if (d.GetPlatformInfo(platform, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
  std::string s(size, '\0');
  if (d.GetPlatformInfo(platform, what, size, s.data(), nullptr) != CL_SUCCESS) return "";
  s.resize(std::min(s.size(), s.find('\0')));
  return s;
}

gpu::DeviceAttributes AttributesOf(const OpenClDriver& d, cl_device_id device) {
  gpu::DeviceAttributes a;
  a.name = DeviceString(d, device, CL_DEVICE_NAME);
  a.vendor = DeviceString(d, device, CL_DEVICE_VENDOR);
  a.driver_version = DeviceString(d, device, CL_DRIVER_VERSION);
  a.arch = DeviceString(d, device, CL_DEVICE_OPENCL_C_VERSION);
  a.extensions = DeviceString(d, device, CL_DEVICE_EXTENSIONS);
  a.compute_units = static_cast<int>(DeviceValue<cl_uint>(d, device, CL_DEVICE_MAX_COMPUTE_UNITS));
  a.max_threads_per_block =
      static_cast<int64_t>(DeviceValue<size_t>(d, device, CL_DEVICE_MAX_WORK_GROUP_SIZE));
  size_t sizes[3] = {0, 0, 0};
  if (DeviceValue<cl_uint>(d, device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS) >= 3 &&
      d.GetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(sizes), sizes, nullptr) ==
          CL_SUCCESS) {
    for (int i = 0; i < 3; ++i) a.max_block_dims[i] = static_cast<int64_t>(sizes[i]);
  }
  a.max_shared_bytes =
      static_cast<int64_t>(DeviceValue<cl_ulong>(d, device, CL_DEVICE_LOCAL_MEM_SIZE));
  a.global_memory_bytes =
      static_cast<int64_t>(DeviceValue<cl_ulong>(d, device, CL_DEVICE_GLOBAL_MEM_SIZE));
  a.view_alignment_bytes =
      std::max<int64_t>(1, DeviceValue<cl_uint>(d, device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8);
  a.fp16 = a.HasExtension("cl_khr_fp16");
  return a;
}

struct PlatformDevices {
  cl_platform_id platform = nullptr;
  std::vector<cl_device_id> devices;
};

absl::StatusOr<std::vector<PlatformDevices>> Enumerate(const OpenClDriver& d) {
  cl_uint count = 0;
  if (absl::Status s =
          OpenClDriver::Check(d.GetPlatformIDs(0, nullptr, &count), "clGetPlatformIDs");
      !s.ok()) {
    return s;
  }
  std::vector<cl_platform_id> platforms(count);
  if (absl::Status s = OpenClDriver::Check(d.GetPlatformIDs(count, platforms.data(), nullptr),
                                           "clGetPlatformIDs");
      !s.ok()) {
    return s;
  }
  std::vector<PlatformDevices> out;
  for (cl_platform_id p : platforms) {
    PlatformDevices& pd = out.emplace_back();
    pd.platform = p;
    cl_uint n = 0;
    // A platform without devices answers CL_DEVICE_NOT_FOUND: it simply has none.
    if (d.GetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &n) != CL_SUCCESS || n == 0) continue;
    pd.devices.resize(n);
    if (d.GetDeviceIDs(p, CL_DEVICE_TYPE_ALL, n, pd.devices.data(), nullptr) != CL_SUCCESS) {
      pd.devices.clear();
    }
  }
  return out;
}

// The source lines a build log names ("<source>:12:5: error: ..."), numbered, so the error shows
// what the device's compiler refused.
std::string QuoteNamedLines(const std::string& log, const std::string& source) {
  std::vector<absl::string_view> lines = absl::StrSplit(source, '\n');
  std::string out;
  size_t quoted = 0;
  for (absl::string_view entry : absl::StrSplit(log, '\n')) {
    if (quoted >= 5 || entry.find("error") == absl::string_view::npos) continue;
    std::vector<absl::string_view> parts = absl::StrSplit(entry, ':');
    for (size_t i = 0; i + 1 < parts.size(); ++i) {
      int line = 0;
      if (absl::SimpleAtoi(parts[i + 1], &line) && line >= 1 &&
          static_cast<size_t>(line) <= lines.size() &&
          (parts[i].find("source") != absl::string_view::npos ||
           parts[i].find("input") != absl::string_view::npos)) {
        absl::StrAppend(&out, "\n  ", line, " | ", lines[line - 1]);
        ++quoted;
        break;
      }
    }
  }
  return out;
}

class OpenClCode final : public gpu::LoadedCode {
 public:
  OpenClCode(const OpenClDriver* driver, cl_program program) : driver_(driver), program_(program) {}
  ~OpenClCode() override {
    for (auto& [name, kernel] : kernels_) (void)driver_->ReleaseKernel(kernel);
  }
  OpenClCode(const OpenClCode&) = delete;
  OpenClCode& operator=(const OpenClCode&) = delete;

  absl::StatusOr<void*> Kernel(std::string_view name) const override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = kernels_.find(std::string(name));
    if (it != kernels_.end()) return static_cast<void*>(it->second);
    cl_int error = CL_SUCCESS;
    cl_kernel kernel = driver_->CreateKernel(program_, std::string(name).c_str(), &error);
    if (kernel == nullptr || error != CL_SUCCESS) {
      return absl::NotFoundError(absl::StrCat("the OpenCL program does not define kernel '",
                                              std::string(name), "' (",
                                              OpenClDriver::ErrorName(error), ")"));
    }
    kernels_[std::string(name)] = kernel;
    return static_cast<void*>(kernel);
  }

 private:
  const OpenClDriver* driver_;
  cl_program program_;  // owned by the device's cache
  mutable std::mutex mu_;
  mutable std::map<std::string, cl_kernel> kernels_;
};

}  // namespace

absl::StatusOr<std::vector<OpenClDeviceInfo>> ListOpenClDevices() {
  absl::StatusOr<const OpenClDriver*> driver = OpenClDriver::Get();
  if (!driver.ok()) return driver.status();
  absl::StatusOr<std::vector<PlatformDevices>> all = Enumerate(**driver);
  if (!all.ok()) return all.status();
  std::vector<OpenClDeviceInfo> out;
  for (size_t p = 0; p < all->size(); ++p) {
    for (size_t i = 0; i < (*all)[p].devices.size(); ++i) {
      OpenClDeviceInfo& info = out.emplace_back();
      info.platform = static_cast<int>(p);
      info.device = static_cast<int>(i);
      info.platform_name = PlatformString(**driver, (*all)[p].platform, CL_PLATFORM_NAME);
      info.attributes = AttributesOf(**driver, (*all)[p].devices[i]);
    }
  }
  return out;
}

int OpenClDevice::dl_device_type() const { return kDLOpenCL; }

absl::StatusOr<std::shared_ptr<OpenClDevice>> OpenClDevice::Open(
    int platform, int device, const std::string& binary_cache_dir) {
  absl::StatusOr<const OpenClDriver*> driver = OpenClDriver::Get();
  if (!driver.ok()) return driver.status();
  const OpenClDriver& d = **driver;
  absl::StatusOr<std::vector<PlatformDevices>> all = Enumerate(d);
  if (!all.ok()) return all.status();
  if (platform < 0 || platform >= static_cast<int>(all->size())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "OpenCL platform ", platform, " does not exist (", all->size(), " platform(s))"));
  }
  const PlatformDevices& pd = (*all)[platform];
  if (device < 0 || device >= static_cast<int>(pd.devices.size())) {
    return absl::InvalidArgumentError(absl::StrCat("OpenCL device ", device, " of platform ",
                                                   platform, " does not exist (", pd.devices.size(),
                                                   " device(s))"));
  }
  std::shared_ptr<OpenClDevice> out(new OpenClDevice());
  out->driver_ = &d;
  out->platform_index_ = platform;
  out->device_index_ = device;
  for (int p = 0; p < platform; ++p) out->ordinal_ += static_cast<int>((*all)[p].devices.size());
  out->ordinal_ += device;
  out->device_ = pd.devices[device];
  out->attributes_ = AttributesOf(d, out->device_);
  out->binary_cache_ = std::make_unique<ProgramBinaryCache>(
      binary_cache_dir, absl::StrCat(out->attributes_.name, "|", out->attributes_.vendor, "|",
                                     out->attributes_.driver_version));
  cl_int error = CL_SUCCESS;
  out->context_ = d.CreateContext(nullptr, 1, &out->device_, nullptr, nullptr, &error);
  if (absl::Status s = OpenClDriver::Check(error, "clCreateContext"); !s.ok()) return s;
  out->queue_ =
      d.CreateCommandQueue(out->context_, out->device_, CL_QUEUE_PROFILING_ENABLE, &error);
  if (absl::Status s = OpenClDriver::Check(error, "clCreateCommandQueue"); !s.ok()) return s;
  return out;
}

OpenClDevice::~OpenClDevice() {
  if (queue_ != nullptr) {
    (void)driver_->Finish(queue_);
    (void)driver_->ReleaseCommandQueue(queue_);
  }
  for (auto& [source, program] : programs_) (void)driver_->ReleaseProgram(program);
  if (context_ != nullptr) (void)driver_->ReleaseContext(context_);
}

absl::StatusOr<uint64_t> OpenClDevice::AllocateHandle(size_t num_bytes) const {
  cl_int error = CL_SUCCESS;
  cl_mem mem = driver_->CreateBuffer(context_, CL_MEM_READ_WRITE, num_bytes, nullptr, &error);
  if (absl::Status s =
          OpenClDriver::Check(error, absl::StrCat("clCreateBuffer(", num_bytes, " bytes)"));
      !s.ok()) {
    return s;
  }
  return reinterpret_cast<uint64_t>(mem);
}

void OpenClDevice::FreeHandle(uint64_t handle) const {
  (void)driver_->ReleaseMemObject(reinterpret_cast<cl_mem>(handle));
}

absl::Status OpenClDevice::CopyIn(uint64_t handle, size_t offset, const void* host,
                                  size_t num_bytes) const {
  std::lock_guard<std::mutex> lock(mu_);
  return OpenClDriver::Check(
      driver_->EnqueueWriteBuffer(queue_, reinterpret_cast<cl_mem>(handle), CL_TRUE, offset,
                                  num_bytes, host, 0, nullptr, nullptr),
      "clEnqueueWriteBuffer");
}

absl::Status OpenClDevice::CopyOut(void* host, uint64_t handle, size_t offset,
                                   size_t num_bytes) const {
  std::lock_guard<std::mutex> lock(mu_);
  return OpenClDriver::Check(
      driver_->EnqueueReadBuffer(queue_, reinterpret_cast<cl_mem>(handle), CL_TRUE, offset,
                                 num_bytes, host, 0, nullptr, nullptr),
      "clEnqueueReadBuffer");
}

int64_t OpenClDevice::programs_from_binary_cache() const {
  std::lock_guard<std::mutex> lock(mu_);
  return programs_from_binary_cache_;
}

absl::StatusOr<cl_program> OpenClDevice::BuildProgram(const std::string& source) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (auto it = programs_.find(source); it != programs_.end()) return it->second;
  cl_int error = CL_SUCCESS;
  if (std::optional<std::string> binary = binary_cache_->Find(source)) {
    const size_t size = binary->size();
    const auto* bytes = reinterpret_cast<const unsigned char*>(binary->data());
    cl_int binary_status = CL_SUCCESS;
    cl_program program = driver_->CreateProgramWithBinary(context_, 1, &device_, &size, &bytes,
                                                          &binary_status, &error);
    if (program != nullptr && error == CL_SUCCESS && binary_status == CL_SUCCESS &&
        driver_->BuildProgram(program, 1, &device_, "", nullptr, nullptr) == CL_SUCCESS) {
      programs_[source] = program;
      ++programs_from_binary_cache_;
      return program;
    }
    // A binary the driver no longer takes: compile the source, and replace it below.
    if (program != nullptr) (void)driver_->ReleaseProgram(program);
  }
  const char* text = source.c_str();
  const size_t length = source.size();
  cl_program program = driver_->CreateProgramWithSource(context_, 1, &text, &length, &error);
  if (absl::Status s = OpenClDriver::Check(error, "clCreateProgramWithSource"); !s.ok()) return s;
  error = driver_->BuildProgram(program, 1, &device_, "", nullptr, nullptr);
  if (error != CL_SUCCESS) {
    size_t size = 0;
    std::string log;
    if (driver_->GetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) ==
            CL_SUCCESS &&
        size > 0) {
      log.resize(size);
      (void)driver_->GetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, size, log.data(),
                                         nullptr);
      log.resize(std::min(log.size(), log.find('\0')));
    }
    (void)driver_->ReleaseProgram(program);
    if (log.size() > 4000) log = log.substr(0, 4000) + "...";
    return absl::InvalidArgumentError(
        absl::StrCat("the OpenCL compiler of ", attributes_.name, " refused the program (",
                     OpenClDriver::ErrorName(error), "): ", log, QuoteNamedLines(log, source)));
  }
  programs_[source] = program;
  size_t binary_size = 0;
  if (binary_cache_->enabled() &&
      driver_->GetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(binary_size), &binary_size,
                              nullptr) == CL_SUCCESS &&
      binary_size > 0) {
    std::string binary(binary_size, '\0');
    auto* data = reinterpret_cast<unsigned char*>(binary.data());
    if (driver_->GetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(data), &data, nullptr) ==
        CL_SUCCESS) {
      binary_cache_->Store(source, binary);
    }
  }
  return program;
}

absl::StatusOr<std::shared_ptr<gpu::LoadedCode>> OpenClDevice::Load(
    const gpu::GpuModuleImage& image) const {
  if (image.api != gpu::GpuApi::kOpenCl) {
    return absl::FailedPreconditionError(absl::StrCat("a ", gpu::GpuApiTitle(image.api),
                                                      " module cannot be loaded on OpenCL device ",
                                                      attributes_.name));
  }
  absl::StatusOr<cl_program> program = BuildProgram(image.code);
  if (!program.ok()) return program.status();
  return std::make_shared<OpenClCode>(driver_, *program);
}

absl::Status OpenClDevice::Launch(void* kernel, const gpu::LaunchDims& dims,
                                  absl::Span<const gpu::KernelArg> args) const {
  if (absl::Status s = CheckLaunchLimits(dims); !s.ok()) return s;
  if (dims.dynamic_shared_bytes != 0) {
    return absl::InvalidArgumentError("OpenCL kernels take no dynamic shared memory");
  }
  auto* k = static_cast<cl_kernel>(kernel);
  std::lock_guard<std::mutex> lock(mu_);
  // Views at an offset into a buffer (a graph executor's arena) are sub-buffers, released once the
  // launch is queued (the queue keeps what it needs).
  std::vector<cl_mem> views;
  auto release_views = [&] {
    for (cl_mem v : views) (void)driver_->ReleaseMemObject(v);
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const gpu::KernelArg& arg = args[i];
    cl_int r = CL_SUCCESS;
    if (arg.kind == gpu::KernelArg::Kind::kBuffer) {
      cl_mem mem = reinterpret_cast<cl_mem>(arg.handle);
      if (arg.offset != 0) {
        if (static_cast<int64_t>(arg.offset) % attributes_.view_alignment_bytes != 0) {
          release_views();
          return absl::InvalidArgumentError(
              absl::StrCat("argument ", i, " starts ", arg.offset,
                           " bytes into its buffer; the device aligns views to ",
                           attributes_.view_alignment_bytes, " bytes"));
        }
        cl_buffer_region region{arg.offset, std::max<size_t>(arg.size, 1)};
        cl_int error = CL_SUCCESS;
        mem = driver_->CreateSubBuffer(mem, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
                                       &region, &error);
        if (error != CL_SUCCESS) {
          release_views();
          return OpenClDriver::Check(error, absl::StrCat("clCreateSubBuffer for argument ", i));
        }
        views.push_back(mem);
      }
      r = driver_->SetKernelArg(k, static_cast<cl_uint>(i), sizeof(cl_mem), &mem);
    } else if (arg.kind == gpu::KernelArg::Kind::kInt32) {
      auto v = static_cast<cl_int>(arg.value);
      r = driver_->SetKernelArg(k, static_cast<cl_uint>(i), sizeof(v), &v);
    } else {
      auto v = static_cast<cl_long>(arg.value);
      r = driver_->SetKernelArg(k, static_cast<cl_uint>(i), sizeof(v), &v);
    }
    if (r != CL_SUCCESS) {
      release_views();
      return OpenClDriver::Check(r, absl::StrCat("clSetKernelArg ", i));
    }
  }
  size_t global[3];
  size_t local[3];
  for (int d = 0; d < 3; ++d) {
    local[d] = dims.block[d];
    global[d] = static_cast<size_t>(dims.grid[d]) * dims.block[d];
  }
  cl_event event = nullptr;
  cl_int r = driver_->EnqueueNDRangeKernel(queue_, k, 3, nullptr, global, local, 0, nullptr,
                                           capturing_ ? &event : nullptr);
  release_views();
  if (r != CL_SUCCESS) {
    if (r == CL_INVALID_WORK_GROUP_SIZE || r == CL_OUT_OF_RESOURCES) {
      size_t kernel_limit = 0;
      (void)driver_->GetKernelWorkGroupInfo(k, device_, CL_KERNEL_WORK_GROUP_SIZE,
                                            sizeof(kernel_limit), &kernel_limit, nullptr);
      return absl::InvalidArgumentError(
          absl::StrCat("clEnqueueNDRangeKernel: ", OpenClDriver::ErrorName(r), " (a work-group of ",
                       local[0] * local[1] * local[2], " work-items; this kernel allows at most ",
                       kernel_limit, " on ", attributes_.name, ")"));
    }
    return OpenClDriver::Check(r, "clEnqueueNDRangeKernel");
  }
  if (event != nullptr) {
    if (first_event_ == nullptr) {
      first_event_ = event;
    } else {
      if (last_event_ != nullptr) (void)driver_->ReleaseEvent(last_event_);
      last_event_ = event;
    }
  }
  return absl::OkStatus();
}

absl::Status OpenClDevice::Synchronize() const {
  std::lock_guard<std::mutex> lock(mu_);
  return OpenClDriver::Check(driver_->Finish(queue_), "clFinish");
}

absl::StatusOr<double> OpenClDevice::TimeQueued(
    const std::function<absl::Status()>& enqueue) const {
  std::lock_guard<std::mutex> timing(timing_mu_);
  {
    std::lock_guard<std::mutex> lock(mu_);
    capturing_ = true;
  }
  absl::Status status = enqueue();
  cl_event first = nullptr;
  cl_event last = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu_);
    capturing_ = false;
    first = std::exchange(first_event_, nullptr);
    last = std::exchange(last_event_, nullptr);
  }
  if (last == nullptr) last = first;
  auto release = [&] {
    if (first != nullptr) (void)driver_->ReleaseEvent(first);
    if (last != nullptr && last != first) (void)driver_->ReleaseEvent(last);
  };
  if (!status.ok()) {
    (void)Synchronize();
    release();
    return status;
  }
  if (first == nullptr) return 0.0;  // nothing was launched
  cl_ulong start = 0;
  cl_ulong end = 0;
  absl::Status s = OpenClDriver::Check(driver_->WaitForEvents(1, &last), "clWaitForEvents");
  if (s.ok()) {
    s = OpenClDriver::Check(driver_->GetEventProfilingInfo(first, CL_PROFILING_COMMAND_START,
                                                           sizeof(start), &start, nullptr),
                            "clGetEventProfilingInfo(START)");
  }
  if (s.ok()) {
    s = OpenClDriver::Check(
        driver_->GetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof(end), &end, nullptr),
        "clGetEventProfilingInfo(END)");
  }
  release();
  if (!s.ok()) return s;
  return end > start ? static_cast<double>(end - start) * 1e-9 : 0.0;
}

}  // namespace tunefarm::runtime::opencl
