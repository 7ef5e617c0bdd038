// Compiled statements. `Run` (exec_stmt.cc) executes one thread; the barrier-aware `RunThreads`
// of the statements that may contain a barrier, and the thread and block launches, live in
// thread_scheduler.cc. Stores are in memory_code.h.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "compiler/interp/code.h"

namespace tunefarm::interp {

class SeqCode final : public StmtCode {
 public:
  explicit SeqCode(std::vector<const StmtCode*> seq);
  void Run(Frame& f) const override;
  void RunThreads(ThreadSet threads) const override;

 private:
  // Maximal runs of barrier-free statements, and each barrier-containing statement alone: each
  // thread runs a barrier-free run to its end before the next thread starts it.
  struct Segment {
    std::vector<const StmtCode*> stmts;
    bool has_barrier = false;
  };
  const std::vector<const StmtCode*> seq_;
  std::vector<Segment> segments_;
};

// A serial loop (every ForKind that is not a thread binding runs this way).
class ForCode final : public StmtCode {
 public:
  ForCode(int slot, ir::DataType type, const ExprCode* min, const ExprCode* extent,
          const StmtCode* body)
      : StmtCode(body->has_barrier()),
        slot_(slot),
        shift_(ShiftOf(type)),
        signed_(type.is_int()),
        min_(min),
        extent_(extent),
        body_(body) {}
  void Run(Frame& f) const override;
  void RunThreads(ThreadSet threads) const override;

 private:
  int64_t LoopValue(int64_t min, int64_t i) const {
    const uint64_t v = static_cast<uint64_t>(min) + static_cast<uint64_t>(i);
    return signed_ ? WrapSigned(v, shift_) : WrapUnsigned(v, shift_);
  }
  const int slot_;
  const int shift_;
  const bool signed_;
  const ExprCode* min_;
  const ExprCode* extent_;
  const StmtCode* body_;
};

class LetStmtCode final : public StmtCode {
 public:
  LetStmtCode(int slot, const ExprCode* value, const StmtCode* body)
      : StmtCode(body->has_barrier()), slot_(slot), value_(value), body_(body) {}
  void Run(Frame& f) const override;
  void RunThreads(ThreadSet threads) const override;

 private:
  const int slot_;
  const ExprCode* value_;
  const StmtCode* body_;
};

class IfCode final : public StmtCode {
 public:
  IfCode(const ExprCode* condition, const StmtCode* then_case, const StmtCode* else_case)
      : StmtCode(then_case->has_barrier() || (else_case && else_case->has_barrier())),
        condition_(condition),
        then_(then_case),
        else_(else_case) {}
  void Run(Frame& f) const override;
  void RunThreads(ThreadSet threads) const override;

 private:
  const ExprCode* condition_;
  const StmtCode* then_;
  const StmtCode* else_;  // may be null
};

class AssertCode final : public StmtCode {
 public:
  AssertCode(const ExprCode* condition, std::string message, const StmtCode* body)
      : StmtCode(body->has_barrier()),
        condition_(condition),
        message_(std::move(message)),
        body_(body) {}
  void Run(Frame& f) const override;
  void RunThreads(ThreadSet threads) const override;

 private:
  const ExprCode* condition_;
  const std::string message_;
  const StmtCode* body_;
};

// Evaluates an expression for its errors only (a nop when `value` is null).
class EvaluateCode final : public StmtCode {
 public:
  explicit EvaluateCode(const ExprCode* value) : StmtCode(false), value_(value) {}
  void Run(Frame& f) const override;

