#include "runtime/ndarray.h"

#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/data_type.h"

namespace tunefarm::runtime {
namespace {

bool SupportedDataType(DLDataType t) {
  if (t.lanes == 0) return false;
  switch (t.code) {
    case kDLInt:
      return t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64;
    case kDLUInt:
      return t.bits == 1 || t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64;
    case kDLFloat:
      return t.bits == 16 || t.bits == 32 || t.bits == 64;
    case kDLBfloat:
      return t.bits == 16;
    default:
      return false;
  }
}

struct AlignedFree {
  void operator()(void* p) const { ::operator delete (p, std::align_val_t{NDArray::kAlignment}); }
};

std::string ShapeString(const std::vector<int64_t>& shape) {
  return absl::StrCat("[", absl::StrJoin(shape, ", "), "]");
}

// The bytes an array of `shape` and `dtype` takes; `who` names the caller in errors.
absl::StatusOr<size_t> ByteSize(const std::vector<int64_t>& shape, DLDataType dtype,
                                const char* who) {
  if (!SupportedDataType(dtype)) {
    return absl::InvalidArgumentError(
        absl::StrCat(who, ": unsupported dtype ", DataTypeToString(dtype)));
  }
  size_t bytes = DataTypeBytes(dtype);
  for (int64_t dim : shape) {
    if (dim < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(who, ": negative dimension in shape ", ShapeString(shape)));
    }
    if (dim != 0 && bytes > std::numeric_limits<int64_t>::max() / static_cast<size_t>(dim)) {
      return absl::InvalidArgumentError(
          absl::StrCat(who, ": shape ", ShapeString(shape), " overflows"));
    }
    bytes *= static_cast<size_t>(dim);
  }
  return bytes;
}

// What a DLPack export owns: the memory (shared with the array) and the shape it points into.
struct ExportContext {
  std::shared_ptr<void> memory;
  std::vector<int64_t> shape;
  DLManagedTensor managed{};
};

}  // namespace

// Heap-allocated so that the DLTensor (and the shape it points into) never moves.
struct NDArray::Container {
  std::shared_ptr<void> memory;
  size_t num_bytes = 0;
  std::vector<int64_t> shape;
  DLTensor tensor{};

  Container(std::shared_ptr<void> mem, size_t bytes, std::vector<int64_t> dims, DLDataType dtype)
      : memory(std::move(mem)), num_bytes(bytes), shape(std::move(dims)) {
    tensor.data = memory.get();
    tensor.device = DLDevice{kDLCPU, 0};
    tensor.ndim = static_cast<int>(shape.size());
    tensor.dtype = dtype;
    tensor.shape = shape.data();
    tensor.strides = nullptr;  // compact, row-major
    tensor.byte_offset = 0;
  }
};

absl::StatusOr<NDArray> NDArray::Empty(std::vector<int64_t> shape, DLDataType dtype) {
  absl::StatusOr<size_t> bytes = ByteSize(shape, dtype, "NDArray::Empty");
  if (!bytes.ok()) return bytes.status();
  // Round up so that a zero-sized array still has a valid, aligned, distinct pointer.
  size_t alloc =
      (*bytes + kAlignment - 1) / kAlignment * kAlignment + (*bytes == 0 ? kAlignment : 0);
  void* p = ::operator new (alloc, std::align_val_t{kAlignment}, std::nothrow);
  if (p == nullptr) {
    return absl::ResourceExhaustedError(absl::StrCat("NDArray::Empty: cannot allocate ", *bytes,
                                                     " bytes for shape ", ShapeString(shape)));
  }
  std::memset(p, 0, alloc);
  std::shared_ptr<void> memory(p, AlignedFree{});
  return NDArray(std::make_unique<Container>(std::move(memory), *bytes, std::move(shape), dtype));
}

absl::StatusOr<size_t> NDArray::BytesFor(const std::vector<int64_t>& shape, DLDataType dtype) {
  return ByteSize(shape, dtype, "NDArray");
}

NDArray::NDArray() = default;
NDArray::~NDArray() = default;
NDArray::NDArray(NDArray&& other) noexcept = default;
NDArray& NDArray::operator=(NDArray&& other) noexcept = default;
NDArray::NDArray(std::unique_ptr<Container> container) : container_(std::move(container)) {}

const NDArray::Container& NDArray::container() const { return *container_; }

