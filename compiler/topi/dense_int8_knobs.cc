#include "compiler/topi/dense_int8_knobs.h"

#include <vector>

#include "compiler/topi/common_knobs.h"

namespace tunefarm::topi {

absl::Status DefineDenseInt8Knobs(space::ConfigSpace& space, int64_t m, int64_t n, int64_t k,
                                  const CpuInfo& cpu) {
  if (m <= 0 || n <= 0 || k <= 0 || k % 4 != 0) {
    return absl::InvalidArgumentError(
        "dense_int8 knobs: m, n and k must be positive and k a multiple of 4");
  }
  const DenseInt8Config def = DefaultDenseInt8Config(m, n, k, cpu);
  const std::vector<int64_t> reg_m =
      KnobValues({1, 2, 3, 4, 6, 8}, def.reg_m, [&](int64_t v) { return v <= m; });
  const std::vector<int64_t> reg_n_vectors = KnobValues(
      {1, 2, 3, 4}, def.reg_n_vectors, [&](int64_t v) { return v == 1 || v * def.lanes <= n; });
  const std::vector<int64_t> unroll_k =
      KnobValues({1, 2, 4}, def.unroll_k, [&](int64_t v) { return v <= k / 4; });
  std::vector<absl::Status> defined = {
      DefineIntKnob(space, "reg_m", reg_m),
      DefineIntKnob(space, "reg_n_vectors", reg_n_vectors),
      DefineIntKnob(space, "unroll_k", unroll_k),
      DefineFlagKnob(space, "parallel", true, def.parallel),
  };
  for (const absl::Status& st : defined) {
    if (!st.ok()) return st;
  }
  KnobView v_reg_m, v_reg_nv;
  if (absl::Status st = ViewKnobs(space, {{"reg_m", &v_reg_m}, {"reg_n_vectors", &v_reg_nv}});
      !st.ok()) {
    return st;
  }
  const int registers = cpu.vector_registers;
  return space.AddConstraint("register tile fits the vector registers",
                             [=](const space::Config& c) {
                               const int64_t nv = v_reg_nv.Int(c);
                               return FitsRegisters(v_reg_m.Int(c) * nv, nv, registers);
                             });
}

absl::StatusOr<DenseInt8Config> DenseInt8ConfigFromKnobs(const space::Config& config,
                                                         const CpuInfo& cpu) {
  KnobReader r(config);
  DenseInt8Config c;
  c.lanes = DefaultDenseInt8Config(1, 1, 4, cpu).lanes;
  c.reg_m = r.Int("reg_m");
  c.reg_n_vectors = r.Int("reg_n_vectors");
  c.unroll_k = r.Int("unroll_k");
  c.parallel = r.Flag("parallel");
  if (!r.ok()) return r.status();
  return c;
}

absl::StatusOr<space::Config> DenseInt8KnobsFromConfig(const space::ConfigSpace& space,
                                                       const DenseInt8Config& c) {
  return NearestConfig(space,
                       {{"reg_m", c.reg_m},
                        {"reg_n_vectors", c.reg_n_vectors},
                        {"unroll_k", c.unroll_k},
                        {"parallel", int64_t{c.parallel}}},
                       "dense_int8 knobs");
}

}  // namespace tunefarm::topi
