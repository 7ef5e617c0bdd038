#include "compiler/codegen/gpu/split_host_device.h"

#include <unordered_set>

#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/free_vars.h"
#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/visitor.h"

namespace tunefarm::codegen::gpu {
namespace {

// Collects the launch extent of every thread tag in a kernel region.
class ExtentCollector : public ir::Visitor {
 public:
  std::array<ir::Expr, 3> grid;
  std::array<ir::Expr, 3> block;
  absl::Status status;

 protected:
  void VisitStmt_(const ir::AttrStmtNode* op) override {
    if (op->key == ir::attr::kThreadExtent) {
      const auto* iv = std::get_if<ir::IterVar>(&op->node);
      bool is_block = false;
      const int dim = iv ? ThreadTagDim((*iv)->thread_tag, &is_block) : -1;
      if (dim < 0) {
        status = absl::InvalidArgumentError(
            absl::StrCat("thread_extent of unknown thread tag ", iv ? (*iv)->thread_tag : "?",
                         "; a GPU kernel has blockIdx.x/y/z and threadIdx.x/y/z"));
      } else {
        ir::Expr& slot = is_block ? grid[dim] : block[dim];
        // Sibling regions of one tag may differ: launch the largest, guard the others.
        slot = slot.defined() ? ir::FoldConstants(ir::Max(slot, op->value)) : op->value;
      }
    }
    ir::Visitor::VisitStmt_(op);
  }
};

class Splitter {
 public:
  explicit Splitter(const ir::PrimFunc& func) : func_(func) {}

  absl::Status Visit(const ir::Stmt& s) {
    if (!s.defined() || ir::IsNop(s)) return absl::OkStatus();
    if (const auto* seq = s.As<ir::SeqStmtNode>()) {
      for (const ir::Stmt& child : seq->seq) {
        if (absl::Status st = Visit(child); !st.ok()) return st;
      }
      return absl::OkStatus();
    }
    if (const auto* attr = s.As<ir::AttrStmtNode>()) {
      if (attr->key == ir::attr::kThreadExtent) return AddKernel(s);
      return Visit(attr->body);  // produce marks and pragmas: nothing to run on the host
    }
    if (const auto* assert_stmt = s.As<ir::AssertStmtNode>()) {
      return Visit(assert_stmt->body);  // the runtime checks shapes at the call
    }
    if (const auto* alloc = s.As<ir::AllocateNode>()) {
      return absl::UnimplementedError(absl::StrCat(
          "buffer ", alloc->buffer_var.name(), " (scope ", alloc->scope,
          ") is allocated outside every thread-bound region; for a GPU target, an intermediate "
          "stage must be computed inside the kernel (compute_at / compute_inline) or bound to "
          "threads with shared/local scope"));
    }
    std::string text = ir::ToString(s);
    if (text.size() > 200) text = text.substr(0, 200) + "...";
    return absl::InvalidArgumentError(absl::StrCat(
        "function ", func_.name,
        ": a statement runs outside every thread-bound region, and a GPU target has no host "
        "computation; bind the stage's outer loops to blockIdx/threadIdx: ",
        text));
  }

  std::vector<DeviceKernel> kernels;

 private:
  absl::Status AddKernel(const ir::Stmt& region) {
    DeviceKernel k;
    k.name = absl::StrCat(func_.name, "_kernel", kernels.size());
    k.body = region;
    ExtentCollector extents;
    extents.VisitStmt(region);
    if (!extents.status.ok()) return extents.status;
    for (int d = 0; d < 3; ++d) {
      k.grid[d] = extents.grid[d].defined() ? extents.grid[d] : ir::Expr(1);
      k.block[d] = extents.block[d].defined() ? extents.block[d] : ir::Expr(1);
    }
    std::unordered_set<const ir::VarNode*> data_vars;
    for (const ir::Buffer& b : func_.params) data_vars.insert(b->data.get());
    std::unordered_set<const ir::VarNode*> used;
    std::vector<ir::Var> scalars;
    for (const ir::Var& v : FreeVars(region)) {
      used.insert(v.get());
      if (data_vars.count(v.get()) == 0) {
        if (v.dtype().is_handle()) {
          return absl::InvalidArgumentError(
              absl::StrCat("kernel ", k.name, " uses buffer ", v.name(),
                           ", which is neither an argument nor allocated inside the kernel"));
        }
        scalars.push_back(v);
      }
    }
    for (const ir::Buffer& b : func_.params) {
      if (used.count(b->data.get()) != 0) k.params.push_back(b->data);
    }
    k.params.insert(k.params.end(), scalars.begin(), scalars.end());
    kernels.push_back(std::move(k));
    return absl::OkStatus();
  }

