// The parameters of the simulated VTA-shaped accelerator: the GEMM core's shape, the on-chip
// buffers' sizes and the costs of the cycle model. One struct, so a variant is one value.
#pragma once

#include <cstdint>

#include "absl/status/status.h"

namespace tunefarm::runtime::vta {

struct VtaConfig {
  // The GEMM core multiplies a batch x block_in int8 input by a block_out x block_in int8 weight
  // tile (transposed) into batch x block_out int32 accumulators, once per cycle.
  int batch = 1;
  int block_in = 16;
  int block_out = 16;

  // Scratchpads, in bytes. Each holds whole entries: an input entry is batch x block_in int8, a
  // weight entry one block_out x block_in int8 tile, an accumulator entry batch x block_out
  // int32. The output buffer (batch x block_out int8 entries) has as many entries as the
  // accumulator, one narrowed copy of each.
  int64_t input_buffer_bytes = 32 * 1024;
  int64_t weight_buffer_bytes = 256 * 1024;
  int64_t acc_buffer_bytes = 128 * 1024;
  // Micro-ops the compute module can hold (each 4 bytes in DRAM, see vta_isa.h).
  int64_t uop_buffer_entries = 8192;

  // DMA: bytes moved between DRAM and a scratchpad per cycle, for LOAD and STORE alike.
  int64_t dma_bytes_per_cycle = 8;
  // Fixed cycles of each instruction before its data moves or its first micro-op runs: decode,
  // address setup, the DMA request's latency.
  int64_t load_store_overhead_cycles = 16;
  int64_t gemm_overhead_cycles = 4;
  int64_t alu_overhead_cycles = 4;

  // Tokens each of the four dependence queues holds; a push onto a full queue is an error.
  int queue_depth = 16;

  int64_t InputEntryBytes() const { return int64_t{batch} * block_in; }
  int64_t WeightEntryBytes() const { return int64_t{block_out} * block_in; }
  int64_t AccEntryBytes() const { return int64_t{batch} * block_out * 4; }
  int64_t OutputEntryBytes() const { return int64_t{batch} * block_out; }
  int64_t InputEntries() const { return input_buffer_bytes / InputEntryBytes(); }
  int64_t WeightEntries() const { return weight_buffer_bytes / WeightEntryBytes(); }
  int64_t AccEntries() const { return acc_buffer_bytes / AccEntryBytes(); }
  int64_t OutputEntries() const { return AccEntries(); }
  // Multiply-accumulates of one GEMM micro-op execution.
  int64_t MacsPerGemmUop() const { return int64_t{batch} * block_in * block_out; }
};

// InvalidArgument naming the first parameter that is not positive, or a buffer that is not a
// whole number of its entries, or one larger than the instruction encoding can address.
absl::Status ValidateVtaConfig(const VtaConfig& config);

}  // namespace tunefarm::runtime::vta
