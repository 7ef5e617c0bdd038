// Expression nodes of the IR and the handles that hold them.
//
// Meaning of the IR, written down once:
// - Integer arithmetic wraps in two's complement at the type's width. `Div`/`Mod` truncate toward
//   zero (C semantics); `FloorDiv`/`FloorMod` round toward negative infinity, and the result of
//   FloorMod has the sign of the divisor. Division by zero is undefined; the simplifier never
//   folds it and the interpreter reports it.
// - Operands are evaluated left to right and have no side effects, except `Call` to an intrinsic
//   marked impure (none yet besides barriers, which only appear in `Evaluate`).
// - `likely(c)` is `c`, with a hint that c is almost always true: it marks the guard a split
//   that does not divide evenly leaves behind, so codegen can peel the loop.
// - `if_then_else(c, a, b)` evaluates only the chosen operand (unlike `Select`), so it may guard
//   an out-of-bounds read, as padding does.
// - Vector values have `lanes` > 1; `Ramp(base, stride, n)` is [base, base+stride, ...] and
//   `Broadcast(v, n)` repeats v; arithmetic on vectors is lane-wise.
// - `BufferLoad` reads a multi-dimensional tensor and exists until storage flattening, after
//   which every access is a flat `Load` of a buffer variable at an element index.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/ir/node_list.h"
#include "compiler/ir/type.h"

namespace tunefarm::ir {

enum class ExprKind : uint8_t {
#define TF_DECLARE_KIND(Name) k##Name,
  TF_IR_EXPR_NODES(TF_DECLARE_KIND)
#undef TF_DECLARE_KIND
};

// Every expression node: immutable once made, shared by reference-counted handles.
struct ExprNode {
  ExprNode(ExprKind kind, DataType dtype) : kind(kind), dtype(dtype) {}
  virtual ~ExprNode() = default;
  const ExprKind kind;
  const DataType dtype;
};

// A nullable handle to an immutable expression node. `As<T>()` checks the kind byte.
class Expr {
 public:
  Expr() = default;
  explicit Expr(std::shared_ptr<const ExprNode> node) : node_(std::move(node)) {}
  // Integer and float literals become int32 / float32 immediates.
  Expr(int value);      // NOLINT(google-explicit-constructor): lets `x + 1` read naturally.
  Expr(int64_t value);  // NOLINT
  Expr(double value);   // NOLINT
  Expr(float value);    // NOLINT

  bool defined() const { return node_ != nullptr; }
  const ExprNode* get() const { return node_.get(); }
  const ExprNode* operator->() const { return node_.get(); }
  DataType dtype() const { return node_->dtype; }
  ExprKind kind() const { return node_->kind; }
  template <typename T>
  const T* As() const {
    return node_ && node_->kind == T::kKind ? static_cast<const T*>(node_.get()) : nullptr;
  }
  // Same node (not structural equality: see structural_equal.h).
  bool same_as(const Expr& other) const { return node_ == other.node_; }
  const std::shared_ptr<const ExprNode>& node_ptr() const { return node_; }

 private:
  std::shared_ptr<const ExprNode> node_;
};

struct VarNode;

// A variable: identity is the node itself; the name is only a hint for printing.
class Var : public Expr {
 public:
  Var() = default;
  explicit Var(std::string name, DataType dtype = DataType::Int(32));
  explicit Var(std::shared_ptr<const VarNode> node);
  const VarNode* get() const;
  const VarNode* operator->() const { return get(); }
  const std::string& name() const;
};

// Hash / equality by identity, for maps keyed by variables.
struct VarHash {
  size_t operator()(const Var& v) const { return std::hash<const void*>()(v.get()); }
};
struct VarEq {
  bool operator()(const Var& a, const Var& b) const { return a.get() == b.get(); }
};

// ---------------------------------------------------------------------------------------------
// Objects that expressions and statements refer to.

// A half-open range [min, min + extent).
struct Range {
  Expr min;
  Expr extent;
  static Range FromMinExtent(Expr min, Expr extent) { return {std::move(min), std::move(extent)}; }
};

enum class IterVarType : uint8_t {
  kDataPar,     // an output axis
  kCommReduce,  // a reduction axis
  kThreadIndex  // a GPU thread or block index, or a virtual thread
};

struct IterVarNode {
  Range dom;  // may be undefined for axes created by a schedule before bound inference
  Var var;
  IterVarType iter_type = IterVarType::kDataPar;
  std::string thread_tag;  // "blockIdx.x", "threadIdx.y", "vthread", or empty
};

// An iteration axis: a variable with its domain. Identity is the node.
class IterVar {
 public:
  IterVar() = default;
  IterVar(Range dom, Var var, IterVarType type, std::string thread_tag = "");
  bool defined() const { return node_ != nullptr; }
  const IterVarNode* get() const { return node_.get(); }
  const IterVarNode* operator->() const { return node_.get(); }
  bool same_as(const IterVar& other) const { return node_ == other.node_; }

