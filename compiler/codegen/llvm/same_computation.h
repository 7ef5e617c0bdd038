// Private: which kernels of one module compute exactly what an earlier one does. A model repeats
// its blocks (ConvNeXt's stages, ViT's layers, ResNet's residual units), and its build compiled
// each repetition anew; a repeated kernel now gets only its entry point, calling the body of the
// first one.
#pragma once

#include <vector>

#include "compiler/codegen/llvm/kernel_args.h"
#include "compiler/ir/function.h"

namespace tunefarm::codegen {

// For each function, the index of the first earlier one with the same parameters (count, order,
// types, shapes, scopes) and a structurally equal body (up to the renaming of variables), or -1.
// Functions with shape variables or scalar arguments are never shared.
std::vector<int> EarlierSameComputation(const std::vector<ir::PrimFunc>& funcs,
                                        const std::vector<KernelArgs>& args);

}  // namespace tunefarm::codegen
