// NDArray: a dense, row-major host tensor that owns its memory (64-byte aligned) and describes it
// as a DLPack DLTensor, so kernels, the interpreter and other frameworks can share it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <dlpack/dlpack.h>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tunefarm::runtime {

// Move-only: exactly one owner frees the memory, and a copy of the data is always explicit
// (CopyFrom). Code that only borrows an array passes `NDArray*` or `DLTensor*`. A moved-from or
// default-constructed NDArray is undefined: `defined()` is false and its accessors must not be
// used. The DLTensor stays at one address for the array's lifetime, moves included.
class NDArray {
 public:
  static constexpr size_t kAlignment = 64;

  // A zero-filled array on the CPU. Fails on a negative dimension, a size that overflows, or a
  // dtype outside int/uint 8-64, float 16/32/64, bfloat16 and bool, with any lane count.
  static absl::StatusOr<NDArray> Empty(std::vector<int64_t> shape, DLDataType dtype);

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

 private:
  struct Container;
  explicit NDArray(std::unique_ptr<Container> container);
  const Container& container() const;

  std::unique_ptr<Container> container_;
};

}  // namespace tunefarm::runtime
