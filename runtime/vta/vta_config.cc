#include "runtime/vta/vta_config.h"

#include <cstdint>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "runtime/vta/vta_isa.h"

namespace tunefarm::runtime::vta {
namespace {

absl::Status CheckPositive(absl::string_view name, int64_t value) {
  if (value > 0) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("VTA config: ", name, " must be positive, got ", value));
}

// A buffer must hold whole entries, and the encoding (vta_isa.h) must reach each of them.
absl::Status CheckBuffer(absl::string_view name, int64_t bytes, int64_t entry_bytes,
                         uint32_t max_entries) {
  if (bytes <= 0 || bytes % entry_bytes != 0) {
    return absl::InvalidArgumentError(absl::StrCat("VTA config: ", name, " (", bytes,
                                                   " bytes) must be a positive multiple of its ",
                                                   entry_bytes, "-byte entries"));
  }
  if (bytes / entry_bytes > max_entries) {
    return absl::InvalidArgumentError(absl::StrCat("VTA config: ", name, " has ",
                                                   bytes / entry_bytes,
                                                   " entries; micro-ops "
                                                   "address at most ",
                                                   max_entries));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateVtaConfig(const VtaConfig& config) {
  for (auto [name, value] : {std::pair<absl::string_view, int64_t>{"batch", config.batch},
                             {"block_in", config.block_in},
                             {"block_out", config.block_out},
                             {"uop_buffer_entries", config.uop_buffer_entries},
                             {"dma_bytes_per_cycle", config.dma_bytes_per_cycle},
                             {"queue_depth", config.queue_depth}}) {
    if (absl::Status s = CheckPositive(name, value); !s.ok()) return s;
  }
  for (auto [name, value] : {std::pair<absl::string_view, int64_t>{
                                 "load_store_overhead_cycles", config.load_store_overhead_cycles},
                             {"gemm_overhead_cycles", config.gemm_overhead_cycles},
                             {"alu_overhead_cycles", config.alu_overhead_cycles}}) {
    if (value < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("VTA config: ", name, " must not be negative, got ", value));
    }
  }
  // Entries of 2^16 bytes at most keep every DRAM byte offset (entry index < 2^33) in 49 bits.
  if (config.batch > 256 || config.block_in > 256 || config.block_out > 256) {
    return absl::InvalidArgumentError("VTA config: batch, block_in and block_out are at most 256");
  }
  if (absl::Status s = CheckBuffer("input_buffer_bytes", config.input_buffer_bytes,
                                   config.InputEntryBytes(), kVtaMaxInputEntries);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckBuffer("weight_buffer_bytes", config.weight_buffer_bytes,
                                   config.WeightEntryBytes(), kVtaMaxWeightEntries);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckBuffer("acc_buffer_bytes", config.acc_buffer_bytes,
                                   config.AccEntryBytes(), kVtaMaxAccEntries);
      !s.ok()) {
    return s;
  }
  if (config.uop_buffer_entries > kVtaMaxUopEntries) {
    return absl::InvalidArgumentError(
        absl::StrCat("VTA config: uop_buffer_entries ", config.uop_buffer_entries,
                     " exceeds what GEMM and ALU address (", kVtaMaxUopEntries, ")"));
  }
  return absl::OkStatus();
}

}  // namespace tunefarm::runtime::vta
