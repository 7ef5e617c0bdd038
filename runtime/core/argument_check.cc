#include "runtime/core/argument_check.h"

#include <cinttypes>
#include <cstdio>
#include <vector>

#include "runtime/core/dtype_name.h"

namespace tunefarm::runtime {
namespace {

// Where a symbol got its extent: from dimension `dim` of tensor argument `arg`, or (dim -1) from
// the int argument `arg` itself.
struct Binding {
  const std::string* symbol;
  int64_t value;
  int32_t arg;
  int32_t dim;
};

const char* KindNoun(ArgKind kind) {
  switch (kind) {
    case ArgKind::kTensor:
      return "a tensor";
    case ArgKind::kInt:
      return "an int";
    case ArgKind::kFloat:
      return "a float";
    case ArgKind::kHandle:
      return "a handle";
  }
  return "?";
}

std::string TypeCodeNoun(int32_t code) {
  switch (code) {
    case kTFArgInt:
      return "an int";
    case kTFArgUInt:
      return "a uint";
    case kTFArgFloat:
      return "a float";
    case kTFArgHandle:
      return "a handle";
    case kTFArgTensor:
      return "a tensor";
    default:
      return "unknown type code " + std::to_string(code);
  }
}

bool CodeFitsKind(ArgKind kind, int32_t code) {
  switch (kind) {
    case ArgKind::kTensor:
      return code == kTFArgTensor;
    case ArgKind::kInt:
      return code == kTFArgInt || code == kTFArgUInt;
    case ArgKind::kFloat:
      return code == kTFArgFloat;
    case ArgKind::kHandle:
      return code == kTFArgHandle;
  }
  return false;
}

std::string DeviceName(DLDevice device) {
  std::string name;
  switch (device.device_type) {
    case kDLCUDA:
      name = "cuda";
      break;
    case kDLCUDAHost:
      name = "cuda_host";
      break;
    case kDLOpenCL:
      name = "opencl";
      break;
    case kDLVulkan:
      name = "vulkan";
      break;
    case kDLMetal:
      name = "metal";
      break;
    case kDLROCM:
      name = "rocm";
      break;
    default:
      return "device type " + std::to_string(device.device_type) + " (id " +
             std::to_string(device.device_id) + ")";
  }
  return name + ":" + std::to_string(device.device_id);
}

std::string JoinInts(const int64_t* values, int n) {
  std::string out = "[";
  for (int i = 0; i < n; ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(values[i]);
  }
  return out + "]";
}

// A tensor without elements is never read, whatever its strides say.
bool IsEmpty(const DLTensor* t) {
  for (int d = 0; d < t->ndim; ++d) {
    if (t->shape[d] == 0) return true;
  }
  return false;
}

// Whether an int of dtype `t` can hold `v` (an unsigned 64-bit value arrives reinterpreted).
bool FitsIntType(int64_t v, DLDataType t) {
  if (t.bits >= 64) return true;
  if (t.code == kDLUInt) return v >= 0 && (v >> t.bits) == 0;
  int64_t limit = int64_t{1} << (t.bits - 1);
  return v >= -limit && v < limit;
}

class Checker {
 public:
  explicit Checker(const FunctionSignature& signature) : signature_(signature) {}

  std::string Run(const TFValue* args, const int32_t* type_codes, int32_t num_args) {
    if (num_args < 0 || static_cast<size_t>(num_args) != signature_.args.size()) {
      std::string names;
      for (const ArgSpec& spec : signature_.args) names += (names.empty() ? "" : ", ") + spec.name;
      return "expected " + std::to_string(signature_.args.size()) + " arguments (" + names +
             "), got " + std::to_string(num_args);
    }
    for (int32_t i = 0; i < num_args; ++i) {
      const ArgSpec& spec = signature_.args[i];
      if (!CodeFitsKind(spec.kind, type_codes[i])) {
        return Label(i) + ": expected " + KindNoun(spec.kind) + ", got " +
               TypeCodeNoun(type_codes[i]);
      }
      std::string error;
      if (spec.kind == ArgKind::kTensor) {
        error = CheckTensor(i, static_cast<const DLTensor*>(args[i].v_handle));
      } else if (spec.kind == ArgKind::kInt) {
        error = CheckInt(i, args[i].v_int64);
      }
      if (!error.empty()) return error;
    }
    return "";
  }

 private:
  std::string Label(int32_t i) const {
    return "argument " + std::to_string(i) + " (" + signature_.args[i].name + ")";
  }

  const Binding* Find(const std::string& symbol) const {
    for (const Binding& b : bindings_) {
      if (*b.symbol == symbol) return &b;
    }
    return nullptr;
  }

  bool IsShapeSymbol(const std::string& name) const {
    for (const ArgSpec& spec : signature_.args) {
      for (const DimSpec& dim : spec.shape) {
        if (dim.is_symbol() && dim.symbol == name) return true;
      }
    }
    return false;
  }

  std::string Origin(const Binding& b, int32_t current) const {
    std::string out = "(" + *b.symbol + " bound to " + std::to_string(b.value) + " by ";
    if (b.arg == current) return out + "dimension " + std::to_string(b.dim) + " of this argument)";
    return out + Label(b.arg) + ")";
  }

