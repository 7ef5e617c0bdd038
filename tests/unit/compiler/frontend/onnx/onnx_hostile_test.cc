// Malformed, truncated and hostile model files: each is a clear error, never a crash, and never an
// allocation of what the file claims.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/frontend/onnx/onnx_importer.h"
#include "tests/testing/files.h"
#include "tests/unit/compiler/frontend/onnx/onnx_model_builder.h"

namespace tunefarm::frontend::onnx {
namespace {

using ::testing::HasSubstr;
using testing::OnnxModelBuilder;
using B = OnnxModelBuilder;

std::string ErrorOf(const std::string& bytes, const OnnxImportOptions& options = {}) {
  absl::StatusOr<graph::Graph> g = ImportOnnxBytes(bytes, options);
  return g.ok() ? "ok" : std::string(g.status().message());
}

B ReluModel() {
  B b(13);
  b.Input("x", {2, 3});
  b.Node("Relu", {"x"}, {"y"});
  b.Output("y");
  return b;
}

TEST(OnnxHostileTest, NotAProtobuf) {
  EXPECT_THAT(ErrorOf("\x89PNG\r\n\x1a\n not a model at all"), HasSubstr("not an ONNX model"));
  EXPECT_THAT(ErrorOf(std::string(64, '\xff')), HasSubstr("not an ONNX model"));
  EXPECT_THAT(ErrorOf(""), HasSubstr("not an ONNX model"));
  EXPECT_THAT(ErrorOf("hello world\n"), HasSubstr("not an ONNX model"));
}

TEST(OnnxHostileTest, Truncated) {
  B b = ReluModel();
  b.FloatInit("w", {64, 64});
  std::string bytes = b.Bytes();
  for (size_t cut : {bytes.size() - 1, bytes.size() / 2, size_t{3}}) {
    std::string error = ErrorOf(bytes.substr(0, cut));
    EXPECT_THAT(error, HasSubstr("not an ONNX model")) << cut;
  }
}

TEST(OnnxHostileTest, HugeAndOverflowingDims) {
  B b = ReluModel();
  b.model()
      .mutable_graph()
      ->mutable_input(0)
      ->mutable_type()
      ->mutable_tensor_type()
      ->mutable_shape()
      ->mutable_dim(0)
      ->set_dim_value(int64_t{1} << 62);
  EXPECT_THAT(ErrorOf(b.Bytes()), HasSubstr("graph input 'x': dimension 4611686018427387904"));
  B neg = ReluModel();
  neg.model()
      .mutable_graph()
      ->mutable_input(0)
      ->mutable_type()
      ->mutable_tensor_type()
      ->mutable_shape()
      ->mutable_dim(0)
      ->set_dim_value(-5);
  EXPECT_THAT(ErrorOf(neg.Bytes()), HasSubstr("negative dimension -5"));

  // An initializer whose dims multiply past int64, with no data.
  B over = ReluModel();
  auto* t = over.model().mutable_graph()->add_initializer();
  t->set_name("w");
  t->set_data_type(::onnx::TensorProto::FLOAT);
  for (int i = 0; i < 4; ++i) t->add_dims(int64_t{1} << 20);
  EXPECT_THAT(ErrorOf(over.Bytes()), HasSubstr("initializer 'w': shape"));
}

TEST(OnnxHostileTest, TenGigabyteTensorWithShortData) {
  B b = ReluModel();
  auto* t = b.model().mutable_graph()->add_initializer();
  t->set_name("big");
  t->set_data_type(::onnx::TensorProto::FLOAT);
  t->add_dims(int64_t{10} << 30);
  t->add_dims(1);
  t->set_raw_data(std::string(16, '\0'));
  EXPECT_EQ(ErrorOf(b.Bytes()),
            "initializer 'big' claims 10737418240 elements of shape [10737418240,1] "
            "(42949672960 bytes) but holds 16 bytes");
  t->clear_raw_data();
  t->add_float_data(1.0f);
  EXPECT_THAT(ErrorOf(b.Bytes()), HasSubstr("claims 10737418240 elements"));
}

TEST(OnnxHostileTest, ExternalData) {
  B b = ReluModel();
  auto* t = b.FloatInit("w", {2});
  t->clear_float_data();
  t->set_data_location(::onnx::TensorProto::EXTERNAL);
  auto* e = t->add_external_data();
  e->set_key("location");
  e->set_value("/etc/passwd");
  absl::StatusOr<graph::Graph> g = ImportOnnxBytes(b.Bytes());
  EXPECT_EQ(g.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(g.status().message()), HasSubstr("external file"));
}

TEST(OnnxHostileTest, CyclicGraph) {
  B b(13);
  b.Input("x", {2});
  b.Node("Add", {"x", "c"}, {"a"}, "first");
  b.Node("Relu", {"a"}, {"c"}, "second");
  b.Output("c");
  EXPECT_EQ(ErrorOf(b.Bytes()),
            "the graph has a cycle through the nodes 'first' (Add), 'second' (Relu)");
  B self(13);
  self.Input("x", {2});
  self.Node("Relu", {"y"}, {"y"}, "loop");
  self.Output("y");
  EXPECT_THAT(ErrorOf(self.Bytes()), HasSubstr("cycle through the nodes 'loop'"));
}

TEST(OnnxHostileTest, MissingAndDuplicateValues) {
  B b(13);
  b.Input("x", {2});
  b.Node("Add", {"x", "ghost"}, {"y"}, "add");
  b.Output("y");
  EXPECT_EQ(ErrorOf(b.Bytes()), "Add node 'add' reads 'ghost', which nothing defines");
  B dup(13);
  dup.Input("x", {2});
  dup.Node("Relu", {"x"}, {"y"}, "r1");
  dup.Node("Relu", {"x"}, {"y"}, "r2");
  dup.Output("y");
  EXPECT_THAT(ErrorOf(dup.Bytes()), HasSubstr("Relu node 'r2' defines 'y', which is already"));
  B out(13);
  out.Input("x", {2});
  out.Node("Relu", {"x"}, {"y"});
  out.Output("nowhere");
  EXPECT_EQ(ErrorOf(out.Bytes()), "graph output 'nowhere' is not defined");
}

// Found by libFuzzer (corpus file regression-shape-node-without-output): a Shape node without
// outputs was read past its empty output list.
TEST(OnnxHostileTest, ANodeWithoutOutputsIsRefused) {
  B b(13);
  b.Input("x", {2, 3});
  b.Node("Shape", {"x"}, {}, "shape");
  b.Node("Relu", {"x"}, {"y"});
  b.Output("y");
  EXPECT_EQ(ErrorOf(b.Bytes()), "Shape node 'shape' defines no output");
}

TEST(OnnxHostileTest, OpsetOutOfRangeAndNoGraph) {
  B b(22);
  b.Input("x", {2});
  EXPECT_EQ(ErrorOf(b.Bytes()), "the model uses opset 22; opsets 1 to 21 are supported");
  B zero(0);
  EXPECT_THAT(ErrorOf(zero.Bytes()), HasSubstr("opset 0"));
  ::onnx::ModelProto empty;
  empty.set_ir_version(8);
  EXPECT_THAT(ErrorOf(empty.SerializeAsString()), HasSubstr("no graph"));
  B no_opset = ReluModel();
  no_opset.model().clear_opset_import();
  EXPECT_THAT(ErrorOf(no_opset.Bytes()), HasSubstr("imports no opset"));
}

TEST(OnnxHostileTest, BadAttributesAndShapesNameTheNode) {
  B b(13);
  b.Input("x", {1, 3, 8, 8});
  b.FloatInit("w", {4, 3, 3, 3});
  auto* conv = b.Node("Conv", {"x", "w"}, {"y"}, "conv");
  B::Ints(conv, "strides", {int64_t{1} << 62, 1});
  b.Output("y");
  EXPECT_THAT(ErrorOf(b.Bytes()), HasSubstr("conv2d node 'conv': strides value"));
  B kinds(13);
  kinds.Input("x", {1, 3, 8, 8});
  auto* flatten = kinds.Node("Flatten", {"x"}, {"y"}, "flat");
  B::String(flatten, "axis", "one");
  kinds.Output("y");
  EXPECT_EQ(ErrorOf(kinds.Bytes()),
            "Flatten node 'flat' (opset 13): attribute 'axis' is not an int");
  B reshape(13);
  reshape.Input("x", {4});
  reshape.IntInit("shape", {INT64_MAX, 2});
  reshape.Node("Reshape", {"x", "shape"}, {"y"}, "rs");
  reshape.Output("y");
  EXPECT_THAT(ErrorOf(reshape.Bytes()), HasSubstr("reshape node 'rs'"));
  B gather(13);
  gather.Input("x", {4});
  gather.IntInit("big", {1, 2, 3});
  gather.IntInit("idx", {7});
  gather.Node("Gather", {"big", "idx"}, {"y"}, "g");
  gather.Output("y");
  EXPECT_THAT(ErrorOf(gather.Bytes()), HasSubstr("index 7 is out of range"));
}

TEST(OnnxHostileTest, FilesTooLargeOrMissing) {
  B b = ReluModel();
  std::string path = fixtures::WriteTempFile("relu.onnx", b.Bytes());
  EXPECT_TRUE(ImportOnnxFile(path).ok());
  OnnxImportOptions small;
  small.max_file_bytes = 8;
  absl::StatusOr<graph::Graph> g = ImportOnnxFile(path, small);
  EXPECT_THAT(std::string(g.status().message()), HasSubstr("at most 8 are read"));
  EXPECT_EQ(ImportOnnxFile("/nonexistent/model.onnx").status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace tunefarm::frontend::onnx
