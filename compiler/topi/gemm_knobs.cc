#include "compiler/topi/gemm_knobs.h"

#include <algorithm>
#include <vector>

#include "compiler/topi/common_knobs.h"
#include "compiler/topi/loop_tiling.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {
namespace {

constexpr const char* kOp = "gemm knobs";

// Multiples of the register tile a cache block may hold (the default's 16 tiles is among them).
constexpr int64_t kBlockTiles[] = {1, 2, 4, 8, 16, 32};

}  // namespace

absl::Status DefineGemmKnobs(space::ConfigSpace& space, int64_t batch, int64_t m, int64_t n,
                             int64_t k, const CpuInfo& cpu, WeightLayout layout,
                             int64_t packed_block) {
  if (batch <= 0 || m <= 0 || n <= 0 || k <= 0 || packed_block < 0) {
    return absl::InvalidArgumentError("gemm knobs: batch, m, n and k must be positive");
  }
  const int64_t lanes = cpu.Lanes(4);
  const bool packed = packed_block > 0;
  if (packed && (batch != 1 || packed_block % lanes != 0 || n % packed_block != 0)) {
    return absl::InvalidArgumentError(
        "gemm knobs: a weight packed at build time needs one batch, a block of whole vectors and "
        "N a multiple of it");
  }
  const GemmScheduleConfig def = packed ? DefaultPackedGemmConfig(m, n, k, cpu, packed_block)
                                        : DefaultGemmConfig(batch, m, n, k, cpu, layout);
  const int registers = cpu.vector_registers;

  // One-row tiles only for short matrices: elsewhere their few accumulators cannot cover the
  // FMA latency.
  const std::vector<int64_t> reg_m = KnobValues(
      {1, 2, 3, 4, 5, 6, 8}, def.reg_m, [&](int64_t v) { return v <= m && (v > 1 || m < 8); });
  const std::vector<int64_t> reg_n_vectors =
      packed ? std::vector<int64_t>{packed_block / lanes}
             : KnobValues({1, 2, 3, 4}, def.reg_n_vectors,
                          [&](int64_t v) { return v == 1 || v * lanes <= n; });
  std::vector<int64_t> tile_m_candidates;
  for (int64_t r : reg_m) {
    for (int64_t t : kBlockTiles) tile_m_candidates.push_back(r * t);
  }
  const std::vector<int64_t> tile_m = KnobValues(tile_m_candidates, def.tile_m, [&](int64_t v) {
    for (int64_t r : reg_m) {
      if (v % r == 0 && v <= RoundUpTo(m, r)) return true;
    }
    return false;
  });
  std::vector<int64_t> tile_n_candidates;
  for (int64_t t : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32}) tile_n_candidates.push_back(lanes * t);
  const std::vector<int64_t> tile_n = KnobValues(tile_n_candidates, def.tile_n, [&](int64_t v) {
    for (int64_t rv : reg_n_vectors) {
      if (v % (rv * lanes) == 0 && v <= RoundUpTo(n, rv * lanes)) return true;
    }
    return false;
  });
  // 0 (all of K) goes with the register accumulator, a k block with the cache-block one.
  const std::vector<int64_t> tile_k =
      KnobValues({0, 16, 128}, def.tile_k, [&](int64_t v) { return v < k; });
  const std::vector<int64_t> unroll_k =
      KnobValues({1, 4}, def.unroll_k, [&](int64_t v) { return v <= k; });

  std::vector<absl::Status> defined = {
      DefineIntKnob(space, "reg_m", reg_m),
      DefineIntKnob(space, "reg_n_vectors", reg_n_vectors),
      DefineIntKnob(space, "tile_m", tile_m),
      DefineIntKnob(space, "tile_n", tile_n),
      space.DefineChoice("accumulator", {"register", "cache_block"}),
      DefineIntKnob(space, "tile_k", tile_k),
      space.DefineChoice("order", {"mn", "nm"}),
      DefineFlagKnob(space, "pack_weight", !packed, def.pack_weight),
      DefineFlagKnob(space, "pack_weight_at_block", !packed, def.pack_weight_at_block),
      DefineFlagKnob(space, "pack_input", !packed, def.pack_input),
      DefineIntKnob(space, "unroll_k", unroll_k),
      DefineFlagKnob(space, "parallel", true, def.parallel),
  };
  for (const absl::Status& st : defined) {
    if (!st.ok()) return st;
  }

  KnobView v_reg_m, v_reg_nv, v_tile_m, v_tile_n, v_acc, v_tile_k, v_pack, v_pack_block;
  if (absl::Status st = ViewKnobs(space, {{"reg_m", &v_reg_m},
                                          {"reg_n_vectors", &v_reg_nv},
                                          {"tile_m", &v_tile_m},
                                          {"tile_n", &v_tile_n},
                                          {"accumulator", &v_acc},
                                          {"tile_k", &v_tile_k},
                                          {"pack_weight", &v_pack},
                                          {"pack_weight_at_block", &v_pack_block}});
      !st.ok()) {
    return st;
  }
  std::vector<absl::Status> constrained = {
      space.AddConstraint("register tile fits the vector registers",
                          [=](const space::Config& c) {
                            const int64_t nv = v_reg_nv.Int(c);
                            return FitsRegisters(v_reg_m.Int(c) * nv, nv, registers);
                          }),
      space.AddConstraint("tile_m is whole register tiles within M",
                          [=](const space::Config& c) {
                            const int64_t r = v_reg_m.Int(c), t = v_tile_m.Int(c);
                            return t % r == 0 && t <= RoundUpTo(m, r);
                          }),
      space.AddConstraint("tile_n is whole register tiles within N",
                          [=](const space::Config& c) {
                            const int64_t r = v_reg_nv.Int(c) * lanes, t = v_tile_n.Int(c);
                            return t % r == 0 && t <= RoundUpTo(n, r);
                          }),
      space.AddConstraint("tile_k 0 exactly with the register accumulator",
                          [=](const space::Config& c) {
                            return v_acc.Is(c, "register") == (v_tile_k.Int(c) == 0);
                          }),
      space.AddConstraint(
          "pack_weight_at_block needs pack_weight",
          [=](const space::Config& c) { return v_pack_block.Int(c) == 0 || v_pack.Int(c) != 0; }),
  };
  for (const absl::Status& st : constrained) {
    if (!st.ok()) return st;
  }
  return absl::OkStatus();
}

