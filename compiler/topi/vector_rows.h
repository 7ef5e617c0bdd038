// Sliding-window outputs (conv2d, depthwise conv2d) computed in rows of whole vectors: the output
// width rounded up (the input padded on the right to match) and cut back by the epilogue, and a
// strided input's columns split into phases so that a vector of outputs reads consecutive inputs.
// Rows of 7, 14 or 28 columns then run as vector code instead of a ragged row's scalar code.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/window.h"

namespace tunefarm::topi {

struct VectorRows {
  // The output width is rounded up to a multiple of this.
  int64_t width_multiple = 1;
  // With a column stride s > 1, the padded copy is [N][C][H][s][W/s] (column w at [w%s][w/s]).
  bool split_strided_columns = false;

  // `width` rounded up to width_multiple.
  int64_t RoundUp(int64_t width) const;
};

// What model builds and the conv tuning templates alike use, so that records tuned for a workload
// schedule what a model runs: widths rounded up to 16 (one AVX-512 vector, two AVX2/NEON ones; 8
// for rows narrower than 16, none for multiples of 16), and strided columns split.
VectorRows VectorRowsFor(int64_t out_width);

// The padded input of a window op over NCHW `data` ([N][C][h][w]) whose output is `out_w` wide
// (already rounded up) with a kernel `kw` wide, and how to read it.
class PaddedRows {
 public:
  static absl::StatusOr<PaddedRows> Make(const te::Tensor& data, const Window2d& window, int64_t h,
                                         int64_t w, int64_t kw, int64_t out_w,
                                         const VectorRows& rows, const std::string& name);

  // The stage: `data` itself when nothing is padded or split.
  const te::Tensor& tensor() const { return padded_; }
  // The input element under output column `x` at window column `rx` (row `y` already strided and
  // dilated), for channel `c` of batch `n`.
  ir::Expr Read(ir::Expr n, ir::Expr c, ir::Expr y, ir::Expr x, ir::Expr rx) const;

 private:
  te::Tensor padded_;
  Window2d window_;
  bool split_ = false;
};

// `full` ([N][C][H][W']) cut to `width` columns, or `full` itself when it is that wide.
absl::StatusOr<te::Tensor> CropWidth(const te::Tensor& full, int64_t width,
                                     const std::string& name);

}  // namespace tunefarm::topi
