// CodeBuilder: compiles a PrimFunc into interpreter code (code.h) once. It resolves every
// variable to a frame slot and every buffer to a binding slot, picks the class specialized for
// each type, and rejects what the interpreter cannot run (free variables, Reduce, float16,
// unknown thread tags, ...) with a Status naming the offending IR.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/interp/code.h"
#include "compiler/interp/stmt_code.h"
#include "compiler/ir/function.h"
#include "compiler/ir/functor.h"

namespace tunefarm::interp {

struct ParamInfo {
  ir::Buffer buffer;
  int buffer_slot = 0;  // of buffer->data, for flat Load / Store
  int tensor_slot = 0;  // for BufferLoad / BufferStore
};

// A parameter dimension that is a variable: the first occurrence binds the variable from the
// argument's shape, later ones (`binds` false) check against it.
struct ShapeVarBinding {
  int param = 0;
  int dim = 0;
  int slot = 0;
  ir::Var var;
  bool binds = true;
};

// Any other dimension: evaluated once the variables are bound, and checked.
struct ShapeCheck {
  int param = 0;
  int dim = 0;
  const ExprCode* expected = nullptr;
};

// A compiled function: immutable once built; each run makes its own frames.
struct Program {
  CodeArena arena;
  std::vector<ParamInfo> params;
  std::vector<ShapeVarBinding> shape_vars;
  std::vector<ShapeCheck> shape_checks;
  const StmtCode* body = nullptr;
  int num_slots = 0;
  int num_buffers = 0;
  int num_tensors = 0;
};

absl::StatusOr<std::unique_ptr<Program>> BuildProgram(const ir::PrimFunc& f);

// The builder itself, shared by build_expr.cc and build_stmt.cc. Errors are sticky: after the
// first, building goes on with placeholder code and Build returns that error.
class CodeBuilder : public ir::ExprFunctor<const ExprCode*(const ir::Expr&)>,
                    public ir::StmtFunctor<const StmtCode*(const ir::Stmt&)> {
 public:
  explicit CodeBuilder(Program* program) : program_(program), arena_(program->arena) {}
  absl::Status Build(const ir::PrimFunc& f);

 private:
  struct VarInfo {
    int slot = 0;
    int bound = 0;  // > 0 while inside a scope that binds the variable
  };
  struct BufferVarInfo {
    int slot = 0;
    std::vector<ir::DataType> elem;  // element type per enclosing binding; bound while non-empty
  };
  struct TensorInfo {
    int slot = 0;
    bool is_param = false;
    int bound = 0;
  };

  const ExprCode* VisitExpr(const ir::Expr& e) override;
#define TF_DECLARE_VISIT(Name) const ExprCode* VisitExpr_(const ir::Name##Node* op) override;
  TF_IR_EXPR_NODES(TF_DECLARE_VISIT)
#undef TF_DECLARE_VISIT
#define TF_DECLARE_VISIT(Name) const StmtCode* VisitStmt_(const ir::Name##Node* op) override;
  TF_IR_STMT_NODES(TF_DECLARE_VISIT)
#undef TF_DECLARE_VISIT

  void BindParams(const ir::PrimFunc& f);
  const ExprCode* BuildBinary(ir::ExprKind kind, const ir::Expr& a, const ir::Expr& b);
  const StmtCode* BuildThreadAttr(const ir::IterVar& iv, const std::string& tag,
                                  const ir::Expr& min, const ir::Expr& extent,
                                  const ir::Stmt& body);
  const StmtCode* BuildLoop(const ir::Var& var, const ir::Expr& min, const ir::Expr& extent,
                            const ir::Stmt& body);
  bool ParseScope(const std::string& scope, const std::string& name, MemScope* out);

  // Scopes: Bind* returns the slot and marks the variable bound until the matching Unbind*.
  int BindVar(const ir::Var& v);
  void UnbindVar(const ir::Var& v);
  int BindBufferVar(const ir::Var& v, ir::DataType elem);
  void UnbindBufferVar(const ir::Var& v);
  // The slot of a bound buffer variable and its element type; -1 after reporting.
  int BufferVarSlot(const ir::Var& v, const char* what, ir::DataType* elem);
  TensorInfo* FindTensor(const ir::Buffer& b, const char* what);

  // Reports unsupported types (float16, handles as values, odd widths); false after reporting.
  bool CheckType(ir::DataType t);
  // Indices, extents and loop bounds must be integers; false after reporting.
  bool CheckIntegral(const ir::Expr& e, const char* what);
  void Fail(const absl::Status& status);
  const ExprCode* Placeholder(int lanes);
  const StmtCode* PlaceholderStmt();

  Program* program_;
  CodeArena& arena_;
  absl::Status error_;
  const ir::Expr* visiting_ = nullptr;  // the expression whose VisitExpr_ is being entered
  std::unordered_map<const ir::VarNode*, VarInfo> vars_;
  std::unordered_map<const ir::VarNode*, BufferVarInfo> buffer_vars_;
  std::unordered_map<const ir::BufferNode*, TensorInfo> tensors_;
  int next_slot_ = 0;
  int num_shared_ = 0;
};

}  // namespace tunefarm::interp
