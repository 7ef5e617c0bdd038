#include "compiler/passes/storage_flatten.h"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/mutator.h"
#include "compiler/ir/op.h"

namespace tunefarm::passes {
namespace {

using ir::Expr;
using ir::Stmt;

// Where element (i_0, ..., i_n) of a buffer lives in its flat storage.
struct Layout {
  std::vector<Expr> mins;
  std::vector<Expr> strides;
};

// a * b, without the `1 *` a product of extents would start with.
Expr Product(const Expr& a, const Expr& b) { return ir::IsConstInt(a, 1) ? b : a * b; }

Layout RowMajor(std::vector<Expr> mins, const std::vector<Expr>& extents) {
  Layout layout{std::move(mins), std::vector<Expr>(extents.size())};
  Expr stride = ir::IntImm(ir::DataType::Int(32), 1);
  for (size_t i = extents.size(); i-- > 0;) {
    layout.strides[i] = stride;
    stride = Product(stride, extents[i]);
  }
  return layout;
}

Expr FlatIndex(const Layout& layout, const std::vector<Expr>& indices) {
  Expr index;
  for (size_t i = 0; i < indices.size(); ++i) {
    Expr term = indices[i];
    if (!ir::IsConstInt(layout.mins[i], 0)) term = term - layout.mins[i];
    if (!ir::IsConstInt(layout.strides[i], 1)) term = term * layout.strides[i];
    index = index.defined() ? index + term : term;
  }
  return index.defined() ? index : ir::IntImm(ir::DataType::Int(32), 0);
}

Expr FlatSize(const std::vector<Expr>& extents) {
  Expr size = ir::IntImm(ir::DataType::Int(32), 1);
  for (const auto& e : extents) size = Product(size, e);
  return size;
}

class Flattener : public ir::Mutator {
 public:
  explicit Flattener(const std::vector<ir::Buffer>& params) {
    for (const auto& p : params) {
      layouts_[p.get()] = RowMajor(std::vector<Expr>(p->shape.size(), Expr(0)), p->shape);
      params_.push_back(p.get());
    }
  }

  const absl::Status& status() const { return status_; }

 protected:
  Stmt VisitStmt_(const ir::BufferRealizeNode* op) override {
    const ir::BufferNode* buf = op->buffer.get();
    if (std::find(params_.begin(), params_.end(), buf) != params_.end()) {
      Fail(absl::StrCat("parameter ", buf->name, " is realized; parameters own their storage"));
      return Self(op);
    }
    std::vector<Expr> mins, extents;
    for (const auto& r : op->bounds) {
      mins.push_back(VisitExpr(r.min));
      extents.push_back(VisitExpr(r.extent));
    }
    auto outer = layouts_.find(buf);
    std::optional<Layout> saved;
    if (outer != layouts_.end()) saved = outer->second;
    layouts_[buf] = RowMajor(mins, extents);
    Stmt body = VisitStmt(op->body);
    if (saved) {
      layouts_[buf] = *saved;
    } else {
      layouts_.erase(buf);
    }
    return ir::AllocateNode::Make(buf->data, buf->dtype, {FlatSize(extents)}, buf->scope, body);
  }

  Expr VisitExpr_(const ir::BufferLoadNode* op) override {
    std::vector<Expr> indices = VisitIndices(op->indices);
    const Layout* layout = Find(op->buffer, "read");
    if (!layout) return ir::MakeZero(op->dtype);
    Expr index = FlatIndex(*layout, indices);
    return ir::LoadNode::Make(op->dtype.with_lanes(index.dtype().lanes()), op->buffer->data, index);
  }

  Stmt VisitStmt_(const ir::BufferStoreNode* op) override {
    Expr value = VisitExpr(op->value);
    std::vector<Expr> indices = VisitIndices(op->indices);
    const Layout* layout = Find(op->buffer, "written");
    if (!layout) return ir::MakeNop();
    return ir::StoreNode::Make(op->buffer->data, value, FlatIndex(*layout, indices));
  }

 private:
  std::vector<Expr> VisitIndices(const std::vector<Expr>& indices) {
    std::vector<Expr> out;
    out.reserve(indices.size());
    for (const auto& i : indices) out.push_back(VisitExpr(i));
    return out;
  }

  const Layout* Find(const ir::Buffer& buffer, const char* access) {
    auto it = layouts_.find(buffer.get());
    if (it != layouts_.end()) return &it->second;
    Fail(absl::StrCat("buffer ", buffer->name, " is ", access,
                      " outside its realize region (missing compute_at/realize?)"));
    return nullptr;
  }

  void Fail(std::string message) {
    if (status_.ok()) status_ = absl::InvalidArgumentError(std::move(message));
  }

  std::unordered_map<const ir::BufferNode*, Layout> layouts_;
  std::vector<const ir::BufferNode*> params_;
  absl::Status status_;
};

}  // namespace

absl::StatusOr<ir::PrimFunc> StorageFlatten(ir::PrimFunc f) {
  Flattener flattener(f.params);
  f.body = flattener.VisitStmt(f.body);
  if (!flattener.status().ok()) return flattener.status();
  return f;
}

}  // namespace tunefarm::passes
