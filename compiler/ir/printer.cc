#include "compiler/ir/printer.h"

#include <cmath>
#include <iomanip>
#include <sstream>
#include <unordered_map>

#include "compiler/ir/functor.h"

namespace tunefarm::ir {
namespace {

// Operator precedence, higher binds tighter; used to print only the parentheses that matter.
int Precedence(ExprKind kind) {
  switch (kind) {
    case ExprKind::kOr:
      return 1;
    case ExprKind::kAnd:
      return 2;
    case ExprKind::kEQ:
    case ExprKind::kNE:
      return 3;
    case ExprKind::kLT:
    case ExprKind::kLE:
    case ExprKind::kGT:
    case ExprKind::kGE:
      return 4;
    case ExprKind::kAdd:
    case ExprKind::kSub:
      return 5;
    case ExprKind::kMul:
    case ExprKind::kDiv:
    case ExprKind::kMod:
      return 6;
    default:
      return 10;
  }
}

const char* BinarySymbol(ExprKind kind) {
  switch (kind) {
    case ExprKind::kAdd:
      return " + ";
    case ExprKind::kSub:
      return " - ";
    case ExprKind::kMul:
      return "*";
    case ExprKind::kDiv:
      return "/";
    case ExprKind::kMod:
      return " % ";
    case ExprKind::kEQ:
      return " == ";
    case ExprKind::kNE:
      return " != ";
    case ExprKind::kLT:
      return " < ";
    case ExprKind::kLE:
      return " <= ";
    case ExprKind::kGT:
      return " > ";
    case ExprKind::kGE:
      return " >= ";
    case ExprKind::kAnd:
      return " && ";
    case ExprKind::kOr:
      return " || ";
    default:
      return nullptr;
  }
}

class IRPrinter : public ExprFunctor<void(const Expr&)>, public StmtFunctor<void(const Stmt&)> {
 public:
  explicit IRPrinter(std::ostream& os) : os_(os) {}

  void Print(const Expr& e, int parent_prec = 0) {
    int prec = Precedence(e.kind());
    bool paren = prec < parent_prec;
    if (paren) os_ << "(";
    prec_stack_.push_back(prec);
    VisitExpr(e);
    prec_stack_.pop_back();
    if (paren) os_ << ")";
  }
  void PrintStmt(const Stmt& s) { VisitStmt(s); }

 private:
  int CurrentPrec() const { return prec_stack_.empty() ? 0 : prec_stack_.back(); }

  // Distinct variables that share a name hint get a numeric suffix, so printed IR is unambiguous.
  const std::string& NameOf(const VarNode* v) {
    auto it = names_.find(v);
    if (it != names_.end()) return it->second;
    std::string name = v->name;
    int& count = name_counts_[v->name];
    if (count > 0) name += "_" + std::to_string(count);
    ++count;
    return names_.emplace(v, name).first->second;
  }

  void Indent() { os_ << std::string(indent_ * 2, ' '); }

  void PrintBody(const Stmt& body) {
    ++indent_;
    PrintStmt(body);
    --indent_;
    Indent();
    os_ << "}\n";
  }

  void PrintBinary(ExprKind kind, const Expr& a, const Expr& b) {
    if (const char* sym = BinarySymbol(kind)) {
      int prec = CurrentPrec();
      Print(a, prec);
      os_ << sym;
      // Left-associative: the right operand needs parentheses at equal precedence.
      Print(b, prec + 1);
      return;
    }
    const char* fn = kind == ExprKind::kMin        ? "min"
                     : kind == ExprKind::kMax      ? "max"
                     : kind == ExprKind::kFloorDiv ? "floordiv"
                                                   : "floormod";
    os_ << fn << "(";
    Print(a);
    os_ << ", ";
    Print(b);
    os_ << ")";
  }

