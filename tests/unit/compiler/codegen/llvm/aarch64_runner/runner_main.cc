// tf_kernel_runner: runs one kernel of an exported tunefarm library with nothing but
// runtime/core (cross-compiled for AArch64 by cmake/aarch64_runner.cmake, run under qemu by the
// code generator's tests). Inputs come from files or a deterministic pattern; every tensor
// argument is written, in order, to the output file afterwards.
//
//   tf_kernel_runner LIB KERNEL --output FILE [--bind NAME=VALUE]... [--input INDEX=FILE]...
//                    [--threads N]
//
// --bind gives symbolic extents and scalar arguments by name; --input fills tensor argument
// INDEX (0-based) from a raw little-endian file of exactly its size. Exit status 0 on success,
// 1 with one line on stderr otherwise.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/core/argument_check.h"
#include "runtime/core/library_loader.h"
#include "runtime/core/thread_pool.h"

namespace {

using tunefarm::runtime::ArgKind;
using tunefarm::runtime::ArgSpec;
using tunefarm::runtime::LoadedKernel;

struct Options {
  std::string library, kernel, output;
  std::map<std::string, std::string> binds;
  std::map<int, std::string> inputs;
  int threads = 0;
};

int Fail(const std::string& message) {
  std::fprintf(stderr, "tf_kernel_runner: %s\n", message.c_str());
  return 1;
}

bool SplitPair(const std::string& item, std::string* key, std::string* value) {
  size_t eq = item.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  *key = item.substr(0, eq);
  *value = item.substr(eq + 1);
  return true;
}

bool ParseOptions(int argc, char** argv, Options* o, std::string* error) {
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    std::string key, value;
    if (a == "--output") {
      o->output = next();
    } else if (a == "--threads") {
      o->threads = std::atoi(next().c_str());
    } else if (a == "--bind" && SplitPair(next(), &key, &value)) {
      o->binds[key] = value;
    } else if (a == "--input" && SplitPair(next(), &key, &value)) {
      o->inputs[std::atoi(key.c_str())] = value;
    } else if (a.rfind("--", 0) == 0) {
      *error = "bad option " + a;
      return false;
    } else {
      positional.push_back(a);
    }
  }
  if (positional.size() != 2 || o->output.empty()) {
    *error = "usage: tf_kernel_runner LIB KERNEL --output FILE [--bind N=V]... [--input I=FILE]...";
    return false;
  }
  o->library = positional[0];
  o->kernel = positional[1];
  return true;
}

// A 64-byte aligned tensor and the DLTensor describing it.
struct Tensor {
  std::vector<int64_t> shape;
  std::unique_ptr<uint8_t, decltype(&std::free)> data{nullptr, &std::free};
  size_t bytes = 0;
  DLTensor dl{};
};

bool ReadFile(const std::string& path, uint8_t* out, size_t bytes, std::string* error) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    *error = "cannot open " + path;
    return false;
  }
  size_t got = std::fread(out, 1, bytes, f);
  bool at_end = std::fgetc(f) == EOF;
  std::fclose(f);
  if (got != bytes || !at_end)
    *error = path + " does not hold exactly " + std::to_string(bytes) + " bytes";
  return got == bytes && at_end;
}

// Element k of argument `arg` when no file is given: small values that every type represents.
void FillPattern(const ArgSpec& spec, int arg, Tensor& t) {
  const size_t elem = (spec.dtype.bits + 7) / 8 * spec.dtype.lanes;
  const size_t count = elem == 0 ? 0 : t.bytes / elem;
  for (size_t k = 0; k < count; ++k) {
    const int64_t v = static_cast<int64_t>((k * 7 + static_cast<size_t>(arg) * 13) % 17) - 8;
    uint8_t* p = t.data.get() + k * elem;
    if (spec.dtype.code == kDLFloat && spec.dtype.bits == 32) {
      float f = static_cast<float>(v) / 4;
      std::memcpy(p, &f, 4);
    } else if (spec.dtype.code == kDLFloat && spec.dtype.bits == 64) {
      double d = static_cast<double>(v) / 4;
      std::memcpy(p, &d, 8);
    } else {
      std::memcpy(p, &v, elem);  // little-endian: the low bytes
    }
  }
}

