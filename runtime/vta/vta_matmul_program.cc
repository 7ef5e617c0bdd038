#include "runtime/vta/vta_matmul_program.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace tunefarm::runtime::vta {
namespace {

// The matmul in blocks: mb input entries, kb blocks of K, nb weight tiles.
struct Blocks {
  int64_t mb, kb, nb;
};

struct Tiling {
  int64_t tm, tn, tk;
};

int64_t CeilDivide(int64_t a, int64_t b) { return (a + b - 1) / b; }

std::vector<int64_t> Divisors(int64_t x) {
  std::vector<int64_t> out;
  for (int64_t d = 1; d <= x; ++d) {
    if (x % d == 0) out.push_back(d);
  }
  return out;
}

// Micro-ops: one per accumulator region (reset and ALU), then tk per (input/weight copy,
// accumulator region) pair for the GEMMs.
int64_t UopCount(const Tiling& t, int buffers) {
  return buffers + int64_t{buffers} * buffers * t.tk;
}

bool Fits(const VtaConfig& config, const Tiling& t, int buffers) {
  return t.tm * t.tk * buffers <= config.InputEntries() &&
         t.tn * t.tk * buffers <= config.WeightEntries() &&
         t.tm * t.tn * buffers <= config.AccEntries() &&
         UopCount(t, buffers) <= config.uop_buffer_entries && t.tm < (1 << 14) &&
         t.tn < (1 << 11) && t.tk < (1 << 10);
}

// The cycle model (vta_simulator.h) applied to whole modules: with two buffers they overlap
// (the slowest one plus filling and draining the pipeline), with one they take turns.
int64_t EstimateCycles(const VtaConfig& config, const Blocks& b, const Tiling& t, int buffers) {
  const int64_t tiles = (b.mb / t.tm) * (b.nb / t.tn);
  const int64_t chunks = tiles * (b.kb / t.tk);
  const int64_t dma = config.load_store_overhead_cycles;
  const int64_t bw = config.dma_bytes_per_cycle;
  const int64_t chunk_load = 2 * dma + CeilDivide(t.tm * t.tk * config.InputEntryBytes(), bw) +
                             CeilDivide(t.tn * t.tk * config.WeightEntryBytes(), bw);
  const int64_t tile_area = t.tm * t.tn;
  // Per tile: the reset before its chunks, the shift and clamp after them.
  const int64_t epilogue =
      config.gemm_overhead_cycles + tile_area + 3 * (config.alu_overhead_cycles + tile_area);
  const int64_t compute =
      chunks * (config.gemm_overhead_cycles + tile_area * t.tk) + tiles * epilogue;
  const int64_t tile_store = dma + CeilDivide(tile_area * config.OutputEntryBytes(), bw);
  if (buffers == 1) return chunks * chunk_load + compute + tiles * tile_store;
  // Nothing overlaps the first chunk's load, nor the last tile's epilogue and store.
  return std::max({chunks * chunk_load, compute, tiles * tile_store}) + chunk_load + epilogue +
         tile_store;
}

absl::StatusOr<Tiling> ChooseTiling(const VtaConfig& config, const Blocks& b,
                                    const VtaMatmulOptions& options) {
  if (options.tile_m != 0 || options.tile_n != 0 || options.tile_k != 0) {
    const Tiling t{options.tile_m, options.tile_n, options.tile_k};
    if (t.tm <= 0 || t.tn <= 0 || t.tk <= 0 || b.mb % t.tm != 0 || b.nb % t.tn != 0 ||
        b.kb % t.tk != 0) {
      return absl::InvalidArgumentError(absl::StrCat("matmul tiles (", t.tm, ", ", t.tn, ", ", t.tk,
                                                     ") must divide the blocks (", b.mb, ", ", b.nb,
                                                     ", ", b.kb, ") of M, N and K"));
    }
    if (!Fits(config, t, options.buffers)) {
      return absl::InvalidArgumentError(absl::StrCat("matmul tiles (", t.tm, ", ", t.tn, ", ", t.tk,
                                                     ") x ", options.buffers,
                                                     " buffers do not fit the on-chip buffers"));
    }
    return t;
  }
  std::optional<Tiling> best;
  int64_t best_cycles = std::numeric_limits<int64_t>::max();
  for (int64_t tm : Divisors(b.mb)) {
    for (int64_t tn : Divisors(b.nb)) {
      for (int64_t tk : Divisors(b.kb)) {
        const Tiling t{tm, tn, tk};
        if (!Fits(config, t, options.buffers)) continue;
        const int64_t cycles = EstimateCycles(config, b, t, options.buffers);
        if (cycles < best_cycles) {
          best = t;
          best_cycles = cycles;
        }
      }
    }
  }
  if (!best) {
    return absl::InvalidArgumentError("no matmul tiling fits the on-chip buffers");
  }
  return *best;
}

absl::Status CheckOffset(absl::string_view name, uint64_t offset, int64_t entry_bytes) {
  if (offset % static_cast<uint64_t>(entry_bytes) == 0 &&
      offset / static_cast<uint64_t>(entry_bytes) <= std::numeric_limits<uint32_t>::max() / 2) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat("matmul layout: ", name, " ", offset,
                                                 " must be a multiple of its ", entry_bytes,
                                                 "-byte entries within DRAM's 32-bit entry range"));
}

