// The single list of IR node kinds. Kind enums, visitors, mutators, the printer and structural
// equality all expand from these X-macros: adding a node is one line here plus one struct.
#pragma once

// Binary arithmetic and comparison nodes share one shape: {dtype, a, b}.
#define TF_IR_BINARY_NODES(X) \
  X(Add)                      \
  X(Sub)                      \
  X(Mul)                      \
  X(Div)                      \
  X(Mod)                      \
  X(FloorDiv)                 \
  X(FloorMod)                 \
  X(Min)                      \
  X(Max)                      \
  X(EQ)                       \
  X(NE)                       \
  X(LT)                       \
  X(LE)                       \
  X(GT)                       \
  X(GE)                       \
  X(And)                      \
  X(Or)

#define TF_IR_EXPR_NODES(X) \
  X(IntImm)                 \
  X(FloatImm)               \
  X(StringImm)              \
  X(Var)                    \
  TF_IR_BINARY_NODES(X)     \
  X(Not)                    \
  X(Select)                 \
  X(Cast)                   \
  X(Ramp)                   \
  X(Broadcast)              \
  X(Let)                    \
  X(Call)                   \
  X(BufferLoad)             \
  X(Load)                   \
  X(Reduce)

#define TF_IR_STMT_NODES(X) \
  X(LetStmt)                \
  X(AttrStmt)               \
  X(AssertStmt)             \
  X(BufferStore)            \
  X(BufferRealize)          \
  X(Store)                  \
  X(Allocate)               \
  X(For)                    \
  X(SeqStmt)                \
  X(IfThenElse)             \
  X(Evaluate)