  // The expected shape, with the extents bound so far: "[64, n=67]".
  std::string ExpectedShape(const ArgSpec& spec) const {
    std::string out = "[";
    for (size_t d = 0; d < spec.shape.size(); ++d) {
      if (d > 0) out += ", ";
      const DimSpec& dim = spec.shape[d];
      if (!dim.is_symbol()) {
        out += std::to_string(dim.value);
        continue;
      }
      out += dim.symbol;
      if (const Binding* b = Find(dim.symbol)) out += "=" + std::to_string(b->value);
    }
    return out + "]";
  }

  std::string CheckTensor(int32_t i, const DLTensor* t) {
    const ArgSpec& spec = signature_.args[i];
    const int ndim = static_cast<int>(spec.shape.size());
    if (t == nullptr) return Label(i) + ": null tensor";
    if (t->ndim != ndim) {
      std::string got = std::to_string(t->ndim) + "-d tensor";
      if (t->shape != nullptr && t->ndim > 0) got += " " + JoinInts(t->shape, t->ndim);
      return Label(i) + ": expected a " + std::to_string(ndim) + "-d tensor " +
             ExpectedShape(spec) + ", got a " + got;
    }
    if (ndim > 0 && t->shape == nullptr) return Label(i) + ": shape pointer is null";
    if (t->dtype.code != spec.dtype.code || t->dtype.bits != spec.dtype.bits ||
        t->dtype.lanes != spec.dtype.lanes) {
      return Label(i) + ": dtype " + DTypeName(t->dtype) + " does not match " +
             DTypeName(spec.dtype);
    }
    if (t->device.device_type != kDLCPU) {
      return Label(i) + ": tensor is on " + DeviceName(t->device) + "; kernels here run on the CPU";
    }
    for (int d = 0; d < ndim; ++d) {
      if (t->shape[d] < 0)
        return Label(i) + ": negative extent in shape " + JoinInts(t->shape, ndim);
    }
    if (std::string error = CheckShape(i, t); !error.empty()) return error;
    if (t->strides != nullptr && !IsEmpty(t)) {
      int64_t expected = 1;
      for (int d = ndim - 1; d >= 0; --d) {
        // A stride of an extent-1 dimension never multiplies a nonzero index: any value is compact.
        if (t->shape[d] != 1 && t->strides[d] != expected) {
          std::vector<int64_t> compact(ndim);
          int64_t step = 1;
          for (int e = ndim - 1; e >= 0; --e) {
            compact[e] = step;
            step *= t->shape[e];
          }
          return Label(i) + ": strides " + JoinInts(t->strides, ndim) +
                 " are not compact row-major " + JoinInts(compact.data(), ndim) +
                 " (pass a contiguous copy)";
        }
        expected *= t->shape[d];
      }
    }
    if (t->data == nullptr) return Label(i) + ": data pointer is null";
    uintptr_t address = reinterpret_cast<uintptr_t>(t->data) + t->byte_offset;
    if (address % kTensorAlignment != 0) {
      char text[96];
      std::snprintf(text, sizeof(text), "data 0x%" PRIxPTR " + byte_offset %" PRIu64,
                    reinterpret_cast<uintptr_t>(t->data), t->byte_offset);
      return Label(i) + ": " + text + " is not " + std::to_string(kTensorAlignment) +
             "-byte aligned (generated code uses aligned vector loads; allocate with NDArray)";
    }
    return "";
  }

  // Compares constant extents and binds or compares symbolic ones.
  std::string CheckShape(int32_t i, const DLTensor* t) {
    const ArgSpec& spec = signature_.args[i];
    for (size_t d = 0; d < spec.shape.size(); ++d) {
      const DimSpec& dim = spec.shape[d];
      const Binding* conflict = nullptr;
      if (!dim.is_symbol()) {
        if (t->shape[d] == dim.value) continue;
      } else if (const Binding* b = Find(dim.symbol); b == nullptr) {
        bindings_.push_back(Binding{&dim.symbol, t->shape[d], i, static_cast<int32_t>(d)});
        continue;
      } else if (b->value == t->shape[d]) {
        continue;
      } else {
        conflict = b;
      }
      std::string error = Label(i) + ": shape " + JoinInts(t->shape, t->ndim) + " does not match " +
                          ExpectedShape(spec);
      if (conflict != nullptr) error += " " + Origin(*conflict, i);
      return error;
    }
    return "";
  }

  std::string CheckInt(int32_t i, int64_t value) {
    const ArgSpec& spec = signature_.args[i];
    if (!FitsIntType(value, spec.dtype)) {
      return Label(i) + ": value " + std::to_string(value) + " does not fit " +
             DTypeName(spec.dtype);
    }
    if (!IsShapeSymbol(spec.name)) return "";
    if (value < 0) {
      return Label(i) + ": negative extent " + std::to_string(value) + " for symbol " + spec.name;
    }
    if (const Binding* b = Find(spec.name); b == nullptr) {
      bindings_.push_back(Binding{&spec.name, value, i, -1});
    } else if (b->value != value) {
      return Label(i) + ": value " + std::to_string(value) + " does not match " + spec.name + "=" +
             std::to_string(b->value) + " " + Origin(*b, i);
    }
    return "";
  }

  const FunctionSignature& signature_;
  std::vector<Binding> bindings_;
};

}  // namespace

std::string CheckArguments(const FunctionSignature& signature, const TFValue* args,
                           const int32_t* type_codes, int32_t num_args) {
  return Checker(signature).Run(args, type_codes, num_args);
}

}  // namespace tunefarm::runtime