VtaMemoryShape Shape(uint64_t sram_base, uint64_t dram_base, int64_t y, int64_t x, int64_t stride) {
  VtaMemoryShape s;
  s.sram_base = static_cast<uint32_t>(sram_base);
  s.dram_base = static_cast<uint32_t>(dram_base);
  s.y_size = static_cast<uint32_t>(y);
  s.x_size = static_cast<uint32_t>(x);
  s.x_stride = static_cast<uint32_t>(stride);
  return s;
}

VtaAlu Clamp(VtaAluOp op, int16_t imm, uint32_t region_uop, const Tiling& t) {
  VtaAlu alu;
  alu.op = op;
  alu.use_imm = true;
  alu.imm = imm;
  alu.loop = VtaUopLoop{region_uop, region_uop + 1, static_cast<uint32_t>(t.tm),
                        static_cast<uint32_t>(t.tn)};
  alu.dst_factor_outer = static_cast<uint32_t>(t.tn);
  alu.dst_factor_inner = 1;
  return alu;
}

absl::Status CheckDimensions(const VtaConfig& config, int64_t m, int64_t k, int64_t n) {
  if (absl::Status s = ValidateVtaConfig(config); !s.ok()) return s;
  if (m <= 0 || k <= 0 || n <= 0 || m % config.batch != 0 || k % config.block_in != 0 ||
      n % config.block_out != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "matmul ", m, " x ", k, " x ", n, ": M, K and N must be positive multiples of batch ",
        config.batch, ", block_in ", config.block_in, " and block_out ", config.block_out));
  }
  if (k / config.block_in >= (1 << 16) || n / config.block_out >= (1 << 16)) {
    return absl::InvalidArgumentError("matmul: K or N has more blocks than a DRAM stride holds");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<VtaMatmulTiling> ChooseMatmulTiling(const VtaConfig& config, int64_t m, int64_t k,
                                                   int64_t n, int buffers) {
  if (absl::Status s = CheckDimensions(config, m, k, n); !s.ok()) return s;
  VtaMatmulOptions options;
  options.buffers = buffers;
  absl::StatusOr<Tiling> t = ChooseTiling(
      config, Blocks{m / config.batch, k / config.block_in, n / config.block_out}, options);
  if (!t.ok()) return t.status();
  return VtaMatmulTiling{t->tm, t->tn, t->tk};
}

absl::StatusOr<VtaProgram> BuildMatmulProgram(const VtaConfig& config, int64_t m, int64_t k,
                                              int64_t n, const VtaMatmulLayout& layout,
                                              const VtaMatmulOptions& options) {
  if (absl::Status s = CheckDimensions(config, m, k, n); !s.ok()) return s;
  if (options.shift < 0 || options.shift > 31) {
    return absl::InvalidArgumentError(
        absl::StrCat("matmul shift ", options.shift, " is outside 0..31"));
  }
  if (options.buffers != 1 && options.buffers != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("matmul buffers must be 1 or 2, got ", options.buffers));
  }
  if (options.buffers > config.queue_depth) {
    return absl::InvalidArgumentError("matmul: queue_depth is smaller than the buffers in flight");
  }
  for (auto [name, offset, bytes] : {std::tuple<absl::string_view, uint64_t, int64_t>{
                                         "a_offset", layout.a_offset, config.InputEntryBytes()},
                                     {"b_offset", layout.b_offset, config.WeightEntryBytes()},
                                     {"c_offset", layout.c_offset, config.OutputEntryBytes()},
                                     {"uop_offset", layout.uop_offset, kVtaUopBytes}}) {
    if (absl::Status s = CheckOffset(name, offset, bytes); !s.ok()) return s;
  }
  const Blocks b{m / config.batch, k / config.block_in, n / config.block_out};
  absl::StatusOr<Tiling> tiling = ChooseTiling(config, b, options);
  if (!tiling.ok()) return tiling.status();
  const Tiling t = *tiling;
  const int buffers = options.buffers;

  VtaProgram program;
  // The micro-op table: region r's first entry (reset, ALU), then the GEMM's tk micro-ops for
  // each (copy h of the input and weight tiles, region r).
  for (int r = 0; r < buffers; ++r)
    program.AddUop(VtaUop{static_cast<uint32_t>(r * t.tm * t.tn), 0, 0});
  const auto gemm_uops = [&](int h, int r) {
    return static_cast<uint32_t>(buffers + (int64_t{h} * buffers + r) * t.tk);
  };
  for (int h = 0; h < buffers; ++h) {
    for (int r = 0; r < buffers; ++r) {
      for (int64_t kk = 0; kk < t.tk; ++kk) {
        program.AddUop(VtaUop{static_cast<uint32_t>(r * t.tm * t.tn),
                              static_cast<uint32_t>(h * t.tm * t.tk + kk),
                              static_cast<uint32_t>(h * t.tn * t.tk + kk)});
      }
    }
  }
  const int64_t uop_count = static_cast<int64_t>(program.uops().size());
  program.Load(VtaBuffer::kUop,
               Shape(0, layout.uop_offset / kVtaUopBytes, 1, uop_count, uop_count));

  const uint64_t a_base = layout.a_offset / config.InputEntryBytes();
  const uint64_t b_base = layout.b_offset / config.WeightEntryBytes();
  const uint64_t c_base = layout.c_offset / config.OutputEntryBytes();
  const int64_t tiles = (b.mb / t.tm) * (b.nb / t.tn);
  const int64_t chunks = tiles * (b.kb / t.tk);
  int64_t tile = 0, chunk = 0;
  for (int64_t m0 = 0; m0 < b.mb; m0 += t.tm) {
    for (int64_t n0 = 0; n0 < b.nb; n0 += t.tn, ++tile) {
      const int r = static_cast<int>(tile % buffers);
      const uint32_t region = static_cast<uint32_t>(r * t.tm * t.tn);
      // Zero the region once the store of the tile that used it last is done.
      VtaGemm reset;
      reset.reset = true;
      reset.loop = VtaUopLoop{static_cast<uint32_t>(r), static_cast<uint32_t>(r) + 1,
                              static_cast<uint32_t>(t.tm), static_cast<uint32_t>(t.tn)};
      reset.acc_factor_outer = static_cast<uint32_t>(t.tn);
      reset.acc_factor_inner = 1;
      reset.dep.pop_next = tile >= buffers;
      program.Append(reset);
      for (int64_t k0 = 0; k0 < b.kb; k0 += t.tk, ++chunk) {
        const int h = static_cast<int>(chunk % buffers);
        // The load waits until the GEMM that read this copy `buffers` chunks ago is done.
        program.Load(VtaBuffer::kInput,
                     Shape(h * t.tm * t.tk, a_base + m0 * b.kb + k0, t.tm, t.tk, b.kb),
                     VtaDependence{.pop_next = chunk >= buffers});
        program.Load(VtaBuffer::kWeight,
                     Shape(h * t.tn * t.tk, b_base + n0 * b.kb + k0, t.tn, t.tk, b.kb),
                     VtaDependence{.push_next = true});
        VtaGemm gemm;
        gemm.loop = VtaUopLoop{gemm_uops(h, r), gemm_uops(h, r) + static_cast<uint32_t>(t.tk),
                               static_cast<uint32_t>(t.tm), static_cast<uint32_t>(t.tn)};
        gemm.acc_factor_outer = static_cast<uint32_t>(t.tn);
        gemm.acc_factor_inner = 1;
        gemm.inp_factor_outer = static_cast<uint32_t>(t.tk);
        gemm.wgt_factor_inner = static_cast<uint32_t>(t.tk);
        // The last `buffers` copies are never loaded again: nobody would pop their tokens.
        gemm.dep = VtaDependence{.pop_prev = true, .push_prev = chunk < chunks - buffers};
        program.Append(gemm);
      }
      program.Append(Clamp(VtaAluOp::kShr, static_cast<int16_t>(options.shift), r, t));
      program.Append(Clamp(VtaAluOp::kMax, -128, r, t));
      VtaAlu min = Clamp(VtaAluOp::kMin, 127, r, t);
      min.dep.push_next = true;
      program.Append(min);
      program.Store(Shape(region, c_base + m0 * b.nb + n0, t.tm, t.tn, b.nb),
                    VtaDependence{.pop_prev = true, .push_prev = tile < tiles - buffers});
    }
  }
  program.Finish();
  return program;
}

