// Statement nodes of the IR and the handle that holds them.
//
// Meaning of the IR, written down once:
// - `For` runs `body` for loop_var in [min, min + extent) in order, unless its kind says the
//   iterations are independent (parallel, vectorized, thread-bound); unrolled loops keep order.
// - `AttrStmt` annotates its body: `thread_extent` launches extent threads (or blocks) bound to
//   the node's IterVar, `virtual_thread` runs the body once per virtual thread (interleaved at
//   barriers), `pragma_*` passes a hint to codegen, `produce` marks where a tensor is computed.
// - `BufferRealize` makes storage for `bounds` of a buffer live for its body (before
//   flattening); `Allocate` is its flat form: `extents` elements of `dtype` in `scope`.
// - A `thread_extent` nested inside one with the same tag launches nothing new: its variable is
//   the enclosing thread index (lowering emits one launch per tag; a stage bound to threads that
//   are already running reuses them). Sibling launches of one tag in a block run one after another.
// - `shared` buffers are one per thread block, `local` buffers one per thread.
// - An `Allocate` of a vector dtype holds extents x lanes scalar elements; indices count scalars.
// - Statements in a `SeqStmt` run in order; a barrier (`Evaluate(sync_threads())`) makes every
//   write before it by any thread of the block visible to every thread after it.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "compiler/ir/expr.h"

namespace tunefarm::ir {

enum class StmtKind : uint8_t {
#define TF_DECLARE_KIND(Name) k##Name,
  TF_IR_STMT_NODES(TF_DECLARE_KIND)
#undef TF_DECLARE_KIND
};

struct StmtNode {
  explicit StmtNode(StmtKind kind) : kind(kind) {}
  virtual ~StmtNode() = default;
  const StmtKind kind;
};

// A nullable handle to an immutable statement node.
class Stmt {
 public:
  Stmt() = default;
  explicit Stmt(std::shared_ptr<const StmtNode> node) : node_(std::move(node)) {}
  bool defined() const { return node_ != nullptr; }
  const StmtNode* get() const { return node_.get(); }
  const StmtNode* operator->() const { return node_.get(); }
  StmtKind kind() const { return node_->kind; }
  template <typename T>
  const T* As() const {
    return node_ && node_->kind == T::kKind ? static_cast<const T*>(node_.get()) : nullptr;
  }
  bool same_as(const Stmt& other) const { return node_ == other.node_; }

