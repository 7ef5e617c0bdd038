// Builds small ONNX models in tests with the onnx_proto message classes (no Python needed).
#pragma once

#include <initializer_list>
#include <onnx/onnx_pb.h>
#include <string>
#include <vector>

namespace tunefarm::frontend::onnx::testing {

class OnnxModelBuilder {
 public:
  explicit OnnxModelBuilder(int64_t opset = 13) {
    model_.set_ir_version(8);
    auto* o = model_.add_opset_import();
    o->set_domain("");
    o->set_version(opset);
    model_.mutable_graph()->set_name("test");
  }

  ::onnx::ValueInfoProto* Input(const std::string& name, std::vector<int64_t> shape,
                                int elem_type = ::onnx::TensorProto::FLOAT) {
    auto* in = model_.mutable_graph()->add_input();
    SetType(in, shape, elem_type);
    in->set_name(name);
    return in;
  }
  void Output(const std::string& name) { model_.mutable_graph()->add_output()->set_name(name); }

  ::onnx::TensorProto* FloatInit(const std::string& name, std::vector<int64_t> dims,
                                 float fill = 0.5f) {
    auto* t = model_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(::onnx::TensorProto::FLOAT);
    int64_t n = 1;
    for (int64_t d : dims) {
      t->add_dims(d);
      n *= d;
    }
    for (int64_t i = 0; i < n; ++i) t->add_float_data(fill);
    return t;
  }
  ::onnx::TensorProto* IntInit(const std::string& name, std::vector<int64_t> values) {
    auto* t = model_.mutable_graph()->add_initializer();
    t->set_name(name);
    t->set_data_type(::onnx::TensorProto::INT64);
    t->add_dims(static_cast<int64_t>(values.size()));
    for (int64_t v : values) t->add_int64_data(v);
    return t;
  }

  ::onnx::NodeProto* Node(const std::string& op, std::vector<std::string> inputs,
                          std::vector<std::string> outputs, const std::string& name = "") {
    auto* n = model_.mutable_graph()->add_node();
    n->set_op_type(op);
    n->set_name(name.empty() ? outputs.empty() ? op : outputs[0] : name);
    for (const auto& i : inputs) n->add_input(i);
    for (const auto& o : outputs) n->add_output(o);
    return n;
  }

  static void Ints(::onnx::NodeProto* n, const std::string& name, std::vector<int64_t> values) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(::onnx::AttributeProto::INTS);
    for (int64_t v : values) a->add_ints(v);
  }
  static void Int(::onnx::NodeProto* n, const std::string& name, int64_t v) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(::onnx::AttributeProto::INT);
    a->set_i(v);
  }
  static void Float(::onnx::NodeProto* n, const std::string& name, float v) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(::onnx::AttributeProto::FLOAT);
    a->set_f(v);
  }
  static void String(::onnx::NodeProto* n, const std::string& name, const std::string& v) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(::onnx::AttributeProto::STRING);
    a->set_s(v);
  }

  ::onnx::ModelProto& model() { return model_; }
  std::string Bytes() const { return model_.SerializeAsString(); }

 private:
  static void SetType(::onnx::ValueInfoProto* v, const std::vector<int64_t>& shape, int elem_type) {
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(elem_type);
    auto* s = t->mutable_shape();
    for (int64_t d : shape) s->add_dim()->set_dim_value(d);
  }

  ::onnx::ModelProto model_;
};

}  // namespace tunefarm::frontend::onnx::testing
