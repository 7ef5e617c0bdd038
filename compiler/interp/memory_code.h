// Compiled memory accesses: flat Load / Store of a buffer variable (gather / scatter for vector
// indices) and multi-dimensional BufferLoad / BufferStore of a parameter or realized buffer.
// Every access is bounds-checked; an index out of range fails the run with the buffer's name.
#pragma once

#include <string>
#include <vector>

#include "compiler/interp/code.h"
#include "compiler/ir/type.h"

namespace tunefarm::interp {

// Lanes of the result are the index's; `elem` is the buffer's scalar element type.
const ExprCode* MakeLoadCode(CodeArena& arena, ir::DataType elem, int buffer_slot,
                             const ExprCode* index, std::string name);
const StmtCode* MakeStoreCode(CodeArena& arena, ir::DataType elem, int buffer_slot,
                              const ExprCode* index, const ExprCode* value, std::string name);
// One scalar index per dimension.
const ExprCode* MakeTensorLoadCode(CodeArena& arena, ir::DataType elem, int tensor_slot,
                                   std::vector<const ExprCode*> indices, std::string name);
// A vector value stores lane l at the l-th lane of each vector index (scalar indices repeat).
const StmtCode* MakeTensorStoreCode(CodeArena& arena, ir::DataType elem, int tensor_slot,
                                    std::vector<const ExprCode*> indices, const ExprCode* value,
                                    std::string name);

}  // namespace tunefarm::interp