std::vector<int8_t> PackMatmulInput(const VtaConfig& config, const std::vector<int8_t>& a,
                                    int64_t m, int64_t k) {
  const int64_t batch = config.batch, bi = config.block_in;
  std::vector<int8_t> out(a.size());
  for (int64_t row = 0; row < m; ++row) {
    for (int64_t col = 0; col < k; ++col) {
      const int64_t entry = (row / batch) * (k / bi) + col / bi;
      out[entry * batch * bi + (row % batch) * bi + col % bi] = a[row * k + col];
    }
  }
  return out;
}

std::vector<int8_t> PackMatmulWeight(const VtaConfig& config, const std::vector<int8_t>& b,
                                     int64_t n, int64_t k) {
  const int64_t bo = config.block_out, bi = config.block_in;
  std::vector<int8_t> out(b.size());
  for (int64_t row = 0; row < n; ++row) {
    for (int64_t col = 0; col < k; ++col) {
      const int64_t tile = (row / bo) * (k / bi) + col / bi;
      out[tile * bo * bi + (row % bo) * bi + col % bi] = b[row * k + col];
    }
  }
  return out;
}

std::vector<int8_t> UnpackMatmulOutput(const VtaConfig& config, absl::Span<const uint8_t> c_entries,
                                       int64_t m, int64_t n) {
  const int64_t batch = config.batch, bo = config.block_out;
  std::vector<int8_t> out(static_cast<size_t>(m * n));
  for (int64_t row = 0; row < m; ++row) {
    for (int64_t col = 0; col < n; ++col) {
      const int64_t entry = (row / batch) * (n / bo) + col / bo;
      out[row * n + col] =
          static_cast<int8_t>(c_entries[entry * batch * bo + (row % batch) * bo + col % bo]);
    }
  }
  return out;
}

}  // namespace tunefarm::runtime::vta
