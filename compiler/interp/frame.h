// The interpreter's execution state: a Frame is one thread's variables and bound buffers; the
// ExecState holds the first error of a run; a BlockContext owns one thread block's shared memory.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "compiler/interp/value.h"

namespace tunefarm::interp {

// Memory a flat buffer variable points at while an Allocate, a realize or a parameter binds it.
struct BufferView {
  uint8_t* data = nullptr;
  int64_t size = 0;  // elements
  int elem_bytes = 0;
  bool thread_private = false;  // "local" scope: threads launched below get their own copy
};

// A multi-dimensional view (BufferLoad / BufferStore) of a parameter or of a realized region:
// element (i0, i1, ...) is at row-major offset of (i0 - min[0], i1 - min[1], ...) over `extent`.
struct TensorView {
  uint8_t* data = nullptr;
  int64_t size = 0;  // elements
  int elem_bytes = 0;
  const int64_t* min = nullptr;     // per dimension, owned by whoever bound the view
  const int64_t* extent = nullptr;  // per dimension
  bool thread_private = false;
};

// Owned storage of an Allocate, a realize or a thread-private copy.
struct Storage {
  std::unique_ptr<uint8_t[]> bytes;
  int64_t size = 0;  // elements
};

// New storage is filled with this byte so that a read of memory no one wrote shows up as NaN
// (floats) or -1 (integers) in the results rather than as a plausible zero.
inline constexpr uint8_t kPoisonByte = 0xFF;
// A reference interpreter runs small inputs: a larger allocation is reported, not attempted.
inline constexpr int64_t kMaxAllocationBytes = int64_t{1} << 30;

// The first error of a run wins; every statement stops once `failed` is set.
struct ExecState {
  absl::Status error;
  bool failed = false;
};

// Shared-scope storage of the thread block being run, one per Allocate / realize node (by id),
// created the first time any thread of the block reaches the node.
struct BlockContext {
  std::vector<Storage> shared;
};

// blockIdx.x/y/z and threadIdx.x/y/z.
inline constexpr int kNumThreadTags = 6;
inline constexpr int kFirstThreadIdxTag = 3;
// 0-5 for the tags above, -1 for any other string.
int ThreadTagIndex(const std::string& tag);
const char* ThreadTagName(int index);

struct Frame {
  Frame(int num_slots, int num_buffers, int num_tensors, ExecState* state, BlockContext* block)
      : slots(num_slots), buffers(num_buffers), tensors(num_tensors), state(state), block(block) {}

  bool failed() const { return state->failed; }
  // Records `status` (with the block and thread indices, if any) unless an error came first.
  void Fail(const absl::Status& status);

  std::vector<Lane> slots;  // variables, resolved to slots when the function was compiled
  std::vector<BufferView> buffers;
  std::vector<TensorView> tensors;
  ExecState* state;
  BlockContext* block;
  // Inside a vector if_then_else with mixed lanes: lanes of `mask_lanes`-wide vector code whose
  // mask lane is 0 are not computed (their loads and divisions must not report errors).
  const Lane* lane_mask = nullptr;
  int mask_lanes = 0;
  // Launch extent (0 = not launched) and this thread's index, per thread tag.
  std::array<int64_t, kNumThreadTags> tag_extent{};
  std::array<int64_t, kNumThreadTags> tag_index{};
};

// The threads of one block that run a barrier-containing statement together.
using ThreadSet = std::span<Frame>;

// Makes `count` elements of `elem_bytes`, poisoned, into `out`. Reports a negative or too large
// count (naming `what`) on `f` and returns false.
bool NewStorage(Frame& f, const std::string& what, int64_t count, int elem_bytes, Storage* out);

// Gives each thread-private (local) buffer and tensor bound in `f` a copy of its own, owned by
// `owned`, as a thread would have its own registers for a local array declared above its launch.
void PrivatizeLocals(Frame& f, std::vector<Storage>* owned);

}  // namespace tunefarm::interp
