#include "compiler/frontend/onnx/tensor_proto.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "compiler/graph/tensor_type.h"
#include "runtime/data_type.h"

namespace tunefarm::frontend::onnx {
namespace {

using ::onnx::TensorProto;

// How many values the typed field that holds `code`'s elements has (-1: no such field).
int64_t TypedFieldSize(const TensorProto& t) {
  switch (t.data_type()) {
    case TensorProto::FLOAT:
      return t.float_data_size();
    case TensorProto::DOUBLE:
      return t.double_data_size();
    case TensorProto::INT64:
      return t.int64_data_size();
    case TensorProto::UINT32:
    case TensorProto::UINT64:
      return t.uint64_data_size();
    default:
      return t.int32_data_size();  // the narrow ints, bool, float16 and bfloat16 (as bits)
  }
}

template <typename T, typename Field>
void CopyField(const Field& field, void* out) {
  T* dst = static_cast<T*>(out);
  for (int i = 0; i < field.size(); ++i) dst[i] = static_cast<T>(field.Get(i));
}

void CopyTypedField(const TensorProto& t, void* out) {
  switch (t.data_type()) {
    case TensorProto::FLOAT:
      return CopyField<float>(t.float_data(), out);
    case TensorProto::DOUBLE:
      return CopyField<double>(t.double_data(), out);
    case TensorProto::INT64:
      return CopyField<int64_t>(t.int64_data(), out);
    case TensorProto::UINT32:
      return CopyField<uint32_t>(t.uint64_data(), out);
    case TensorProto::UINT64:
      return CopyField<uint64_t>(t.uint64_data(), out);
    case TensorProto::INT32:
      return CopyField<int32_t>(t.int32_data(), out);
    case TensorProto::INT16:
      return CopyField<int16_t>(t.int32_data(), out);
    case TensorProto::UINT16:
    case TensorProto::FLOAT16:
    case TensorProto::BFLOAT16:
      return CopyField<uint16_t>(t.int32_data(), out);
    case TensorProto::INT8:
      return CopyField<int8_t>(t.int32_data(), out);
    default:
      return CopyField<uint8_t>(t.int32_data(), out);  // uint8, bool
  }
}

}  // namespace

absl::StatusOr<DLDataType> DataTypeFromOnnx(int32_t code) {
  switch (code) {
    case TensorProto::FLOAT:
      return DLDataType{kDLFloat, 32, 1};
    case TensorProto::DOUBLE:
      return DLDataType{kDLFloat, 64, 1};
    case TensorProto::FLOAT16:
      return DLDataType{kDLFloat, 16, 1};
    case TensorProto::BFLOAT16:
      return DLDataType{kDLBfloat, 16, 1};
    case TensorProto::INT8:
      return DLDataType{kDLInt, 8, 1};
    case TensorProto::INT16:
      return DLDataType{kDLInt, 16, 1};
    case TensorProto::INT32:
      return DLDataType{kDLInt, 32, 1};
    case TensorProto::INT64:
      return DLDataType{kDLInt, 64, 1};
    case TensorProto::UINT8:
      return DLDataType{kDLUInt, 8, 1};
    case TensorProto::UINT16:
      return DLDataType{kDLUInt, 16, 1};
    case TensorProto::UINT32:
      return DLDataType{kDLUInt, 32, 1};
    case TensorProto::UINT64:
      return DLDataType{kDLUInt, 64, 1};
    case TensorProto::BOOL:
      return runtime::kDLBool;
    case TensorProto::STRING:
    case TensorProto::COMPLEX64:
    case TensorProto::COMPLEX128:
      return absl::UnimplementedError(absl::StrCat(
          "tensor element type ", TensorProto::DataType_Name(code), " is not supported"));
    default:
      return absl::InvalidArgumentError(absl::StrCat("unknown tensor element type ", code));
  }
}

absl::StatusOr<runtime::NDArray> ArrayFromTensorProto(const TensorProto& t,
                                                      const std::string& what) {
  if (t.data_location() == TensorProto::EXTERNAL || t.external_data_size() > 0) {
    return absl::UnimplementedError(
        absl::StrCat(what, " keeps its data in an external file, which is not supported"));
  }
  if (t.has_segment()) {
    return absl::UnimplementedError(absl::StrCat(what, " is segmented, which is not supported"));
  }
  absl::StatusOr<DLDataType> dtype = DataTypeFromOnnx(t.data_type());
  if (!dtype.ok())
    return absl::Status(dtype.status().code(), absl::StrCat(what, ": ", dtype.status().message()));
  std::vector<int64_t> shape(t.dims().begin(), t.dims().end());
  absl::StatusOr<int64_t> count = graph::CheckedNumElements(shape);
  if (!count.ok())
    return absl::InvalidArgumentError(absl::StrCat(what, ": ", count.status().message()));
  size_t elem_bytes = runtime::DataTypeBytes(*dtype);
  // Both checks come before the allocation: a file may claim any size, but the bytes it holds
  // bound what we allocate.
  if (t.has_raw_data()) {
    if (t.raw_data().size() / elem_bytes != static_cast<uint64_t>(*count) ||
        t.raw_data().size() % elem_bytes != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " claims ", *count, " elements of shape ", graph::ShapeToString(shape),
                       " (", static_cast<uint64_t>(*count) * elem_bytes, " bytes) but holds ",
                       t.raw_data().size(), " bytes"));
    }
  } else if (TypedFieldSize(t) != *count) {
    return absl::InvalidArgumentError(absl::StrCat(what, " claims ", *count, " elements of shape ",
                                                   graph::ShapeToString(shape), " but holds ",
                                                   TypedFieldSize(t)));
  }
  absl::StatusOr<runtime::NDArray> array = runtime::NDArray::Empty(shape, *dtype);
  if (!array.ok()) return array.status();
  if (*count == 0) return array;
  if (t.has_raw_data()) {
    std::memcpy(array->data(), t.raw_data().data(), t.raw_data().size());
  } else {
    CopyTypedField(t, array->data());
  }
  return array;
}

}  // namespace tunefarm::frontend::onnx
