// Which ONNX nodes the importer can take, decided from each node alone so that every
// unsupported one is reported at once.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "compiler/frontend/onnx/converters.h"

namespace tunefarm::frontend::onnx {
namespace {

const ::onnx::AttributeProto* FindAttr(const NodeProto& node, const char* name) {
  for (const auto& a : node.attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

// Outputs after the first `n` that the node names (so something may read them).
bool NamesExtraOutputs(const NodeProto& node, int n) {
  for (int i = n; i < node.output_size(); ++i) {
    if (!node.output(i).empty()) return true;
  }
  return false;
}

// The attribute-level limits of the converters.
std::string AttributeReason(const NodeProto& node) {
  const std::string& op = node.op_type();
  if (op == "Pad") {
    const auto* mode = FindAttr(node, "mode");
    if (mode != nullptr && mode->s() != "constant") return "mode '" + mode->s() + "'";
  }
  if (op == "BatchNormalization") {
    const auto* training = FindAttr(node, "training_mode");
    if (training != nullptr && training->i() != 0) return "training_mode=1";
    const auto* spatial = FindAttr(node, "spatial");
    if (spatial != nullptr && spatial->i() == 0) return "spatial=0";
    if (NamesExtraOutputs(node, 1)) return "training outputs (running mean and variance)";
  }
  if (op == "Resize") {
    const auto* coordinates = FindAttr(node, "coordinate_transformation_mode");
    if (coordinates != nullptr &&
        (coordinates->s() == "tf_crop_and_resize" || coordinates->s() == "half_pixel_symmetric")) {
      return "coordinate_transformation_mode '" + coordinates->s() + "'";
    }
    const auto* antialias = FindAttr(node, "antialias");
    if (antialias != nullptr && antialias->i() != 0) return "antialias=1";
    const auto* policy = FindAttr(node, "keep_aspect_ratio_policy");
    if (policy != nullptr && policy->s() != "stretch") {
      return "keep_aspect_ratio_policy '" + policy->s() + "'";
    }
  }
  if (op == "MaxPool" && NamesExtraOutputs(node, 1)) return "the indices output";
  if (op == "AveragePool" && FindAttr(node, "dilations") != nullptr) return "dilations";
  if (op == "Constant" && (FindAttr(node, "sparse_value") || FindAttr(node, "value_string") ||
                           FindAttr(node, "value_strings"))) {
    return "sparse or string values";
  }
  return "";
}

}  // namespace

const OnnxConverter* FindConverter(std::string_view op_type) {
  for (auto table :
       {ElementwiseConverters(), MathConverters(), NnConverters(), NormalizeConverters(),
        ResizeConverters(), TransformConverters(), FoldConverters(), QuantizeConverters(),
        QOperatorConverters(), LossConverters(), ConvTransposeConverters(), IndexingConverters(),
        EinsumConverters()}) {
    for (const OnnxConverter& c : table) {
      if (c.op_type == op_type) return &c;
    }
  }
  return nullptr;
}

std::string UnsupportedReason(const NodeProto& node, int64_t opset) {
  if (!node.domain().empty() && node.domain() != "ai.onnx") {
    return "domain '" + node.domain() + "'";
  }
  const OnnxConverter* converter = FindConverter(node.op_type());
  if (converter == nullptr) return "op not supported";
  // Before opset 6 most ops had other attributes (consumed_inputs, legacy broadcasting); these
  // kept their first definition up to opset 6 at least.
  static constexpr std::string_view kUnchangedSinceOpset1[] = {
      "GlobalAveragePool", "GlobalMaxPool", "Softplus", "Softsign", "Transpose", "LRN",
      "Identity",          "Flatten",       "Constant", "Not"};
  if (opset < 6 && std::find(std::begin(kUnchangedSinceOpset1), std::end(kUnchangedSinceOpset1),
                             node.op_type()) == std::end(kUnchangedSinceOpset1)) {
    return absl::StrCat("supported from opset 6 (the model's is ", opset, ")");
  }
  if (opset < converter->min_opset) {
    return absl::StrCat("supported from opset ", converter->min_opset);
  }
  return AttributeReason(node);
}

}  // namespace tunefarm::frontend::onnx
