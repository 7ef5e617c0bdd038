// Small computations the schedule tests share: matmul, an elementwise chain, a padded conv2d
// and a row max, each over symbolic or odd extents.
#pragma once

#include "compiler/ir/op.h"
#include "compiler/te/tensor.h"

namespace tunefarm::testing {

struct Matmul {
  ir::Var n = te::var("n");
  te::Tensor a = te::placeholder({n, n}, ir::DataType::Float(32), "A");
  te::Tensor b = te::placeholder({n, n}, ir::DataType::Float(32), "B");
  ir::IterVar k = te::reduce_axis({0, n}, "k");
  te::Tensor c = *te::compute(
      {n, n},
      [&](const auto& i) {
        return te::sum(a({i[0], k->var}) * b({k->var, i[1]}), {k});
      },
      "C");
};

struct Chain {  // B = A * 2, C = B + 1, D = exp(C) - B over an m x 13 grid
  ir::Var m = te::var("m");
  te::Tensor a = te::placeholder({m, 13}, ir::DataType::Float(32), "A");
  te::Tensor b = *te::compute(
      {m, 13},
      [&](const auto& i) {
        return a({i[0], i[1]}) * 2.0f;
      },
      "B");
  te::Tensor c = *te::compute(
      {m, 13},
      [&](const auto& i) {
        return b({i[0], i[1]}) + 1.0f;
      },
      "C");
  te::Tensor d = *te::compute(
      {m, 13},
      [&](const auto& i) {
        return ir::Call(ir::Intrinsic::kExp, {c({i[0], i[1]})}) - b({i[0], i[1]});
      },
      "D");
};

struct Conv2d {  // NCHW, 3x3, padding 1: out[f, y, x] = sum_{c,ry,rx} pad[c, y+ry, x+rx] * w
  int channels = 3, filters = 4, size = 7;
  te::Tensor data = te::placeholder({channels, size, size}, ir::DataType::Float(32), "data");
  te::Tensor weight = te::placeholder({filters, channels, 3, 3}, ir::DataType::Float(32), "W");
  te::Tensor pad = *te::compute(
      {channels, size + 2, size + 2},
      [&](const auto& i) {
        ir::Expr inside = i[1] >= 1 && i[1] < size + 1 && i[2] >= 1 && i[2] < size + 1;
        return ir::IfThenElse(inside, data({i[0], i[1] - 1, i[2] - 1}), ir::Expr(0.0f));
      },
      "pad");
  ir::IterVar rc = te::reduce_axis({0, channels}, "rc");
  ir::IterVar ry = te::reduce_axis({0, 3}, "ry");
  ir::IterVar rx = te::reduce_axis({0, 3}, "rx");
  te::Tensor out = *te::compute(
      {filters, size, size},
      [&](const auto& i) {
        return te::sum(pad({rc->var, i[1] + ry->var, i[2] + rx->var}) *
                           weight({i[0], rc->var, ry->var, rx->var}),
                       {rc, ry, rx});
      },
      "out");
};

struct RowMax {
  ir::Var n = te::var("n");
  te::Tensor a = te::placeholder({n, 11}, ir::DataType::Float(32), "A");
  ir::IterVar k = te::reduce_axis({0, 11}, "k");
  te::Tensor m = *te::compute(
      {n},
      [&](const auto& i) {
        return te::max(a({i[0], k->var}), {k});
      },
      "M");
};

}  // namespace tunefarm::testing