 private:
  std::shared_ptr<const IterVarNode> node_;
};

struct BufferNode {
  std::string name;
  DataType dtype;
  std::vector<Expr> shape;
  Var data;           // handle variable naming the storage after flattening
  std::string scope;  // "global", "shared" or "local"
  // The operation that computes this buffer. Opaque here (it lives in the te layer above);
  // weak, because the operation owns its buffer.
  std::weak_ptr<const void> producer;
};

// A multi-dimensional tensor's storage. Identity is the node.
class Buffer {
 public:
  Buffer() = default;
  Buffer(std::string name, DataType dtype, std::vector<Expr> shape, std::string scope = "global",
         std::weak_ptr<const void> producer = {});
  bool defined() const { return node_ != nullptr; }
  const BufferNode* get() const { return node_.get(); }
  const BufferNode* operator->() const { return node_.get(); }
  bool same_as(const Buffer& other) const { return node_ == other.node_; }

 private:
  std::shared_ptr<const BufferNode> node_;
};

// A commutative reducer: result(lhs, rhs) with an identity element.
struct CommReducerNode {
  std::string name;  // "sum", "max", "min"
  Var lhs;
  Var rhs;
  Expr result;
  Expr identity;
};
using CommReducer = std::shared_ptr<const CommReducerNode>;
CommReducer MakeCommReducer(std::string name, Var lhs, Var rhs, Expr result, Expr identity);

// Pure intrinsics (and the one barrier) that `Call` may name.
enum class Intrinsic : uint8_t {
  kExp,
  kLog,
  kSqrt,
  kTanh,
  kSigmoid,
  kFabs,
  kPow,
  kFloor,
  kCeil,
  kErf,
  kRound,  // to the nearest integer, halfway cases to even (ONNX Round, C's nearbyint)
  kSin,
  kCos,
  kTan,
  kSinh,
  kCosh,
  kAsin,
  kAcos,
  kAtan,
  kAsinh,
  kAcosh,
  kAtanh,
  kLikely,
  kIfThenElse,
  kSyncThreads,  // __syncthreads(): a barrier among the threads of a block; only in Evaluate
  // dot4_add(acc, a, b): acc is int32 x N, b is (u)int8 x 4N and a (u)int8 x 4N or x 4 (then
  // shared by every group); lane i is acc[i] + sum over k < 4 of a[4i+k] * b[4i+k], exactly
  // (wrapping on int32 overflow). What x86 VNNI's vpdpbusd and AArch64's sdot/udot compute.
  kDot4Add,
};
const char* IntrinsicName(Intrinsic op);
// nullopt for an unknown name.
std::optional<Intrinsic> IntrinsicFromName(std::string_view name);

// ---------------------------------------------------------------------------------------------
// Nodes. Each has a validating `Make`; an invalid combination is a programmer error (TF_CHECK).

#define TF_EXPR_NODE_HEADER(Name) static constexpr ExprKind kKind = ExprKind::k##Name;

struct IntImmNode : ExprNode {
  TF_EXPR_NODE_HEADER(IntImm)
  IntImmNode(DataType t, int64_t v) : ExprNode(kKind, t), value(v) {}
  int64_t value;
  static Expr Make(DataType t, int64_t value);
};

struct FloatImmNode : ExprNode {
  TF_EXPR_NODE_HEADER(FloatImm)
  FloatImmNode(DataType t, double v) : ExprNode(kKind, t), value(v) {}
  double value;
  static Expr Make(DataType t, double value);
};

struct StringImmNode : ExprNode {
  TF_EXPR_NODE_HEADER(StringImm)
  explicit StringImmNode(std::string v)
      : ExprNode(kKind, DataType::Handle()), value(std::move(v)) {}
  std::string value;
  static Expr Make(std::string value);
};

struct VarNode : ExprNode {
  TF_EXPR_NODE_HEADER(Var)
  VarNode(DataType t, std::string n) : ExprNode(kKind, t), name(std::move(n)) {}
  std::string name;
};

// The binary nodes. Operands have equal types; comparisons and logic yield bool (with lanes).
#define TF_DECLARE_BINARY(Name)                                   \
  struct Name##Node : ExprNode {                                  \
    TF_EXPR_NODE_HEADER(Name)                                     \
    Name##Node(DataType t, Expr a, Expr b)                        \
        : ExprNode(kKind, t), a(std::move(a)), b(std::move(b)) {} \
    Expr a;                                                       \
    Expr b;                                                       \
    static Expr Make(Expr a, Expr b);                             \
  };
TF_IR_BINARY_NODES(TF_DECLARE_BINARY)
#undef TF_DECLARE_BINARY