absl::StatusOr<GemmScheduleConfig> GemmConfigFromKnobs(const space::Config& config,
                                                       const CpuInfo& cpu) {
  KnobReader r(config);
  GemmScheduleConfig c;
  c.vector_lanes = cpu.Lanes(4);
  c.reg_m = r.Int("reg_m");
  c.reg_n_vectors = r.Int("reg_n_vectors");
  c.tile_m = r.Int("tile_m");
  c.tile_n = r.Int("tile_n");
  c.accumulator = r.Name("accumulator") == "register" ? GemmAccumulator::kRegisterTile
                                                      : GemmAccumulator::kCacheBlock;
  c.tile_k = r.Int("tile_k");
  c.order = r.Name("order") == "mn" ? GemmBlockOrder::kMN : GemmBlockOrder::kNM;
  c.pack_weight = r.Flag("pack_weight");
  c.pack_weight_at_block = r.Flag("pack_weight_at_block");
  c.pack_input = r.Flag("pack_input");
  c.unroll_k = r.Int("unroll_k");
  c.parallel = r.Flag("parallel");
  if (!r.ok()) return r.status();
  return c;
}

absl::StatusOr<space::Config> GemmKnobsFromConfig(const space::ConfigSpace& space,
                                                  const GemmScheduleConfig& c) {
  const bool register_acc = c.accumulator == GemmAccumulator::kRegisterTile;
  return NearestConfig(space,
                       {{"reg_m", c.reg_m},
                        {"reg_n_vectors", c.reg_n_vectors},
                        {"tile_m", c.tile_m},
                        {"tile_n", c.tile_n},
                        {"accumulator", register_acc ? "register" : "cache_block"},
                        {"tile_k", register_acc ? 0 : c.tile_k},
                        {"order", c.order == GemmBlockOrder::kMN ? "mn" : "nm"},
                        {"pack_weight", int64_t{c.pack_weight}},
                        {"pack_weight_at_block", int64_t{c.pack_weight && c.pack_weight_at_block}},
                        {"pack_input", int64_t{c.pack_input}},
                        {"unroll_k", c.unroll_k},
                        {"parallel", int64_t{c.parallel}}},
                       kOp);
}

}  // namespace tunefarm::topi
