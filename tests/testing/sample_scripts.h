// TE scripts several tests run: small enough for the interpreter, each with what it exercises.
#pragma once

namespace tunefarm::fixtures {

// One symbolic size n, its loop split by 4: `--bind n=...` gives it a size.
inline constexpr const char* kSplitScript = R"(
n = var("n")
A = placeholder((n,), name="A")
B = compute((n,), lambda i: A[i] * 2.0 + 1.0, name="B")
s = create_schedule(B)
xo, xi = s[B].split(B.op.axis[0], factor=4)
args = [A, B]
)";

}  // namespace tunefarm::fixtures
