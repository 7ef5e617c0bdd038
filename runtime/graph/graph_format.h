// The executable graph a model module carries in TF_GRAPH_SYMBOL (c_abi.h): its tensors and the
// kernel calls that compute them, as versioned line-oriented text, with a writer for the compiler
// and a parser that treats the text as hostile. runtime/core only (libc, no JSON library).
//
//   tunefarm-graph 1
//   params 4352                                 # bytes the module's TF_PARAMS_SYMBOL must hold
//   tensors 5
//   tensor 0 float32 [1,16] input data          # id dtype shape kind ...
//   tensor 1 float32 [16,64] param 0 4096       # ... param OFFSET BYTES (OFFSET % 64 == 0)
//   tensor 2 float32 [64] param 4096 256
//   tensor 3 float32 [1,64] intermediate
//   tensor 4 float32 [1,64] output prob
//   steps 2
//   step 0 dense in:0 in:1 out:3 int:64          # index kernel args, run in this order
//   step 1 bias_relu in:3 in:2 out:4
//
// Tensors are listed with ids 0..N-1 in order; steps likewise. A step argument is `in:ID` (a
// tensor the kernel reads), `out:ID` (one it writes), `int:V` or `float:V` (a scalar), in the
// kernel's argument order. Names escape bytes outside '!'..'~' and '%' as %XX. Blank lines and
// lines starting with '#' are ignored; '#' after a record starts a comment.
#pragma once

#include <cstdint>
#include <dlpack/dlpack.h>
#include <string>
#include <string_view>
#include <vector>

namespace tunefarm::runtime {

enum class GraphTensorKind { kInput, kOutput, kParam, kIntermediate };

struct GraphTensor {
  DLDataType dtype = {kDLFloat, 32, 1};
  std::vector<int64_t> shape;  // every extent >= 1; [] is a scalar
  GraphTensorKind kind = GraphTensorKind::kIntermediate;
  std::string name;           // inputs and outputs: how the user refers to them
  uint64_t param_offset = 0;  // params: where the tensor starts in the params blob
  uint64_t bytes = 0;         // filled in by the parser from dtype and shape
};

enum class StepArgKind { kIn, kOut, kInt, kFloat };

struct StepArg {
  StepArgKind kind = StepArgKind::kIn;
  int64_t value = 0;  // the tensor id (kIn, kOut) or the integer (kInt)
  double float_value = 0;
};

struct GraphStep {
  std::string kernel;  // a kernel of the module's manifest
  std::vector<StepArg> args;
  int line = 0;  // in the graph text, for error messages
};

struct GraphDescription {
  uint64_t params_bytes = 0;
  std::vector<GraphTensor> tensors;
  std::vector<GraphStep> steps;
};

// What the parser accepts at most: a text beyond these is refused before anything of that size
// is allocated.
struct GraphLimits {
  size_t max_text_bytes = size_t{256} << 20;
  int64_t max_tensors = int64_t{1} << 16;  // the memory planner is quadratic in them
  int64_t max_steps = int64_t{1} << 16;
  int64_t max_args = 1024;
  int64_t max_rank = 8;
  uint64_t max_tensor_bytes = uint64_t{1} << 34;  // 16 GiB
  size_t max_name_bytes = 1024;
};

inline constexpr int kGraphFormatVersion = 1;
// Params offsets are multiples of this, so tensors bound inside the blob keep kernels' alignment.
inline constexpr uint64_t kParamAlignment = 64;

// The text form of `graph` (what the compiler embeds). Tensor bytes are recomputed, not trusted.
std::string WriteGraph(const GraphDescription& graph);

// Parses and checks `text` against a params blob of `params_size` bytes. Checked: the header and
// version; counts, ranks, extents and byte sizes within `limits` (no overflow); names unique per
// kind; param ranges aligned and inside the blob; every step argument's tensor id in range;
// inputs and params never written; every intermediate written before it is read; every output
// written. Kernel signatures are checked by the executor, which knows the library. On failure
// returns false and sets `*error` to one line: "graph line N: what is wrong: 'the line'".
bool ParseGraph(std::string_view text, uint64_t params_size, GraphDescription* graph,
                std::string* error, const GraphLimits& limits = {});

// Bytes of one element as stored (bool and other sub-byte types take a byte); 0 when `dtype` is
// not a storable tensor type.
uint64_t ElementBytes(DLDataType dtype);

}  // namespace tunefarm::runtime
