// GPU schedules as TE scripts, shared by the tests of both dialects of the GPU code generator
// (tests/unit/compiler/codegen/cuda and opencl): each exercises one schedule primitive.
#pragma once

#include <string>

namespace tunefarm::codegen::testing {

// The classic first GPU schedule over a symbolic n: blocks of 64 threads.
inline constexpr const char* kSplitBind = R"(
n = var("n")
A = placeholder((n,), name="A")
B = placeholder((n,), name="B")
C = compute((n,), lambda i: A[i] + B[i], name="C")
s = create_schedule(C)
bx, tx = s[C].split(C.op.axis[0], factor=64)
s[C].bind(bx, thread_axis("blockIdx.x"))
s[C].bind(tx, thread_axis("threadIdx.x"))
args = [A, B, C]
)";

// A tiled matmul whose block loads a tile of A into shared memory at each k.outer step.
inline constexpr const char* kSharedMatmul = R"(
import tvm
from tvm import te
n = 64
A = te.placeholder((n, n), name="A")
B = te.placeholder((n, n), name="B")
k = te.reduce_axis((0, n), name="k")
C = te.compute((n, n), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="C")
s = te.create_schedule(C.op)
AA = s.cache_read(A, "shared", [C])
i, j = s[C].op.axis
bi, ti = s[C].split(i, factor=8)
bj, tj = s[C].split(j, factor=8)
s[C].reorder(bi, bj, ti, tj)
s[C].bind(bi, te.thread_axis("blockIdx.y"))
s[C].bind(bj, te.thread_axis("blockIdx.x"))
s[C].bind(ti, te.thread_axis("threadIdx.y"))
s[C].bind(tj, te.thread_axis("threadIdx.x"))
ko, ki = s[C].split(s[C].op.reduce_axis[0], factor=8)
s[AA].compute_at(s[C], ko)
a0, a1 = s[AA].op.axis
s[AA].bind(a0, te.thread_axis("threadIdx.y"))
s[AA].bind(a1, te.thread_axis("threadIdx.x"))
args = [A, B, C]
)";

// Two stages, each bound to its own blocks and threads: two kernels, launched in order.
// `args` is the script's argument list: with B, B is an argument; without, an intermediate.
inline std::string TwoStages(const std::string& args) {
  return R"(
n = 256
A = placeholder((n,), name="A")
B = compute((n,), lambda i: A[i] + 1.0, name="B")
C = compute((n,), lambda i: B[i] * 2.0, name="C")
s = create_schedule(C)
bx, tx = s[B].split(B.op.axis[0], factor=64)
s[B].bind(bx, thread_axis("blockIdx.x"))
s[B].bind(tx, thread_axis("threadIdx.x"))
cx, ctx = s[C].split(C.op.axis[0], factor=32)
s[C].bind(cx, thread_axis("blockIdx.x"))
s[C].bind(ctx, thread_axis("threadIdx.x"))
args = )" +
         args + "\n";
}

// Elementwise with the innermost 4 lanes vectorized: float4 / vload4 accesses.
inline constexpr const char* kVectorized = R"(
n = 1024
A = placeholder((n,), name="A")
B = placeholder((n,), name="B")
C = compute((n,), lambda i: A[i] * B[i] + 1.0, name="C")
s = create_schedule(C)
xo, xi = s[C].split(C.op.axis[0], factor=4)
bx, tx = s[C].split(xo, factor=64)
s[C].bind(bx, thread_axis("blockIdx.x"))
s[C].bind(tx, thread_axis("threadIdx.x"))
s[C].vectorize(xi)
args = [A, B, C]
)";

}  // namespace tunefarm::codegen::testing