 private:
  const ExprCode* value_;
};

// sync_threads(): nothing to do for one thread; among threads, SeqCode ends a segment here.
class BarrierCode final : public StmtCode {
 public:
  BarrierCode() : StmtCode(true) {}
  void Run(Frame&) const override {}
  void RunThreads(ThreadSet) const override {}
};

enum class MemScope : uint8_t { kGlobal, kShared, kLocal };

// What Allocate and BufferRealize have in common: how to get storage for one execution.
struct AllocSpec {
  std::string name;
  int elem_bytes = 0;
  MemScope scope = MemScope::kGlobal;
  int shared_id = -1;  // index into BlockContext::shared, for kShared
};

// Storage for one execution of an allocation by `f`: the block's (made on first use, the same for
// every thread) for shared scope, else a fresh one made into `owned`. nullptr after reporting.
uint8_t* AcquireStorage(Frame& f, const AllocSpec& spec, int64_t count, Storage* owned);

class AllocateCode final : public StmtCode {
 public:
  AllocateCode(int slot, AllocSpec spec, std::vector<const ExprCode*> extents, const StmtCode* body)
      : StmtCode(body->has_barrier()),
        slot_(slot),
        spec_(std::move(spec)),
        extents_(std::move(extents)),
        body_(body) {}
  void Run(Frame& f) const override;
  void RunThreads(ThreadSet threads) const override;

 private:
  // Product of the extents; -1 after reporting an error.
  int64_t Count(Frame& f) const;
  BufferView View(uint8_t* data, int64_t count) const;
  const int slot_;
  const AllocSpec spec_;
  const std::vector<const ExprCode*> extents_;
  const StmtCode* body_;
};

// BufferRealize: storage for the region [min, min + extent) of each dimension, seen through a
// TensorView (and through the buffer's data variable, for flat accesses). Realizing a parameter
// only checks that the region lies inside it.
class RealizeCode final : public StmtCode {
 public:
  struct Bound {
    const ExprCode* min;
    const ExprCode* extent;
  };
  RealizeCode(int tensor_slot, int buffer_slot, bool is_param, AllocSpec spec,
              std::vector<Bound> bounds, const StmtCode* body)
      : StmtCode(body->has_barrier()),
        tensor_slot_(tensor_slot),
        buffer_slot_(buffer_slot),
        is_param_(is_param),
        spec_(std::move(spec)),
        bounds_(std::move(bounds)),
        body_(body) {}
  void Run(Frame& f) const override;
  void RunThreads(ThreadSet threads) const override;

 private:
  // Evaluates the bounds into region[0, ndim) = mins and region[ndim, 2 ndim) = extents, and
  // binds the storage; false after reporting an error.
  bool Bind(Frame& f, std::vector<int64_t>& region, Storage* owned) const;
  const int tensor_slot_;
  const int buffer_slot_;
  const bool is_param_;
  const AllocSpec spec_;
  const std::vector<Bound> bounds_;
  const StmtCode* body_;
};

// A thread_extent attribute or a thread-binding loop: runs `body` once per block (blockIdx.*)
// or launches `extent` threads (threadIdx.*), binding the variable to `min` + the index. Inside
// a launch of the same tag it only binds the variable to the running thread's index.
class ThreadLaunchCode final : public StmtCode {
 public:
  ThreadLaunchCode(int tag, int slot, const ExprCode* min, const ExprCode* extent,
                   const StmtCode* body)
      : StmtCode(body->has_barrier()),
        tag_(tag),
        slot_(slot),
        min_(min),
        extent_(extent),
        body_(body) {}
  void Run(Frame& f) const override;
  void RunThreads(ThreadSet threads) const override;

 private:
  bool IsBlock() const { return tag_ < kFirstThreadIdxTag; }
  // Evaluates min and extent; false after reporting an error.
  bool Range(Frame& f, int64_t* min, int64_t* extent) const;
  void RunBlocks(Frame& f, int64_t min, int64_t extent) const;
  void Rebind(ThreadSet threads, int64_t min, int64_t extent) const;
  const int tag_;
  const int slot_;
  const ExprCode* min_;  // may be null: 0
  const ExprCode* extent_;
  const StmtCode* body_;
};

}  // namespace tunefarm::interp