  const ir::PrimFunc& func_;
};

absl::StatusOr<std::string> Binary(const char* fn, const ir::Expr& a, const ir::Expr& b) {
  absl::StatusOr<std::string> x = LaunchExprText(a);
  if (!x.ok()) return x;
  absl::StatusOr<std::string> y = LaunchExprText(b);
  if (!y.ok()) return y;
  return absl::StrCat(fn, "(", *x, ", ", *y, ")");
}

absl::StatusOr<std::string> Infix(const char* op, const ir::Expr& a, const ir::Expr& b) {
  absl::StatusOr<std::string> x = LaunchExprText(a);
  if (!x.ok()) return x;
  absl::StatusOr<std::string> y = LaunchExprText(b);
  if (!y.ok()) return y;
  return absl::StrCat("(", *x, " ", op, " ", *y, ")");
}

}  // namespace

int ThreadTagDim(const std::string& tag, bool* is_block) {
  std::string_view t = tag;
  if (t.size() != 10 && t.size() != 11) return -1;
  if (t.substr(0, 9) == "blockIdx.") {
    *is_block = true;
  } else if (t.substr(0, 10) == "threadIdx.") {
    *is_block = false;
  } else {
    return -1;
  }
  const char c = t.back();
  if (t.size() != (*is_block ? 10u : 11u) || c < 'x' || c > 'z') return -1;
  return c - 'x';
}

absl::StatusOr<std::string> LaunchExprText(const ir::Expr& e) {
  if (auto v = ir::AsConstInt(e)) return std::to_string(*v);
  if (const auto* var = e.As<ir::VarNode>()) return var->name;
  if (const auto* cast = e.As<ir::CastNode>()) {
    if (cast->dtype.is_integral() && cast->value.dtype().is_integral()) {
      return LaunchExprText(cast->value);
    }
  }
  if (const auto* op = e.As<ir::AddNode>()) return Infix("+", op->a, op->b);
  if (const auto* op = e.As<ir::SubNode>()) return Infix("-", op->a, op->b);
  if (const auto* op = e.As<ir::MulNode>()) return Infix("*", op->a, op->b);
  if (const auto* op = e.As<ir::FloorDivNode>()) return Binary("floordiv", op->a, op->b);
  if (const auto* op = e.As<ir::FloorModNode>()) return Binary("floormod", op->a, op->b);
  if (const auto* op = e.As<ir::MinNode>()) return Binary("min", op->a, op->b);
  if (const auto* op = e.As<ir::MaxNode>()) return Binary("max", op->a, op->b);
  return absl::InvalidArgumentError(
      absl::StrCat("launch extent ", ir::ToString(e),
                   " is not expressible at launch (integers, names, + - *, floordiv, floormod, "
                   "min, max)"));
}

absl::StatusOr<std::vector<DeviceKernel>> SplitHostDevice(const ir::PrimFunc& func) {
  Splitter splitter(func);
  if (absl::Status st = splitter.Visit(func.body); !st.ok()) return st;
  if (splitter.kernels.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("function ", func.name, " binds no loop to blockIdx/threadIdx"));
  }
  return std::move(splitter.kernels);
}

}  // namespace tunefarm::codegen::gpu
