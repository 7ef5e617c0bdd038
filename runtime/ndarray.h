// NDArray: a dense, row-major host tensor over 64-byte aligned memory, described as a DLPack
// DLTensor so that kernels, the interpreter and other frameworks can share it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <dlpack/dlpack.h>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tunefarm::runtime {

// Move-only handle; a copy of the data is always explicit (CopyFrom, Clone). The memory is shared
// by the array, its views and its DLPack exports, and freed with the last of them. Code that only
// borrows an array passes `NDArray*` or `DLTensor*`. A moved-from or default-constructed NDArray
// is undefined: `defined()` is false and its accessors must not be used. The DLTensor stays at one
// address for the array's lifetime, moves included.
class NDArray {
 public:
  static constexpr size_t kAlignment = 64;

  // A zero-filled array on the CPU. Fails on a negative dimension, a size that overflows, or a
  // dtype outside int/uint 8-64, float 16/32/64, bfloat16 and bool, with any lane count.
  static absl::StatusOr<NDArray> Empty(std::vector<int64_t> shape, DLDataType dtype);
  // The bytes Empty would hold for this shape and dtype, checked for overflow; nothing is
  // allocated (so a budget can be checked first).
  static absl::StatusOr<size_t> BytesFor(const std::vector<int64_t>& shape, DLDataType dtype);

  NDArray();
  ~NDArray();
  NDArray(NDArray&& other) noexcept;
  NDArray& operator=(NDArray&& other) noexcept;
  NDArray(const NDArray&) = delete;
  NDArray& operator=(const NDArray&) = delete;

  bool defined() const { return container_ != nullptr; }
  DLTensor* dl();
  const DLTensor* dl() const;
  void* data();
  const void* data() const;
  const std::vector<int64_t>& shape() const;
  int ndim() const { return static_cast<int>(shape().size()); }
  DLDataType dtype() const;
  int64_t NumElements() const;
  size_t NumBytes() const;

  // Copies `other`'s contents into this array; shapes and dtypes must be equal.
  absl::Status CopyFrom(const NDArray& other);
  // Copies exactly NumBytes() bytes from or to plain memory (a file, a network message).
  absl::Status CopyFromBytes(const void* bytes, size_t num_bytes);
  absl::Status CopyToBytes(void* bytes, size_t num_bytes) const;
  // A new array with its own memory and this array's shape, dtype and contents.
  absl::StatusOr<NDArray> Clone() const;

  // An array over this array's memory with another shape and/or dtype whose total size in bytes
  // is the same (a reshape, or a reinterpretation such as float32 as int32).
  absl::StatusOr<NDArray> View(std::vector<int64_t> shape) const;
  absl::StatusOr<NDArray> View(std::vector<int64_t> shape, DLDataType dtype) const;
  bool SharesMemoryWith(const NDArray& other) const;

  // Hands the tensor to another DLPack user: the returned tensor keeps the memory alive until
  // its deleter runs, which the receiver must call exactly once. nullptr for an undefined array.
  DLManagedTensor* ToDLPack() const;

 private:
  struct Container;
  explicit NDArray(std::unique_ptr<Container> container);
  const Container& container() const;

  std::unique_ptr<Container> container_;
};

}  // namespace tunefarm::runtime