struct NotNode : ExprNode {
  TF_EXPR_NODE_HEADER(Not)
  NotNode(DataType t, Expr a) : ExprNode(kKind, t), a(std::move(a)) {}
  Expr a;
  static Expr Make(Expr a);
};

// Evaluates both operands; see `if_then_else` for the lazy form.
struct SelectNode : ExprNode {
  TF_EXPR_NODE_HEADER(Select)
  SelectNode(DataType t, Expr c, Expr tv, Expr fv)
      : ExprNode(kKind, t),
        condition(std::move(c)),
        true_value(std::move(tv)),
        false_value(std::move(fv)) {}
  Expr condition;
  Expr true_value;
  Expr false_value;
  static Expr Make(Expr condition, Expr true_value, Expr false_value);
};

struct CastNode : ExprNode {
  TF_EXPR_NODE_HEADER(Cast)
  CastNode(DataType t, Expr v) : ExprNode(kKind, t), value(std::move(v)) {}
  Expr value;
  static Expr Make(DataType t, Expr value);
};

struct RampNode : ExprNode {
  TF_EXPR_NODE_HEADER(Ramp)
  RampNode(DataType t, Expr b, Expr s, int l)
      : ExprNode(kKind, t), base(std::move(b)), stride(std::move(s)), lanes(l) {}
  Expr base;
  Expr stride;
  int lanes;
  static Expr Make(Expr base, Expr stride, int lanes);
};

struct BroadcastNode : ExprNode {
  TF_EXPR_NODE_HEADER(Broadcast)
  BroadcastNode(DataType t, Expr v, int l) : ExprNode(kKind, t), value(std::move(v)), lanes(l) {}
  Expr value;
  int lanes;
  static Expr Make(Expr value, int lanes);
};

struct LetNode : ExprNode {
  TF_EXPR_NODE_HEADER(Let)
  LetNode(DataType t, Var v, Expr val, Expr b)
      : ExprNode(kKind, t), var(std::move(v)), value(std::move(val)), body(std::move(b)) {}
  Var var;
  Expr value;
  Expr body;
  static Expr Make(Var var, Expr value, Expr body);
};

struct CallNode : ExprNode {
  TF_EXPR_NODE_HEADER(Call)
  CallNode(DataType t, Intrinsic o, std::vector<Expr> a)
      : ExprNode(kKind, t), op(o), args(std::move(a)) {}
  Intrinsic op;
  std::vector<Expr> args;
  // Checks the argument count and types of `op` and derives the result type.
  static Expr Make(Intrinsic op, std::vector<Expr> args);
};

// A read of a multi-dimensional buffer (before storage flattening).
struct BufferLoadNode : ExprNode {
  TF_EXPR_NODE_HEADER(BufferLoad)
  BufferLoadNode(DataType t, Buffer b, std::vector<Expr> i)
      : ExprNode(kKind, t), buffer(std::move(b)), indices(std::move(i)) {}
  Buffer buffer;
  std::vector<Expr> indices;
  static Expr Make(Buffer buffer, std::vector<Expr> indices);
};

// A read of element `index` of a flat buffer; a Ramp index with a vector type reads lanes.
struct LoadNode : ExprNode {
  TF_EXPR_NODE_HEADER(Load)
  LoadNode(DataType t, Var bv, Expr i)
      : ExprNode(kKind, t), buffer_var(std::move(bv)), index(std::move(i)) {}
  Var buffer_var;
  Expr index;
  static Expr Make(DataType t, Var buffer_var, Expr index);
};

// A reduction of `source` over `axis` with `combiner`, restricted to where `condition` holds.
struct ReduceNode : ExprNode {
  TF_EXPR_NODE_HEADER(Reduce)
  ReduceNode(DataType t, CommReducer c, Expr s, std::vector<IterVar> ax, Expr cond)
      : ExprNode(kKind, t),
        combiner(std::move(c)),
        source(std::move(s)),
        axis(std::move(ax)),
        condition(std::move(cond)) {}
  CommReducer combiner;
  Expr source;
  std::vector<IterVar> axis;
  Expr condition;
  static Expr Make(CommReducer combiner, Expr source, std::vector<IterVar> axis, Expr condition);
};

#undef TF_EXPR_NODE_HEADER

// ---------------------------------------------------------------------------------------------
// Small constructors used everywhere.

Expr IntImm(DataType t, int64_t value);
Expr FloatImm(DataType t, double value);
// A bool immediate: 1 for true, 0 for false.
Expr BoolImm(bool value);
// A constant of type t (int, uint, bool or float; vector types broadcast).
Expr MakeConst(DataType t, double value);
Expr MakeZero(DataType t);
Expr MakeOne(DataType t);
// The value of an integer immediate, if `e` is one.
std::optional<int64_t> AsConstInt(const Expr& e);
bool IsConstInt(const Expr& e, int64_t value);

}  // namespace tunefarm::ir
