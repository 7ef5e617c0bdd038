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

}  // namespace

// Heap-allocated so that the DLTensor (and the shape it points into) never moves.
struct NDArray::Container {
  std::vector<int64_t> shape;
  std::unique_ptr<void, AlignedFree> memory;
  size_t num_bytes = 0;
  DLTensor tensor{};
};

absl::StatusOr<NDArray> NDArray::Empty(std::vector<int64_t> shape, DLDataType dtype) {
  if (!SupportedDataType(dtype)) {
    return absl::InvalidArgumentError(
        absl::StrCat("NDArray::Empty: unsupported dtype ", DataTypeToString(dtype)));
  }
  size_t bytes = DataTypeBytes(dtype);
  for (int64_t dim : shape) {
    if (dim < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("NDArray::Empty: negative dimension in shape ", ShapeString(shape)));
    }
    if (dim != 0 && bytes > std::numeric_limits<int64_t>::max() / static_cast<size_t>(dim)) {
      return absl::InvalidArgumentError(
          absl::StrCat("NDArray::Empty: shape ", ShapeString(shape), " overflows"));
    }
    bytes *= static_cast<size_t>(dim);
  }
  auto c = std::make_unique<Container>();
  c->shape = std::move(shape);
  c->num_bytes = bytes;
  // Round up so that a zero-sized array still has a valid, aligned, distinct pointer.
  size_t alloc = (bytes + kAlignment - 1) / kAlignment * kAlignment + (bytes == 0 ? kAlignment : 0);
  void* p = ::operator new (alloc, std::align_val_t{kAlignment}, std::nothrow);
  if (p == nullptr) {
    return absl::ResourceExhaustedError(absl::StrCat("NDArray::Empty: cannot allocate ", bytes,
                                                     " bytes for shape ", ShapeString(c->shape)));
  }
  std::memset(p, 0, alloc);
  c->memory.reset(p);
  c->tensor.data = p;
  c->tensor.device = DLDevice{kDLCPU, 0};
  c->tensor.ndim = static_cast<int>(c->shape.size());
  c->tensor.dtype = dtype;
  c->tensor.shape = c->shape.data();
  c->tensor.strides = nullptr;  // compact, row-major
  c->tensor.byte_offset = 0;
  return NDArray(std::move(c));
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
  if (this != &other) std::memcpy(data(), other.data(), NumBytes());
  return absl::OkStatus();
}

}  // namespace tunefarm::runtime
