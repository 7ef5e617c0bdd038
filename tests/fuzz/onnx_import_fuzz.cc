// An ONNX model file (tunefarm model info/build/run): any bytes are an error Status or a graph
// that passes the verifier; never a crash, and never an allocation of what the file claims.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "compiler/frontend/onnx/onnx_importer.h"
#include "compiler/graph/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<tunefarm::graph::Graph> graph = tunefarm::frontend::onnx::ImportOnnxBytes(bytes);
  if (!graph.ok()) return 0;
  // What the importer hands on must be a well-formed graph.
  if (!tunefarm::graph::VerifyGraph(*graph).ok()) std::abort();
  return 0;
}