DLTensor* NDArray::dl() { return &container_->tensor; }
const DLTensor* NDArray::dl() const { return &container().tensor; }
void* NDArray::data() { return container_->tensor.data; }
const void* NDArray::data() const { return container().tensor.data; }
const std::vector<int64_t>& NDArray::shape() const { return container().shape; }
DLDataType NDArray::dtype() const { return container().tensor.dtype; }
size_t NDArray::NumBytes() const { return container().num_bytes; }

int64_t NDArray::NumElements() const {
  int64_t n = 1;
  for (int64_t d : container().shape) n *= d;
  return n;
}

absl::Status NDArray::CopyFrom(const NDArray& other) {
  if (!defined() || !other.defined()) {
    return absl::FailedPreconditionError("NDArray::CopyFrom: undefined array");
  }
  if (shape() != other.shape() || !SameDataType(dtype(), other.dtype())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "NDArray::CopyFrom: destination ", DataTypeToString(dtype()), ShapeString(shape()),
        " differs from source ", DataTypeToString(other.dtype()), ShapeString(other.shape())));
  }
  // memmove: the source may be a view of this very memory.
  if (data() != other.data()) std::memmove(data(), other.data(), NumBytes());
  return absl::OkStatus();
}

absl::Status NDArray::CopyFromBytes(const void* bytes, size_t num_bytes) {
  if (!defined()) return absl::FailedPreconditionError("NDArray::CopyFromBytes: undefined array");
  if (num_bytes != NumBytes()) {
    return absl::InvalidArgumentError(absl::StrCat("NDArray::CopyFromBytes: got ", num_bytes,
                                                   " bytes, but ", DataTypeToString(dtype()),
                                                   ShapeString(shape()), " takes ", NumBytes()));
  }
  if (num_bytes > 0) std::memmove(data(), bytes, num_bytes);
  return absl::OkStatus();
}

absl::Status NDArray::CopyToBytes(void* bytes, size_t num_bytes) const {
  if (!defined()) return absl::FailedPreconditionError("NDArray::CopyToBytes: undefined array");
  if (num_bytes != NumBytes()) {
    return absl::InvalidArgumentError(absl::StrCat("NDArray::CopyToBytes: room for ", num_bytes,
                                                   " bytes, but ", DataTypeToString(dtype()),
                                                   ShapeString(shape()), " takes ", NumBytes()));
  }
  if (num_bytes > 0) std::memmove(bytes, data(), num_bytes);
  return absl::OkStatus();
}

absl::StatusOr<NDArray> NDArray::Clone() const {
  if (!defined()) return absl::FailedPreconditionError("NDArray::Clone: undefined array");
  absl::StatusOr<NDArray> copy = Empty(shape(), dtype());
  if (!copy.ok()) return copy.status();
  std::memcpy(copy->data(), data(), NumBytes());
  return copy;
}

absl::StatusOr<NDArray> NDArray::View(std::vector<int64_t> shape) const {
  if (!defined()) return absl::FailedPreconditionError("NDArray::View: undefined array");
  return View(std::move(shape), dtype());
}

absl::StatusOr<NDArray> NDArray::View(std::vector<int64_t> shape, DLDataType dtype) const {
  if (!defined()) return absl::FailedPreconditionError("NDArray::View: undefined array");
  absl::StatusOr<size_t> bytes = ByteSize(shape, dtype, "NDArray::View");
  if (!bytes.ok()) return bytes.status();
  if (*bytes != NumBytes()) {
    return absl::InvalidArgumentError(
        absl::StrCat("NDArray::View: ", DataTypeToString(dtype), ShapeString(shape), " takes ",
                     *bytes, " bytes, but the array ", DataTypeToString(this->dtype()),
                     ShapeString(this->shape()), " has ", NumBytes()));
  }
  return NDArray(std::make_unique<Container>(container().memory, *bytes, std::move(shape), dtype));
}

bool NDArray::SharesMemoryWith(const NDArray& other) const {
  return defined() && other.defined() && container().memory == other.container().memory;
}

DLManagedTensor* NDArray::ToDLPack() const {
  if (!defined()) return nullptr;
  auto* context = new ExportContext{container().memory, shape(), {}};
  context->managed.dl_tensor = container().tensor;
  context->managed.dl_tensor.shape = context->shape.data();
  context->managed.manager_ctx = context;
  context->managed.deleter = [](DLManagedTensor* self) {
    delete static_cast<ExportContext*>(self->manager_ctx);
  };
  return &context->managed;
}

}  // namespace tunefarm::runtime
