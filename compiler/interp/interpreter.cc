#include "compiler/interp/interpreter.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/interp/code_builder.h"
#include "runtime/data_type.h"

namespace tunefarm::interp {
namespace {

// The IR type an argument's DLPack dtype stands for; nullopt for types the IR lacks.
std::optional<ir::DataType> IrTypeOf(DLDataType t) {
  if (t.lanes != 1) return std::nullopt;
  switch (t.code) {
    case kDLInt:
      return ir::DataType::Int(t.bits);
    case kDLUInt:
      return ir::DataType::UInt(t.bits);
    case kDLFloat:
      return ir::DataType::Float(t.bits);
    default:
      return std::nullopt;
  }
}

absl::Status BindArgument(const ParamInfo& param, runtime::NDArray* array,
                          const std::vector<int64_t>& zeros, Frame& f) {
  const ir::Buffer& b = param.buffer;
  if (array == nullptr || !array->defined()) {
    return absl::InvalidArgumentError(absl::StrCat("argument for ", b->name, " is undefined"));
  }
  const std::optional<ir::DataType> type = IrTypeOf(array->dtype());
  if (!type || !(*type == b->dtype)) {
    return absl::InvalidArgumentError(absl::StrCat("argument for ", b->name, " has dtype ",
                                                   runtime::DataTypeToString(array->dtype()),
                                                   ", expected ", b->dtype.ToString()));
  }
  if (array->ndim() != static_cast<int>(b->shape.size())) {
    return absl::InvalidArgumentError(absl::StrCat("argument for ", b->name, " has rank ",
                                                   array->ndim(), ", expected ", b->shape.size()));
  }
  auto* data = static_cast<uint8_t*>(array->data());
  const int elem_bytes = b->dtype.bytes();
  f.buffers[param.buffer_slot] = BufferView{data, array->NumElements(), elem_bytes, false};
  f.tensors[param.tensor_slot] = TensorView{data,         array->NumElements(),  elem_bytes,
                                            zeros.data(), array->shape().data(), false};
  return absl::OkStatus();
}

// Binds shape variables from the arguments' shapes, then checks the other dimensions.
absl::Status BindShapes(const Program& p, const std::vector<runtime::NDArray*>& args, Frame& f) {
  for (const ShapeVarBinding& s : p.shape_vars) {
    const int64_t actual = args[s.param]->shape()[s.dim];
    const ir::DataType t = s.var.dtype();
    const auto bits = static_cast<uint64_t>(actual);
    const int64_t wrapped =
        t.is_int() ? WrapSigned(bits, ShiftOf(t)) : WrapUnsigned(bits, ShiftOf(t));
    const std::string where =
        absl::StrCat("dimension ", s.dim, " of ", p.params[s.param].buffer->name);
    if (wrapped != actual) {
      return absl::InvalidArgumentError(absl::StrCat(where, " is ", actual, ", which does not fit ",
                                                     s.var.name(), " of type ", t.ToString()));
    }
    if (s.binds) {
      f.slots[s.slot] = IntLane(actual);
    } else if (f.slots[s.slot].i != actual) {
      return absl::InvalidArgumentError(absl::StrCat(where, " is ", actual, " but ", s.var.name(),
                                                     " = ", f.slots[s.slot].i,
                                                     " from an earlier dimension"));
    }
  }
  for (const ShapeCheck& c : p.shape_checks) {
    const int64_t expected = c.expected->Scalar(f).i;
    if (f.failed()) return f.state->error;
    const int64_t actual = args[c.param]->shape()[c.dim];
    if (expected != actual) {
      return absl::InvalidArgumentError(absl::StrCat("dimension ", c.dim, " of ",
                                                     p.params[c.param].buffer->name, " is ", actual,
                                                     ", expected ", expected));
    }
  }
  return absl::OkStatus();
}

}  // namespace

CompiledFunc::CompiledFunc(std::shared_ptr<const Program> program) : program_(std::move(program)) {}

absl::StatusOr<CompiledFunc> CompiledFunc::Compile(const ir::PrimFunc& f) {
  absl::StatusOr<std::unique_ptr<Program>> program = BuildProgram(f);
  if (!program.ok()) return program.status();
  return CompiledFunc(std::shared_ptr<const Program>(std::move(*program)));
}

absl::Status CompiledFunc::Run(const std::vector<runtime::NDArray*>& args) const {
  const Program& p = *program_;
  if (args.size() != p.params.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected ", p.params.size(), " arguments, got ", args.size()));
  }
  ExecState state;
  BlockContext root;  // shared storage outside any blockIdx launch
  Frame f(p.num_slots, p.num_buffers, p.num_tensors, &state, &root);
  size_t max_rank = 0;
  for (const ParamInfo& param : p.params) max_rank = std::max(max_rank, param.buffer->shape.size());
  const std::vector<int64_t> zeros(max_rank, 0);
  for (size_t i = 0; i < args.size(); ++i) {
    absl::Status s = BindArgument(p.params[i], args[i], zeros, f);
    if (!s.ok()) return s;
  }
  absl::Status s = BindShapes(p, args, f);
  if (!s.ok()) return s;
  p.body->Run(f);
  return state.error;
}

absl::Status Run(const ir::PrimFunc& f, const std::vector<runtime::NDArray*>& args) {
  absl::StatusOr<CompiledFunc> compiled = CompiledFunc::Compile(f);
  if (!compiled.ok()) return compiled.status();
  return compiled->Run(args);
}

}  // namespace tunefarm::interp