 private:
  std::shared_ptr<const StmtNode> node_;
};

enum class ForKind : uint8_t { kSerial, kParallel, kVectorized, kUnrolled, kThreadBinding };
const char* ForKindName(ForKind kind);

// Keys of AttrStmt.
namespace attr {
inline constexpr const char* kThreadExtent = "thread_extent";
inline constexpr const char* kVirtualThread = "virtual_thread";
inline constexpr const char* kStorageScope = "storage_scope";
inline constexpr const char* kProduce = "produce";
inline constexpr const char* kPragmaPrefix = "pragma_";
}  // namespace attr

// What an AttrStmt annotates.
using AttrNodeRef = std::variant<std::monostate, IterVar, Var, Buffer>;

#define TF_STMT_NODE_HEADER(Name) static constexpr StmtKind kKind = StmtKind::k##Name;

struct LetStmtNode : StmtNode {
  TF_STMT_NODE_HEADER(LetStmt)
  LetStmtNode(Var v, Expr val, Stmt b)
      : StmtNode(kKind), var(std::move(v)), value(std::move(val)), body(std::move(b)) {}
  Var var;
  Expr value;
  Stmt body;
  static Stmt Make(Var var, Expr value, Stmt body);
};

struct AttrStmtNode : StmtNode {
  TF_STMT_NODE_HEADER(AttrStmt)
  AttrStmtNode(AttrNodeRef n, std::string k, Expr v, Stmt b)
      : StmtNode(kKind),
        node(std::move(n)),
        key(std::move(k)),
        value(std::move(v)),
        body(std::move(b)) {}
  AttrNodeRef node;
  std::string key;
  Expr value;
  Stmt body;
  static Stmt Make(AttrNodeRef node, std::string key, Expr value, Stmt body);
};

struct AssertStmtNode : StmtNode {
  TF_STMT_NODE_HEADER(AssertStmt)
  AssertStmtNode(Expr c, std::string m, Stmt b)
      : StmtNode(kKind), condition(std::move(c)), message(std::move(m)), body(std::move(b)) {}
  Expr condition;
  std::string message;
  Stmt body;
  static Stmt Make(Expr condition, std::string message, Stmt body);
};

struct BufferStoreNode : StmtNode {
  TF_STMT_NODE_HEADER(BufferStore)
  BufferStoreNode(Buffer b, Expr v, std::vector<Expr> i)
      : StmtNode(kKind), buffer(std::move(b)), value(std::move(v)), indices(std::move(i)) {}
  Buffer buffer;
  Expr value;
  std::vector<Expr> indices;
  static Stmt Make(Buffer buffer, Expr value, std::vector<Expr> indices);
};

struct BufferRealizeNode : StmtNode {
  TF_STMT_NODE_HEADER(BufferRealize)
  BufferRealizeNode(Buffer b, std::vector<Range> r, Stmt body)
      : StmtNode(kKind), buffer(std::move(b)), bounds(std::move(r)), body(std::move(body)) {}
  Buffer buffer;
  std::vector<Range> bounds;
  Stmt body;
  static Stmt Make(Buffer buffer, std::vector<Range> bounds, Stmt body);
};

struct StoreNode : StmtNode {
  TF_STMT_NODE_HEADER(Store)
  StoreNode(Var bv, Expr v, Expr i)
      : StmtNode(kKind), buffer_var(std::move(bv)), value(std::move(v)), index(std::move(i)) {}
  Var buffer_var;
  Expr value;
  Expr index;
  static Stmt Make(Var buffer_var, Expr value, Expr index);
};

struct AllocateNode : StmtNode {
  TF_STMT_NODE_HEADER(Allocate)
  AllocateNode(Var bv, DataType t, std::vector<Expr> e, std::string s, Stmt b)
      : StmtNode(kKind),
        buffer_var(std::move(bv)),
        dtype(t),
        extents(std::move(e)),
        scope(std::move(s)),
        body(std::move(b)) {}
  Var buffer_var;
  DataType dtype;
  std::vector<Expr> extents;
  std::string scope;
  Stmt body;
  static Stmt Make(Var buffer_var, DataType dtype, std::vector<Expr> extents, std::string scope,
                   Stmt body);
};

struct ForNode : StmtNode {
  TF_STMT_NODE_HEADER(For)
  ForNode(Var v, Expr mn, Expr ext, ForKind k, Stmt b, std::string tag)
      : StmtNode(kKind),
        loop_var(std::move(v)),
        min(std::move(mn)),
        extent(std::move(ext)),
        for_kind(k),
        body(std::move(b)),
        thread_tag(std::move(tag)) {}
  Var loop_var;
  Expr min;
  Expr extent;
  ForKind for_kind;
  Stmt body;
  std::string thread_tag;  // only for kThreadBinding
  static Stmt Make(Var loop_var, Expr min, Expr extent, ForKind kind, Stmt body,
                   std::string thread_tag = "");
};

struct SeqStmtNode : StmtNode {
  TF_STMT_NODE_HEADER(SeqStmt)
  explicit SeqStmtNode(std::vector<Stmt> s) : StmtNode(kKind), seq(std::move(s)) {}
  std::vector<Stmt> seq;
  // Flattens nested sequences and drops undefined entries; one statement is returned as is.
  static Stmt Make(std::vector<Stmt> seq);
};

struct IfThenElseNode : StmtNode {
  TF_STMT_NODE_HEADER(IfThenElse)
  IfThenElseNode(Expr c, Stmt t, Stmt e)
      : StmtNode(kKind),
        condition(std::move(c)),
        then_case(std::move(t)),
        else_case(std::move(e)) {}
  Expr condition;
  Stmt then_case;
  Stmt else_case;  // may be undefined
  static Stmt Make(Expr condition, Stmt then_case, Stmt else_case = Stmt());
};

struct EvaluateNode : StmtNode {
  TF_STMT_NODE_HEADER(Evaluate)
  explicit EvaluateNode(Expr v) : StmtNode(kKind), value(std::move(v)) {}
  Expr value;
  static Stmt Make(Expr value);
};

#undef TF_STMT_NODE_HEADER

// A statement that does nothing.
Stmt MakeNop();
bool IsNop(const Stmt& s);

}  // namespace tunefarm::ir
