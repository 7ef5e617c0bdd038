// CodeGenGpu, expressions: literals, variables, arithmetic (C and floor division), comparisons,
// select and lazy if_then_else (both as ?:), casts, ramps and broadcasts lane by lane, loads,
// whole-vector values for aligned 2- and 4-lane stores, and math intrinsics, in either dialect.
#include <cinttypes>
#include <cmath>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "compiler/codegen/gpu/codegen_gpu.h"
#include "compiler/ir/printer.h"

namespace tunefarm::codegen::gpu {
namespace {

bool Divisible(const ir::Expr& e, int64_t k) {
  if (auto v = ir::AsConstInt(e)) return *v % k == 0;
  if (const auto* m = e.As<ir::MulNode>()) return Divisible(m->a, k) || Divisible(m->b, k);
  if (const auto* a = e.As<ir::AddNode>()) return Divisible(a->a, k) && Divisible(a->b, k);
  if (const auto* s = e.As<ir::SubNode>()) return Divisible(s->a, k) && Divisible(s->b, k);
  return false;
}

std::string VectorTypeName(ir::DataType t) {
  return absl::StrCat(t.is_float() ? "float" : "int", t.lanes());
}

// The suffix of a per-type OpenCL helper: "i32", "u64", "f32".
std::string TypeSuffix(ir::DataType t) {
  const char kind = t.is_float() ? 'f' : t.code() == ir::DataType::Code::kUInt ? 'u' : 'i';
  return absl::StrCat(std::string(1, kind), t.bits());
}

}  // namespace

std::string GpuTypeName(ir::DataType t, GpuDialect dialect) {
  if (t.is_vector()) return "";
  if (t.is_bool()) return "bool";
  if (t.is_handle()) return "void*";
  const bool u = t.code() == ir::DataType::Code::kUInt;
  if (dialect == GpuDialect::kOpenCl) {
    if (t.is_float())
      return t.bits() == 32 ? "float" : t.bits() == 64 ? "double" : t.bits() == 16 ? "half" : "";
    switch (t.bits()) {
      case 8:
        return u ? "uchar" : "char";
      case 16:
        return u ? "ushort" : "short";
      case 32:
        return u ? "uint" : "int";
      case 64:
        return u ? "ulong" : "long";
      default:
        return "";
    }
  }
  if (t.is_float()) return t.bits() == 32 ? "float" : t.bits() == 64 ? "double" : "";
  switch (t.bits()) {
    case 8:
      return u ? "unsigned char" : "signed char";
    case 16:
      return u ? "unsigned short" : "short";
    case 32:
      return u ? "unsigned int" : "int";
    case 64:
      return u ? "unsigned long long" : "long long";
    default:
      return "";
  }
}

bool CodeGenGpu::IsAlignedContiguous(const ir::Expr& index, ir::DataType value_type) {
  const auto* ramp = index.As<ir::RampNode>();
  const int lanes = value_type.lanes();
  const bool word = (value_type.is_float() || value_type.is_int()) && value_type.bits() == 32;
  return ramp != nullptr && word && (lanes == 2 || lanes == 4) && ir::IsConstInt(ramp->stride, 1) &&
         Divisible(ramp->base, lanes);
}

std::string CodeGenGpu::Literal(const ir::Expr& e) {
  const ir::DataType t = e.dtype();
  if (const auto* f = e.As<ir::FloatImmNode>()) {
    const bool single = t.bits() == 32;
    // Bit patterns: neither dialect has a literal for NaN or infinity.
    const char* as_f32 = opencl() ? "as_float" : "__int_as_float";
    const char* as_f64 = opencl() ? "as_double" : "__longlong_as_double";
    const char* l64 = opencl() ? "L" : "ll";
    if (std::isnan(f->value)) {
      return single ? absl::StrCat(as_f32, "(0x7fc00000)")
                    : absl::StrCat(as_f64, "(0x7ff8000000000000", l64, ")");
    }
    if (std::isinf(f->value)) {
      const bool neg = f->value < 0;
      if (single) return absl::StrCat(as_f32, neg ? "(0xff800000)" : "(0x7f800000)");
      return absl::StrCat(as_f64, neg ? "(0xfff0000000000000" : "(0x7ff0000000000000", l64, ")");
    }
    char buf[64];
    std::snprintf(buf, sizeof(buf), single ? "%.9g" : "%.17g", f->value);
    std::string s = buf;
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    if (single) s += "f";
    return f->value < 0 ? absl::StrCat("(", s, ")") : s;
  }
  const int64_t v = *ir::AsConstInt(e);
  if (t.is_bool()) return v ? "true" : "false";
  if (t.is_int() && t.bits() == 32) {
    if (v == INT32_MIN) return "(-2147483647 - 1)";
    return v < 0 ? absl::StrCat("(", v, ")") : absl::StrCat(v);
  }
  const char* l64 = opencl() ? "L" : "ll";
  if (t.is_int() && t.bits() == 64) {
    if (v == INT64_MIN) return absl::StrCat("(-9223372036854775807", l64, " - 1)");
    return v < 0 ? absl::StrCat("(", v, l64, ")") : absl::StrCat(v, l64);
  }
  if (t.is_uint() && t.bits() == 64) {
    return absl::StrCat(static_cast<uint64_t>(v), opencl() ? "UL" : "ull");
  }
  return absl::StrCat("((", TypeName(t), ")", v, ")");
}

std::string CodeGenGpu::Binary(const char* op, const ir::Expr& a, const ir::Expr& b, int lane) {
  return absl::StrCat("(", Operand(a, lane), " ", op, " ", Operand(b, lane), ")");
}

std::string CodeGenGpu::Helper(const char* name, const ir::Expr& a, const ir::Expr& b, int lane) {
  std::string fn = absl::StrCat("tf_", name);
  if (opencl()) {
    absl::StrAppend(&fn, "_", TypeSuffix(a.dtype().element_of()));
    helpers_.insert(fn);
  }
  return absl::StrCat(fn, "(", Operand(a, lane), ", ", Operand(b, lane), ")");
}

std::string CodeGenGpu::Call(const ir::CallNode* op, int lane) {
  auto arg = [&](size_t i) { return Operand(op->args[i], lane); };
  // CUDA's single-precision math is expf, sqrtf...; OpenCL's builtins are overloaded.
  const bool f32 = op->dtype.element_of() == ir::DataType::Float(32) && !opencl();
  auto math = [&](const char* name) {
    std::string call = absl::StrCat(name, f32 ? "f(" : "(", arg(0));
    if (op->args.size() > 1) absl::StrAppend(&call, ", ", arg(1));
    return call + ")";
  };
  switch (op->op) {
    case ir::Intrinsic::kExp:
      return math("exp");
    case ir::Intrinsic::kLog:
      return math("log");
    case ir::Intrinsic::kSqrt:
      return math("sqrt");
    case ir::Intrinsic::kTanh:
      return math("tanh");
    case ir::Intrinsic::kFabs:
      return math("fabs");
    case ir::Intrinsic::kPow:
      return math("pow");
    case ir::Intrinsic::kFloor:
      return math("floor");
    case ir::Intrinsic::kCeil:
      return math("ceil");
    case ir::Intrinsic::kErf:
      return math("erf");
    case ir::Intrinsic::kRound:  // rint rounds halfway cases to even, in both languages
      return math("rint");
    case ir::Intrinsic::kSin:
      return math("sin");
    case ir::Intrinsic::kCos:
      return math("cos");
    case ir::Intrinsic::kTan:
      return math("tan");
    case ir::Intrinsic::kSinh:
      return math("sinh");
    case ir::Intrinsic::kCosh:
      return math("cosh");
    case ir::Intrinsic::kAsin:
      return math("asin");
    case ir::Intrinsic::kAcos:
      return math("acos");
    case ir::Intrinsic::kAtan:
      return math("atan");
    case ir::Intrinsic::kAsinh:
      return math("asinh");
    case ir::Intrinsic::kAcosh:
      return math("acosh");
    case ir::Intrinsic::kAtanh:
      return math("atanh");
    case ir::Intrinsic::kSigmoid:
      if (op->dtype.element_of() == ir::DataType::Float(32)) {
        return absl::StrCat("(1.0f / (1.0f + ", f32 ? "expf" : "exp", "(-", arg(0), ")))");
      }
      return absl::StrCat("(1.0 / (1.0 + exp(-", arg(0), ")))");
    case ir::Intrinsic::kLikely:
      return arg(0);
    case ir::Intrinsic::kIfThenElse:  // ?: evaluates only the chosen operand, as required
      return absl::StrCat("(", arg(0), " ? ", arg(1), " : ", arg(2), ")");
    case ir::Intrinsic::kSyncThreads:
      Fail(absl::InvalidArgumentError("sync_threads() used as a value (only in Evaluate)"));
      return "0";
    case ir::Intrinsic::kDot4Add:
      Fail(absl::UnimplementedError(
          "dot4_add (a tensorized int8 dot product) has no GPU form; tensorize for a CPU target"));
      return "0";
  }
  return "0";
}

void CodeGenGpu::HoistVectorLoads(const ir::Expr& e, std::vector<std::string>* decls) {
  const ir::DataType t = e.dtype();
  if (t.is_scalar()) return;  // a scalar expression holds no vector load
  if (const auto* load = e.As<ir::LoadNode>()) {
    if (IsAlignedContiguous(load->index, t) && vector_temps_.count(e.get()) == 0) {
      const std::string name = Fresh("vec");
      decls->push_back(
          absl::StrCat("const ", VectorTypeName(t), " ", name, " = ", VectorLoad(load, t), ";"));
      vector_temps_[e.get()] = name;
    }
    return;
  }
  switch (e.kind()) {
#define TF_GPU_HOIST(Name)                              \
  case ir::ExprKind::k##Name:                           \
    HoistVectorLoads(e.As<ir::Name##Node>()->a, decls); \
    HoistVectorLoads(e.As<ir::Name##Node>()->b, decls); \
    return;
    TF_IR_BINARY_NODES(TF_GPU_HOIST)
#undef TF_GPU_HOIST
    case ir::ExprKind::kNot:
      return HoistVectorLoads(e.As<ir::NotNode>()->a, decls);
    case ir::ExprKind::kCast:
      return HoistVectorLoads(e.As<ir::CastNode>()->value, decls);
    case ir::ExprKind::kSelect: {
      const auto* op = e.As<ir::SelectNode>();
      HoistVectorLoads(op->condition, decls);
      HoistVectorLoads(op->true_value, decls);
      HoistVectorLoads(op->false_value, decls);
      return;
    }
    case ir::ExprKind::kCall: {
      const auto* op = e.As<ir::CallNode>();
      // if_then_else evaluates only the chosen operand: its loads may be out of bounds.
      const size_t n = op->op == ir::Intrinsic::kIfThenElse ? 1 : op->args.size();
      for (size_t i = 0; i < n; ++i) HoistVectorLoads(op->args[i], decls);
      return;
    }
    default:
      return;
  }
}

std::string CodeGenGpu::VectorValue(const ir::Expr& e) {
  const ir::DataType t = e.dtype();
  if (auto it = vector_temps_.find(e.get()); it != vector_temps_.end()) return it->second;
  if (const auto* load = e.As<ir::LoadNode>(); load && IsAlignedContiguous(load->index, t)) {
    return opencl() ? VectorLoad(load, t) : absl::StrCat("(", VectorLoad(load, t), ")");
  }
  if (const auto* call = e.As<ir::CallNode>();
      call && call->op == ir::Intrinsic::kIfThenElse && call->args[0].dtype().is_scalar()) {
    return absl::StrCat("(", Expr(call->args[0]), " ? ", VectorValue(call->args[1]), " : ",
                        VectorValue(call->args[2]), ")");
  }
  std::string s = opencl() ? absl::StrCat("((", VectorTypeName(t), ")(")
                           : absl::StrCat("make_", VectorTypeName(t), "(");
  for (int i = 0; i < t.lanes(); ++i) absl::StrAppend(&s, i ? ", " : "", Expr(e, i));
  return s + (opencl() ? "))" : ")");
}

std::string CodeGenGpu::VectorLoad(const ir::LoadNode* load, ir::DataType t) {
  const std::string base = Expr(load->index.As<ir::RampNode>()->base);
  if (opencl()) {
    return absl::StrCat("vload", t.lanes(), "(0, ", Name(load->buffer_var), " + ", base, ")");
  }
  return absl::StrCat("*(const ", VectorTypeName(t), "*)(", Name(load->buffer_var), " + ", base,
                      ")");
}

std::string CodeGenGpu::Expr(const ir::Expr& e, int lane) {
  if (e.dtype().is_vector() && lane < 0) {
    Fail(absl::UnimplementedError(
        absl::StrCat("vector expression in a scalar position: ", ir::ToString(e))));
    return "0";
  }
  switch (e.kind()) {
    case ir::ExprKind::kIntImm:
    case ir::ExprKind::kFloatImm:
      return Literal(e);
    case ir::ExprKind::kVar:
      return Name(ir::Var(std::static_pointer_cast<const ir::VarNode>(e.node_ptr())));
    case ir::ExprKind::kAdd:
      return Binary("+", e.As<ir::AddNode>()->a, e.As<ir::AddNode>()->b, lane);
    case ir::ExprKind::kSub:
      return Binary("-", e.As<ir::SubNode>()->a, e.As<ir::SubNode>()->b, lane);
    case ir::ExprKind::kMul:
      return Binary("*", e.As<ir::MulNode>()->a, e.As<ir::MulNode>()->b, lane);
    case ir::ExprKind::kDiv:
      return Binary("/", e.As<ir::DivNode>()->a, e.As<ir::DivNode>()->b, lane);
    case ir::ExprKind::kMod: {
      const auto* op = e.As<ir::ModNode>();
      if (e.dtype().is_float()) {
        return absl::StrCat("fmod(", Operand(op->a, lane), ", ", Operand(op->b, lane), ")");
      }
      return Binary("%", op->a, op->b, lane);
    }
#define TF_GPU_HELPER(Kind, Fn)              \
  case ir::ExprKind::k##Kind: {              \
    const auto* op = e.As<ir::Kind##Node>(); \
    return Helper(Fn, op->a, op->b, lane);   \
  }
      TF_GPU_HELPER(FloorDiv, "floordiv")
      TF_GPU_HELPER(FloorMod, "floormod")
      TF_GPU_HELPER(Min, "min")
      TF_GPU_HELPER(Max, "max")
#undef TF_GPU_HELPER
    case ir::ExprKind::kEQ:
      return Binary("==", e.As<ir::EQNode>()->a, e.As<ir::EQNode>()->b, lane);
    case ir::ExprKind::kNE:
      return Binary("!=", e.As<ir::NENode>()->a, e.As<ir::NENode>()->b, lane);
    case ir::ExprKind::kLT:
      return Binary("<", e.As<ir::LTNode>()->a, e.As<ir::LTNode>()->b, lane);
    case ir::ExprKind::kLE:
      return Binary("<=", e.As<ir::LENode>()->a, e.As<ir::LENode>()->b, lane);
    case ir::ExprKind::kGT:
      return Binary(">", e.As<ir::GTNode>()->a, e.As<ir::GTNode>()->b, lane);
    case ir::ExprKind::kGE:
      return Binary(">=", e.As<ir::GENode>()->a, e.As<ir::GENode>()->b, lane);
    case ir::ExprKind::kAnd:
      return Binary("&&", e.As<ir::AndNode>()->a, e.As<ir::AndNode>()->b, lane);
    case ir::ExprKind::kOr:
      return Binary("||", e.As<ir::OrNode>()->a, e.As<ir::OrNode>()->b, lane);
    case ir::ExprKind::kNot:
      return absl::StrCat("(!", Operand(e.As<ir::NotNode>()->a, lane), ")");
    case ir::ExprKind::kSelect: {
      const auto* op = e.As<ir::SelectNode>();
      return absl::StrCat("(", Operand(op->condition, lane), " ? ", Operand(op->true_value, lane),
                          " : ", Operand(op->false_value, lane), ")");
    }
    case ir::ExprKind::kCast: {
      const auto* op = e.As<ir::CastNode>();
      const std::string type = TypeName(e.dtype().element_of());
      if (type.empty()) break;
      return absl::StrCat("((", type, ")", Operand(op->value, lane), ")");
    }
    case ir::ExprKind::kRamp: {
      const auto* op = e.As<ir::RampNode>();
      if (lane == 0) return Expr(op->base);
      if (auto stride = ir::AsConstInt(op->stride)) {
        return absl::StrCat("(", Expr(op->base), " + ", *stride * lane, ")");
      }
      return absl::StrCat("(", Expr(op->base), " + ", lane, " * ", Expr(op->stride), ")");
    }
    case ir::ExprKind::kBroadcast:
      return Expr(e.As<ir::BroadcastNode>()->value);
    case ir::ExprKind::kLet: {
      const auto* op = e.As<ir::LetNode>();
      if (op->var.dtype().is_vector()) break;
      if (opencl()) {  // OpenCL C has no lambdas; its compilers (clang) take statement expressions
        return absl::StrCat("({ const ", TypeName(op->var.dtype()), " ", Name(op->var), " = ",
                            Expr(op->value), "; ", Operand(op->body, lane), "; })");
      }
      return absl::StrCat("([&]() { const ", TypeName(op->var.dtype()), " ", Name(op->var), " = ",
                          Expr(op->value), "; return ", Operand(op->body, lane), "; }())");
    }
    case ir::ExprKind::kCall:
      return Call(e.As<ir::CallNode>(), lane);
    case ir::ExprKind::kLoad: {
      const auto* op = e.As<ir::LoadNode>();
      if (auto it = vector_temps_.find(e.get()); it != vector_temps_.end() && lane >= 0) {
        return absl::StrCat(it->second, opencl() ? ".s" : ".",
                            std::string(1, (opencl() ? "0123" : "xyzw")[lane]));
      }
      return absl::StrCat(Name(op->buffer_var), "[", Operand(op->index, lane), "]");
    }
    default:
      break;
  }
  Fail(
      absl::UnimplementedError(absl::StrCat(opencl() ? "the OpenCL code generator does not support "
                                                     : "the CUDA code generator does not support ",
                                            ir::ToString(e))));
  return "0";
}

}  // namespace tunefarm::codegen::gpu