bool MakeTensor(const ArgSpec& spec, const Options& o, int arg, Tensor* t, std::string* error) {
  size_t count = 1;
  for (const auto& d : spec.shape) {
    int64_t extent = d.value;
    if (d.is_symbol()) {
      auto it = o.binds.find(d.symbol);
      if (it == o.binds.end()) {
        *error = "no --bind for " + d.symbol + " (argument " + spec.name + ")";
        return false;
      }
      extent = std::atoll(it->second.c_str());
    }
    t->shape.push_back(extent);
    count *= static_cast<size_t>(extent);
  }
  t->bytes = count * ((spec.dtype.bits + 7) / 8) * spec.dtype.lanes;
  t->data.reset(static_cast<uint8_t*>(std::aligned_alloc(64, (t->bytes + 64) / 64 * 64)));
  std::memset(t->data.get(), 0, t->bytes);
  auto input = o.inputs.find(arg);
  if (input != o.inputs.end()) {
    if (!ReadFile(input->second, t->data.get(), t->bytes, error)) return false;
  } else {
    FillPattern(spec, arg, *t);
  }
  t->dl.data = t->data.get();
  t->dl.device = DLDevice{kDLCPU, 0};
  t->dl.ndim = static_cast<int32_t>(t->shape.size());
  t->dl.dtype = spec.dtype;
  t->dl.shape = t->shape.data();
  return true;
}

int Run(const Options& o) {
  if (o.threads > 0) {
    std::string error;
    if (!tunefarm::runtime::SetNumThreads(o.threads, &error)) return Fail(error);
  }
  std::string error;
  auto library = tunefarm::runtime::LoadedLibrary::Open(o.library, &error);
  if (library == nullptr) return Fail(error);
  const LoadedKernel* kernel = library->Find(o.kernel);
  if (kernel == nullptr) return Fail("no kernel " + o.kernel + " in " + o.library);
  const auto& args = kernel->signature.args;
  std::vector<Tensor> tensors(args.size());
  std::vector<TFValue> values(args.size());
  std::vector<int32_t> codes(args.size());
  for (size_t k = 0; k < args.size(); ++k) {
    const ArgSpec& spec = args[k];
    if (spec.kind == ArgKind::kTensor) {
      if (!MakeTensor(spec, o, static_cast<int>(k), &tensors[k], &error)) return Fail(error);
      values[k].v_handle = &tensors[k].dl;
      codes[k] = kTFArgTensor;
      continue;
    }
    auto it = o.binds.find(spec.name);
    if (it == o.binds.end() || spec.kind == ArgKind::kHandle) {
      return Fail("no --bind for scalar argument " + spec.name);
    }
    if (spec.kind == ArgKind::kFloat) {
      values[k].v_float64 = std::atof(it->second.c_str());
      codes[k] = kTFArgFloat;
    } else {
      values[k].v_int64 = std::atoll(it->second.c_str());
      codes[k] = kTFArgInt;
    }
  }
  const int32_t n = static_cast<int32_t>(args.size());
  error = tunefarm::runtime::CheckArguments(kernel->signature, values.data(), codes.data(), n);
  if (!error.empty()) return Fail(error);
  if (int32_t rc = kernel->entry(values.data(), codes.data(), n); rc != 0) {
    return Fail(o.kernel + " returned " + std::to_string(rc));
  }
  FILE* out = std::fopen(o.output.c_str(), "wb");
  if (out == nullptr) return Fail("cannot write " + o.output);
  for (const Tensor& t : tensors) {
    if (t.bytes > 0 && std::fwrite(t.data.get(), 1, t.bytes, out) != t.bytes) {
      std::fclose(out);
      return Fail("cannot write " + o.output);
    }
  }
  return std::fclose(out) == 0 ? 0 : Fail("cannot write " + o.output);
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  std::string error;
  if (!ParseOptions(argc, argv, &options, &error)) return Fail(error);
  return Run(options);
}
