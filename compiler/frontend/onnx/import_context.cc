#include "compiler/frontend/onnx/import_context.h"

#include "absl/strings/str_cat.h"
#include "compiler/graph/op_evaluate.h"
#include "compiler/graph/op_kind.h"
#include "compiler/graph/op_registry.h"
#include "runtime/data_type.h"

namespace tunefarm::frontend::onnx {

using ::onnx::AttributeProto;

absl::Status ImportContext::Error(const NodeProto& node, const std::string& message) const {
  return absl::InvalidArgumentError(
      absl::StrCat(node.op_type(), " node '", node.name(), "' (opset ", opset_, "): ", message));
}

bool ImportContext::HasInput(const NodeProto& node, int i) const {
  return i < node.input_size() && !node.input(i).empty();
}

std::optional<graph::ValueId> ImportContext::Lookup(const std::string& name) {
  auto it = values_.find(name);
  if (it != values_.end()) return it->second;
  auto c = constants_.find(name);
  if (c == constants_.end()) return std::nullopt;
  graph::ValueId id = graph_.AddConstant(name, std::move(c->second));
  constants_.erase(c);
  values_[name] = id;
  return id;
}

absl::StatusOr<graph::ValueId> ImportContext::Input(const NodeProto& node, int i) {
  if (!HasInput(node, i)) return Error(node, absl::StrCat("input ", i, " is missing"));
  std::optional<graph::ValueId> id = Lookup(node.input(i));
  if (!id) return Error(node, absl::StrCat("input '", node.input(i), "' is not defined"));
  return *id;
}

absl::StatusOr<graph::TensorType> ImportContext::InputType(const NodeProto& node, int i) const {
  if (!HasInput(node, i)) return Error(node, absl::StrCat("input ", i, " is missing"));
  auto it = values_.find(node.input(i));
  if (it != values_.end()) return graph_.value(it->second).type;
  auto c = constants_.find(node.input(i));
  if (c != constants_.end()) return graph::TensorType{c->second.dtype(), c->second.shape()};
  return Error(node, absl::StrCat("input '", node.input(i), "' is not defined"));
}

const runtime::NDArray* ImportContext::ConstantInput(const NodeProto& node, int i) const {
  if (!HasInput(node, i)) return nullptr;
  auto c = constants_.find(node.input(i));
  if (c != constants_.end()) return &c->second;
  auto it = values_.find(node.input(i));
  return it == values_.end() ? nullptr : graph_.ConstantData(it->second);
}

absl::StatusOr<std::vector<int64_t>> ImportContext::ConstantInts(const NodeProto& node, int i,
                                                                 const char* what) const {
  const runtime::NDArray* a = ConstantInput(node, i);
  if (a == nullptr) {
    return Error(node,
                 absl::StrCat(what, " (input ", i, ") must be a constant known at import time"));
  }
  DLDataType t = a->dtype();
  if (a->ndim() > 1 || t.code != kDLInt || (t.bits != 64 && t.bits != 32) || t.lanes != 1) {
    return Error(node, absl::StrCat(what, " must be a 1-D int32 or int64 tensor"));
  }
  std::vector<int64_t> out(a->NumElements());
  for (size_t k = 0; k < out.size(); ++k) {
    out[k] = t.bits == 64 ? static_cast<const int64_t*>(a->data())[k]
                          : static_cast<const int32_t*>(a->data())[k];
  }
  return out;
}

absl::StatusOr<double> ImportContext::ConstantScalar(const NodeProto& node, int i,
                                                     const char* what) const {
  const runtime::NDArray* a = ConstantInput(node, i);
  if (a == nullptr || a->NumElements() != 1) {
    return Error(node, absl::StrCat(what, " (input ", i, ") must be a constant scalar"));
  }
  DLDataType t = a->dtype();
  const void* p = a->data();
  if (t.code == kDLFloat && t.bits == 32) return *static_cast<const float*>(p);
  if (t.code == kDLFloat && t.bits == 64) return *static_cast<const double*>(p);
  if (t.code == kDLInt && t.bits == 64) return static_cast<double>(*static_cast<const int64_t*>(p));
  if (t.code == kDLInt && t.bits == 32) return *static_cast<const int32_t*>(p);
  if (t.code == kDLInt && t.bits == 16) return *static_cast<const int16_t*>(p);
  if (t.code == kDLInt && t.bits == 8) return *static_cast<const int8_t*>(p);
  if (t.code == kDLUInt && t.bits == 64)
    return static_cast<double>(*static_cast<const uint64_t*>(p));
  if (t.code == kDLUInt && t.bits == 32) return *static_cast<const uint32_t*>(p);
  if (t.code == kDLUInt && t.bits == 16) return *static_cast<const uint16_t*>(p);
  if (t.code == kDLUInt && t.bits == 8) return *static_cast<const uint8_t*>(p);
  return Error(node, absl::StrCat(what, " must be a float32, float64 or integer scalar"));
}

std::string ImportContext::PartName(const NodeProto& node, const std::string& suffix) {
  if (!node.name().empty() || node.output_size() == 0) return node.name() + suffix;
  return node.output(0) + suffix;
}

namespace {

template <typename T>
void Store(runtime::NDArray& a, double value) {
  *static_cast<T*>(a.data()) = static_cast<T>(value);
}

}  // namespace

absl::StatusOr<runtime::NDArray> ImportContext::ScalarArray(DLDataType dtype, double value) {
  absl::StatusOr<runtime::NDArray> a = runtime::NDArray::Empty({}, dtype);
  if (!a.ok()) return a.status();
  const int bits = dtype.bits;
  if (dtype.code == kDLFloat && bits == 32) {
    Store<float>(*a, value);
  } else if (dtype.code == kDLFloat && bits == 64) {
    Store<double>(*a, value);
  } else if (dtype.code == kDLInt && bits == 8) {
    Store<int8_t>(*a, value);
  } else if (dtype.code == kDLInt && bits == 16) {
    Store<int16_t>(*a, value);
  } else if (dtype.code == kDLInt && bits == 32) {
    Store<int32_t>(*a, value);
  } else if (dtype.code == kDLInt && bits == 64) {
    Store<int64_t>(*a, value);
  } else if (dtype.code == kDLUInt && bits == 8) {
    Store<uint8_t>(*a, value);
  } else {
    return absl::InvalidArgumentError("a constant of " + runtime::DataTypeToString(dtype) +
                                      " is not supported");
  }
  return a;
}

absl::StatusOr<graph::ValueId> ImportContext::AddScalar(const NodeProto& node,
                                                        const std::string& suffix, DLDataType dtype,
                                                        double value) {
  absl::StatusOr<runtime::NDArray> a = ScalarArray(dtype, value);
  if (!a.ok()) return Error(node, std::string(a.status().message()));
  return graph().AddConstant(PartName(node, suffix), *std::move(a));
}

absl::StatusOr<graph::ValueId> ImportContext::EmitInner(const NodeProto& node, graph::OpKind op,
                                                        const std::string& suffix,
                                                        graph::Attributes attrs,
                                                        std::vector<graph::ValueId> inputs) {
  absl::StatusOr<std::vector<graph::ValueId>> out =
      graph().AddOp(op, PartName(node, suffix), std::move(attrs), std::move(inputs));
  if (!out.ok()) return Error(node, std::string(out.status().message()));
  return (*out)[0];
}

absl::Status ImportContext::DefineValue(const NodeProto& node, int i, graph::ValueId value) {
  const std::string& name = node.output(i);
  if (values_.count(name) || constants_.count(name)) {
    return Error(node, absl::StrCat("output '", name, "' is defined twice"));
  }
  values_[name] = value;
  return absl::OkStatus();
}

absl::Status ImportContext::Define(const std::string& name, graph::ValueId value) {
  if (values_.count(name) || constants_.count(name)) {
    return absl::InvalidArgumentError(absl::StrCat("value '", name, "' is defined twice"));
  }
  values_[name] = value;
  return absl::OkStatus();
}

absl::Status ImportContext::DefineConstant(const std::string& name, runtime::NDArray value) {
  if (values_.count(name) || constants_.count(name)) {
    return absl::InvalidArgumentError(absl::StrCat("value '", name, "' is defined twice"));
  }
  constants_.emplace(name, std::move(value));
  return absl::OkStatus();
}

absl::StatusOr<bool> ImportContext::FoldIntegerOp(const NodeProto& node, graph::OpKind op,
                                                  const graph::Attributes& attrs,
                                                  const std::vector<graph::ValueId>& inputs) {
  std::vector<const runtime::NDArray*> data;
  std::vector<graph::TensorType> types;
  for (graph::ValueId id : inputs) {
    const runtime::NDArray* c = graph_.ConstantData(id);
    if (c == nullptr) return false;
    data.push_back(c);
    types.push_back(graph_.value(id).type);
  }
  graph::Node n{op, node.name(), attrs, inputs, {}};
  absl::StatusOr<std::vector<graph::TensorType>> outs = graph::InferOutputTypes(n, types);
  if (!outs.ok()) return false;  // Emit reports it
  int64_t bytes = 0;
  for (const graph::TensorType& t : *outs) {
    absl::StatusOr<int64_t> b = t.NumBytes();
    // Integers and bools: shape arithmetic and its comparisons (Equal -> Where in exports).
    if ((t.dtype.code != kDLInt && t.dtype.code != kDLUInt) || !b.ok()) return false;
    bytes += *b;
  }
  if (bytes > kMaxFoldedBytes || outs->size() > static_cast<size_t>(node.output_size())) {
    return false;
  }
  absl::StatusOr<std::vector<runtime::NDArray>> values = graph::EvaluateOp(n, data);
  if (!values.ok()) return Error(node, std::string(values.status().message()));
  for (size_t i = 0; i < values->size(); ++i) {
    if (node.output(i).empty()) continue;
    absl::Status s = DefineConstant(node.output(i), std::move((*values)[i]));
    if (!s.ok()) return s;
  }
  return true;
}

absl::Status ImportContext::Emit(const NodeProto& node, graph::OpKind op, graph::Attributes attrs,
                                 std::vector<graph::ValueId> inputs) {
  absl::StatusOr<bool> folded = FoldIntegerOp(node, op, attrs, inputs);
  if (!folded.ok()) return folded.status();
  if (*folded) return absl::OkStatus();
  std::vector<std::string> names(node.output().begin(), node.output().end());
  absl::StatusOr<std::vector<graph::ValueId>> outs =
      graph_.AddOp(op, node.name(), std::move(attrs), std::move(inputs), names);
  if (!outs.ok()) {
    return absl::Status(outs.status().code(), absl::StrCat("ONNX ", node.op_type(), " (opset ",
                                                           opset_, "): ", outs.status().message()));
  }
  for (size_t i = 0; i < outs->size() && i < names.size(); ++i) {
    if (names[i].empty()) continue;
    absl::Status s = DefineValue(node, static_cast<int>(i), (*outs)[i]);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

const AttributeProto* ImportContext::FindAttr(const NodeProto& node,
                                              const std::string& name) const {
  for (const AttributeProto& a : node.attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

bool ImportContext::HasAttr(const NodeProto& node, const std::string& name) const {
  return FindAttr(node, name) != nullptr;
}

absl::StatusOr<int64_t> ImportContext::AttrInt(const NodeProto& node, const std::string& name,
                                               int64_t fallback) const {
  const AttributeProto* a = FindAttr(node, name);
  if (a == nullptr) return fallback;
  if (a->type() != AttributeProto::INT)
    return Error(node, "attribute '" + name + "' is not an int");
  return a->i();
}

absl::StatusOr<double> ImportContext::AttrFloat(const NodeProto& node, const std::string& name,
                                                double fallback) const {
  const AttributeProto* a = FindAttr(node, name);
  if (a == nullptr) return fallback;
  if (a->type() != AttributeProto::FLOAT) {
    return Error(node, "attribute '" + name + "' is not a float");
  }
  return static_cast<double>(a->f());
}

absl::StatusOr<std::string> ImportContext::AttrString(const NodeProto& node,
                                                      const std::string& name,
                                                      std::string fallback) const {
  const AttributeProto* a = FindAttr(node, name);
  if (a == nullptr) return fallback;
  if (a->type() != AttributeProto::STRING) {
    return Error(node, "attribute '" + name + "' is not a string");
  }
  return a->s();
}

absl::StatusOr<std::vector<int64_t>> ImportContext::AttrInts(const NodeProto& node,
                                                             const std::string& name,
                                                             std::vector<int64_t> fallback) const {
  const AttributeProto* a = FindAttr(node, name);
  if (a == nullptr) return fallback;
  if (a->type() != AttributeProto::INTS) {
    return Error(node, "attribute '" + name + "' is not a list of ints");
  }
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

}  // namespace tunefarm::frontend::onnx
