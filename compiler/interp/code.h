// Compiled code: the interpreter turns IR into a tree of ExprCode / StmtCode objects once per
// function, with variables resolved to frame slots and types resolved to specialized classes,
// so that running a loop does no map lookups and no type dispatch beyond one virtual call a node.
#pragma once

#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "compiler/interp/frame.h"
#include "compiler/interp/value.h"

namespace tunefarm::interp {

// A compiled expression of `lanes` lanes. Errors (an out-of-bounds load, a division by zero) are
// recorded on the frame and evaluation goes on with an unspecified value; statements check
// `Frame::failed()` before any side effect.
class ExprCode {
 public:
  explicit ExprCode(int lanes) : lanes_(lanes) {}
  virtual ~ExprCode() = default;
  ExprCode(const ExprCode&) = delete;
  ExprCode& operator=(const ExprCode&) = delete;

  int lanes() const { return lanes_; }
  // The value of a scalar (1-lane) expression.
  virtual Lane Scalar(Frame& f) const = 0;
  // All lanes into out[0, lanes). The default serves scalar expressions.
  virtual void Vector(Frame& f, Lane* out) const { out[0] = Scalar(f); }
  // Leaves report what they read, so that their parents can read it inline (see Operand).
  virtual bool IsSlot(int* /*slot*/) const { return false; }
  virtual bool IsConst(Lane* /*value*/) const { return false; }

 private:
  const int lanes_;
};

// A scalar operand of a compound node. Variables and constants, the most common operands, are
// read inline: the virtual call per leaf is most of a tree-walking interpreter's time.
class Operand {
 public:
  explicit Operand(const ExprCode* code) : code_(code) {
    if (code->lanes() != 1) return;
    if (code->IsSlot(&slot_)) {
      kind_ = Kind::kSlot;
    } else if (code->IsConst(&value_)) {
      kind_ = Kind::kConst;
    }
  }
  Lane Get(Frame& f) const {
    switch (kind_) {
      case Kind::kSlot:
        return f.slots[slot_];
      case Kind::kConst:
        return value_;
      default:
        return code_->Scalar(f);
    }
  }
  const ExprCode* code() const { return code_; }

 private:
  enum class Kind : uint8_t { kCode, kSlot, kConst };
  Kind kind_ = Kind::kCode;
  int slot_ = 0;
  Lane value_{};
  const ExprCode* code_;
};

// A compiled statement. `Run` executes it to completion for one thread. A statement that
// contains a barrier is also run for all threads of a block together (`RunThreads`), which
// interleaves the threads only at barriers (see thread_scheduler.cc).
class StmtCode {
 public:
  explicit StmtCode(bool has_barrier) : has_barrier_(has_barrier) {}
  virtual ~StmtCode() = default;
  StmtCode(const StmtCode&) = delete;
  StmtCode& operator=(const StmtCode&) = delete;

  bool has_barrier() const { return has_barrier_; }
  virtual void Run(Frame& f) const = 0;
  // Only called when has_barrier(); the default runs each thread in turn.
  virtual void RunThreads(ThreadSet threads) const;

 private:
  const bool has_barrier_;
};

// Owns the code objects of one compiled function.
class CodeArena {
 public:
  template <typename T, typename... Args>
  T* New(Args&&... args) {
    auto node = std::make_unique<T>(std::forward<Args>(args)...);
    T* raw = node.get();
    if constexpr (std::is_base_of_v<ExprCode, T>) {
      exprs_.push_back(std::move(node));
    } else {
      static_assert(std::is_base_of_v<StmtCode, T>);
      stmts_.push_back(std::move(node));
    }
    return raw;
  }

 private:
  std::vector<std::unique_ptr<ExprCode>> exprs_;
  std::vector<std::unique_ptr<StmtCode>> stmts_;
};

}  // namespace tunefarm::interp