  void VisitExpr_(const IntImmNode* op) override {
    if (op->dtype.is_bool()) {
      os_ << (op->value ? "(bool)1" : "(bool)0");
    } else if (op->dtype == DataType::Int(32)) {
      os_ << op->value;
    } else {
      os_ << "(" << op->dtype.ToString() << ")" << op->value;
    }
  }
  void VisitExpr_(const FloatImmNode* op) override {
    std::ostringstream s;
    s << std::setprecision(op->dtype.bits() == 32 ? 9 : 17) << op->value;
    std::string text = s.str();
    if (std::isfinite(op->value) && text.find_first_of(".e") == std::string::npos) text += ".0";
    os_ << text << (op->dtype.bits() == 32 ? "f" : op->dtype.bits() == 16 ? "h" : "");
  }
  void VisitExpr_(const StringImmNode* op) override { os_ << '"' << op->value << '"'; }
  void VisitExpr_(const VarNode* op) override { os_ << NameOf(op); }
#define TF_PRINT_BINARY(Name) \
  void VisitExpr_(const Name##Node* op) override { PrintBinary(ExprKind::k##Name, op->a, op->b); }
  TF_IR_BINARY_NODES(TF_PRINT_BINARY)
#undef TF_PRINT_BINARY
  void VisitExpr_(const NotNode* op) override {
    os_ << "!";
    Print(op->a, 11);
  }
  void VisitExpr_(const SelectNode* op) override {
    os_ << "select(";
    Print(op->condition);
    os_ << ", ";
    Print(op->true_value);
    os_ << ", ";
    Print(op->false_value);
    os_ << ")";
  }
  void VisitExpr_(const CastNode* op) override {
    os_ << op->dtype.ToString() << "(";
    Print(op->value);
    os_ << ")";
  }
  void VisitExpr_(const RampNode* op) override {
    os_ << "ramp(";
    Print(op->base);
    os_ << ", ";
    Print(op->stride);
    os_ << ", " << op->lanes << ")";
  }
  void VisitExpr_(const BroadcastNode* op) override {
    os_ << "x" << op->lanes << "(";
    Print(op->value);
    os_ << ")";
  }
  void VisitExpr_(const LetNode* op) override {
    os_ << "(let " << NameOf(op->var.get()) << " = ";
    Print(op->value);
    os_ << " in ";
    Print(op->body);
    os_ << ")";
  }
  void VisitExpr_(const CallNode* op) override {
    os_ << IntrinsicName(op->op) << "(";
    for (size_t i = 0; i < op->args.size(); ++i) {
      if (i) os_ << ", ";
      Print(op->args[i]);
    }
    os_ << ")";
  }
  void VisitExpr_(const BufferLoadNode* op) override {
    os_ << op->buffer->name << "[";
    PrintList(op->indices);
    os_ << "]";
  }
  void VisitExpr_(const LoadNode* op) override {
    os_ << NameOf(op->buffer_var.get()) << "[";
    Print(op->index);
    os_ << "]";
  }
  void VisitExpr_(const ReduceNode* op) override {
    os_ << "reduce(" << op->combiner->name << ", ";
    Print(op->source);
    os_ << ", axis=[";
    for (size_t i = 0; i < op->axis.size(); ++i) {
      if (i) os_ << ", ";
      os_ << NameOf(op->axis[i]->var.get());
    }
    os_ << "]";
    if (!IsConstInt(op->condition, 1)) {
      os_ << ", where=";
      Print(op->condition);
    }
    os_ << ")";
  }

  void PrintList(const std::vector<Expr>& list) {
    for (size_t i = 0; i < list.size(); ++i) {
      if (i) os_ << ", ";
      Print(list[i]);
    }
  }

  void VisitStmt_(const LetStmtNode* op) override {
    Indent();
    os_ << "let " << NameOf(op->var.get()) << " = ";
    Print(op->value);
    os_ << "\n";
    PrintStmt(op->body);
  }
  void VisitStmt_(const AttrStmtNode* op) override {
    if (op->key == attr::kProduce) {
      Indent();
      os_ << "// produce " << std::get<Buffer>(op->node)->name << "\n";
      PrintStmt(op->body);
      return;
    }
    Indent();
    os_ << "// attr [";
    if (const auto* iv = std::get_if<IterVar>(&op->node)) {
      os_ << "iter_var(" << NameOf((*iv)->var.get());
      if ((*iv)->dom.extent.defined()) {
        os_ << ", range(min=";
        Print((*iv)->dom.min);
        os_ << ", ext=";
        Print((*iv)->dom.extent);
        os_ << ")";
      }
      if (!(*iv)->thread_tag.empty()) os_ << ", " << (*iv)->thread_tag;
      os_ << ")";
    } else if (const auto* v = std::get_if<Var>(&op->node)) {
      os_ << NameOf(v->get());
    } else if (const auto* b = std::get_if<Buffer>(&op->node)) {
      os_ << (*b)->name;
    }
    os_ << "] " << op->key;
    if (op->value.defined()) {
      os_ << " = ";
      Print(op->value);
    }
    os_ << "\n";
    PrintStmt(op->body);
  }
  void VisitStmt_(const AssertStmtNode* op) override {
    Indent();
    os_ << "assert(";
    Print(op->condition);
    os_ << ", \"" << op->message << "\")\n";
    PrintStmt(op->body);
  }
  void VisitStmt_(const BufferStoreNode* op) override {
    Indent();
    os_ << op->buffer->name << "[";
    PrintList(op->indices);
    os_ << "] = ";
    Print(op->value);
    os_ << "\n";
  }
  void VisitStmt_(const BufferRealizeNode* op) override {
    Indent();
    os_ << "realize " << op->buffer->name << "(";
    for (size_t i = 0; i < op->bounds.size(); ++i) {
      if (i) os_ << ", ";
      os_ << "[";
      Print(op->bounds[i].min);
      os_ << ", ";
      Print(op->bounds[i].extent);
      os_ << "]";
    }
    os_ << ")";
    if (op->buffer->scope != "global") os_ << " scope " << op->buffer->scope;
    os_ << " {\n";
    PrintBody(op->body);
  }
  void VisitStmt_(const StoreNode* op) override {
    Indent();
    os_ << NameOf(op->buffer_var.get()) << "[";
    Print(op->index);
    os_ << "] = ";
    Print(op->value);
    os_ << "\n";
  }
  void VisitStmt_(const AllocateNode* op) override {
    Indent();
    os_ << "allocate " << NameOf(op->buffer_var.get()) << "[" << op->dtype.ToString();
    for (const auto& e : op->extents) {
      os_ << " * ";
      Print(e, 7);
    }
    os_ << "], scope " << op->scope << "\n";
    PrintStmt(op->body);
  }
  void VisitStmt_(const ForNode* op) override {
    Indent();
    const char* kind = op->for_kind == ForKind::kSerial ? "for" : ForKindName(op->for_kind);
    os_ << kind << " (" << NameOf(op->loop_var.get()) << ", ";
    Print(op->min);
    os_ << ", ";
    Print(op->extent);
    if (!op->thread_tag.empty()) os_ << ", " << op->thread_tag;
    os_ << ") {\n";
    PrintBody(op->body);
  }
  void VisitStmt_(const SeqStmtNode* op) override {
    for (const auto& s : op->seq) PrintStmt(s);
  }
  void VisitStmt_(const IfThenElseNode* op) override {
    Indent();
    os_ << "if (";
    Print(op->condition);
    os_ << ") {\n";
    ++indent_;
    PrintStmt(op->then_case);
    --indent_;
    if (op->else_case.defined()) {
      Indent();
      os_ << "} else {\n";
      ++indent_;
      PrintStmt(op->else_case);
      --indent_;
    }
    Indent();
    os_ << "}\n";
  }
  void VisitStmt_(const EvaluateNode* op) override {
    Indent();
    Print(op->value);
    os_ << "\n";
  }

  std::ostream& os_;
  int indent_ = 0;
  std::vector<int> prec_stack_;
  std::unordered_map<const VarNode*, std::string> names_;
  std::unordered_map<std::string, int> name_counts_;
};

}  // namespace

std::string ToString(const Expr& e) {
  std::ostringstream os;
  os << e;
  return os.str();
}

std::string ToString(const Stmt& s) {
  std::ostringstream os;
  os << s;
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const Expr& e) {
  if (!e.defined()) return os << "(undefined)";
  IRPrinter(os).Print(e);
  return os;
}

std::ostream& operator<<(std::ostream& os, const Stmt& s) {
  if (!s.defined()) return os << "(undefined)\n";
  IRPrinter(os).PrintStmt(s);
  return os;
}

std::string ToString(const PrimFunc& func) {
  std::ostringstream os;
  os << "// PrimFunc " << func.name << "(";
  for (size_t i = 0; i < func.params.size(); ++i) {
    const Buffer& b = func.params[i];
    os << (i > 0 ? ", " : "") << b->name << ": " << b->dtype.ToString() << "[";
    for (size_t d = 0; d < b->shape.size(); ++d) os << (d > 0 ? ", " : "") << ToString(b->shape[d]);
    os << "]";
  }
  os << ")\n" << ToString(func.body);
  return os.str();
}

}  // namespace tunefarm::ir
