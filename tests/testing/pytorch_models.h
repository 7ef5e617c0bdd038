// torchvision models exported to ONNX by Debian's python3-torch for tests (scripts/export-models.py
// also writes PyTorch's outputs for its random inputs), each once per test binary run.
#pragma once

#include <string>

namespace tunefarm::fixtures {

// The temporary folder that holds NAME.onnx, NAME.input.npy and NAME.output.npy (and the batch-4
// and wide variants) for `name` ("resnet18", "mobilenet_v2", "vgg16"), exported on first use; ""
// when /usr/bin/python3 has no torch and torchvision or the export fails.
std::string ExportedPytorchModel(const std::string& name);

}  // namespace tunefarm::fixtures
