// TensorType: the static type of a graph value, an element type and a shape with every dimension
// known. Graph values have no symbolic sizes; the importer resolves them before building a graph.
#pragma once

#include <cstdint>
#include <dlpack/dlpack.h>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace tunefarm::graph {

// The largest element count a graph value may have (2^48). Far above any real model, and low
// enough that shape arithmetic on valid types (a dimension times a small factor) cannot overflow.
inline constexpr int64_t kMaxElements = int64_t{1} << 48;

struct TensorType {
  DLDataType dtype{kDLFloat, 32, 1};
  std::vector<int64_t> shape;

  int rank() const { return static_cast<int>(shape.size()); }
  // Fails on a negative dimension or a product above kMaxElements (overflow included).
  absl::StatusOr<int64_t> NumElements() const;
  absl::StatusOr<int64_t> NumBytes() const;
  // "float32[1,64,112,112]"; a scalar is "float32[]".
  std::string ToString() const;

  friend bool operator==(const TensorType& a, const TensorType& b);
};

// The element count of `shape` under the same rules as TensorType::NumElements.
absl::StatusOr<int64_t> CheckedNumElements(std::span<const int64_t> shape);

// "[1,64,112,112]".
std::string ShapeToString(std::span<const int64_t> shape);

}  // namespace tunefarm::graph
