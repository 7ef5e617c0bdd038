// LoopNest analysis of lowered IR: the loop nests around each group of buffer accesses, with
// per-loop extents and kinds, per-access strides, footprints and reuse, and operation counts —
// the raw facts loop_features.h turns into the cost model's feature vector.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/function.h"
#include "compiler/ir/stmt.h"

namespace tunefarm::tuner {

// One loop around a nest body. Thread bindings (thread_extent / virtual_thread attributes) count
// as loops of kind kThreadBinding.
struct LoopInfo {
  int64_t extent = 1;  // 1 when the extent is not a constant
  int depth = 1;       // 1 for the outermost loop of the function
  ir::ForKind kind = ir::ForKind::kSerial;
  int64_t prod_above = 1;  // product of the extents of the loops enclosing this one
  int64_t prod_below = 1;  // product of the extents of the nest's loops inside this one
};

// One buffer access of a nest body (equal accesses — same buffer, direction, lanes and strides —
// are merged and counted). Per-level vectors are indexed like LoopNest::loops, innermost first:
// entry l describes the sub-nest made of loops 0..l.
struct AccessInfo {
  std::string buffer;  // the buffer variable's name
  bool is_store = false;
  int element_bytes = 4;         // of one scalar element
  int lanes = 1;                 // > 1 for a vector access (Ramp index)
  int count = 1;                 // identical accesses merged into this one
  std::vector<int64_t> strides;  // elements the address moves when loop l advances by one
  // Distinct bytes the sub-nest touches: the smaller of the product of extents of loops with a
  // nonzero stride and the address span, capped by the buffer's size when it is known.
  std::vector<double> touched_bytes;
  // Accesses per distinct byte in the sub-nest (1: every byte is used once).
  std::vector<double> reuse;
};

// Arithmetic per execution of a nest body, counted in lanes (a float32x8 add counts 8).
struct OpCounts {
  int64_t float_add = 0;    // add, sub
  int64_t float_mul = 0;    // mul not feeding an add
  int64_t float_fma = 0;    // add(mul(a, b), c): counted once here, not as add or mul
  int64_t float_other = 0;  // div, mod, min, max, select, casts to float, math intrinsics
  int64_t int_ops = 0;      // integer add, sub, mul, div, mod, min, max (index arithmetic)
};

// The statements directly inside one loop (not inside a loop nested in it) and the loops
// enclosing them.
struct LoopNest {
  std::vector<LoopInfo> loops;       // innermost first
  std::vector<AccessInfo> accesses;  // stores first, then loads, each in order of appearance
  OpCounts ops;
  double iterations = 1;  // product of every loop's extent: executions of the body
  // iterations x (operations + accesses) of one body: how the nests are ranked.
  double cost = 0;
};

// Every nest of `func`'s body whose loop directly holds an access or arithmetic, most expensive
// first (ties keep program order). Works on flat IR (Load/Store) and on BufferLoad/BufferStore
// with constant shapes; vector accesses (Ramp indices) count their lanes. Index expressions are
// evaluated numerically with the loop variables at 0 and 1, so strides are exact for affine
// indices and local (around the origin) for floordiv/floormod of fused loops.
std::vector<LoopNest> AnalyzeLoopNests(const ir::PrimFunc& func);

}  // namespace tunefarm::tuner
