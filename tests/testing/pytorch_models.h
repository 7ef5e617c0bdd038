// torchvision models exported to ONNX by Debian's python3-torch for tests (scripts/export-models.py
// also writes PyTorch's outputs for its random inputs), exported once per build folder and shared
// by the test processes that read them.
#pragma once

#include <string>

namespace tunefarm::fixtures {

// The folder that holds NAME.onnx, NAME.input.npy and NAME.output.npy (and the batch-4 and wide
// variants) for `name` ("resnet18", "mobilenet_v2", "vgg16"): test-models/NAME beside the test
// binary, exported on first use and again when scripts/export-models.py changes; "" when
// /usr/bin/python3 has no torch and torchvision or the export fails. Read-only to callers: other
// test processes read the same files (write outputs to ::testing::TempDir()).
std::string ExportedPytorchModel(const std::string& name);

}  // namespace tunefarm::fixtures
