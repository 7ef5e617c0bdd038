// Two small models as model modules, with naive C++ references to check the executor against:
//   MLP:      x[b,16] -> dense W1[16,32] -> bias+relu -> dense W2[32,10] -> bias -> prob[b,10]
//   residual: x[b,16] -> dense W1[16,16] -> bias+relu -> dense W2[16,16] -> bias
//                     -> add x, relu -> y[b,16]
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "tests/unit/runtime/graph/model_library.h"

namespace tunefarm::runtime::testing {

struct TestModel {
  ModelSource source;
  int64_t batch = 0, in = 0, hidden = 0, out = 0;
  std::vector<float> w1, b1, w2, b2;
};

inline std::string Shape(int64_t a, int64_t b) {
  return "[" + std::to_string(a) + "," + std::to_string(b) + "]";
}

inline std::string ParamLine(int id, const std::string& shape, uint64_t offset, size_t floats) {
  return "tensor " + std::to_string(id) + " float32 " + shape + " param " + std::to_string(offset) +
         " " + std::to_string(floats * 4) + "\n";
}

inline TestModel MakeWeights(int64_t batch, int64_t in, int64_t hidden, int64_t out) {
  TestModel m;
  m.batch = batch, m.in = in, m.hidden = hidden, m.out = out;
  m.w1 = RandomFloats(in * hidden, 1);
  m.b1 = RandomFloats(hidden, 2);
  m.w2 = RandomFloats(hidden * out, 3);
  m.b2 = RandomFloats(out, 4);
  return m;
}

// The weights' lines (tensors 1..4); fills the params blob.
inline std::string WeightLines(TestModel* m) {
  std::vector<unsigned char>& blob = m->source.params;
  uint64_t w1 = AppendParam(&blob, m->w1), b1 = AppendParam(&blob, m->b1);
  uint64_t w2 = AppendParam(&blob, m->w2), b2 = AppendParam(&blob, m->b2);
  return ParamLine(1, Shape(m->in, m->hidden), w1, m->w1.size()) +
         ParamLine(2, "[" + std::to_string(m->hidden) + "]", b1, m->b1.size()) +
         ParamLine(3, Shape(m->hidden, m->out), w2, m->w2.size()) +
         ParamLine(4, "[" + std::to_string(m->out) + "]", b2, m->b2.size());
}

inline TestModel MakeMlp(int64_t batch = 2) {
  TestModel m = MakeWeights(batch, 16, 32, 10);
  std::string weights = WeightLines(&m);
  m.source.graph = "tunefarm-graph 1\nparams " + std::to_string(m.source.params.size()) +
                   "\ntensors 9\ntensor 0 float32 " + Shape(batch, 16) + " input x\n" + weights +
                   "tensor 5 float32 " + Shape(batch, 32) + " intermediate\n" +
                   "tensor 6 float32 " + Shape(batch, 32) + " intermediate\n" +
                   "tensor 7 float32 " + Shape(batch, 10) + " intermediate\n" +
                   "tensor 8 float32 " + Shape(batch, 10) + " output prob\n" +
                   "steps 4\n"
                   "step 0 dense in:0 in:1 out:5\n"
                   "step 1 bias_relu in:5 in:2 out:6\n"
                   "step 2 dense in:6 in:3 out:7\n"
                   "step 3 bias_add in:7 in:4 out:8\n";
  return m;
}

inline TestModel MakeResidual(int64_t batch = 2) {
  TestModel m = MakeWeights(batch, 16, 16, 16);
  std::string weights = WeightLines(&m);
  const std::string s = Shape(batch, 16);
  m.source.graph = "tunefarm-graph 1\nparams " + std::to_string(m.source.params.size()) +
                   "\ntensors 10\ntensor 0 float32 " + s + " input x\n" + weights +
                   "tensor 5 float32 " + s + " intermediate\ntensor 6 float32 " + s +
                   " intermediate\ntensor 7 float32 " + s + " intermediate\ntensor 8 float32 " + s +
                   " intermediate\ntensor 9 float32 " + s + " output y\n" +
                   "steps 5\n"
                   "step 0 dense in:0 in:1 out:5\n"
                   "step 1 bias_relu in:5 in:2 out:6\n"
                   "step 2 dense in:6 in:3 out:7\n"
                   "step 3 bias_add in:7 in:4 out:8\n"
                   "step 4 add_relu in:8 in:0 out:9\n";
  return m;
}

inline std::vector<float> Dense(const std::vector<float>& x, const std::vector<float>& w, int64_t m,
                                int64_t k, int64_t n) {
  std::vector<float> y(m * n, 0.0f);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < k; ++p) sum += double{x[i * k + p]} * w[p * n + j];
      y[i * n + j] = static_cast<float>(sum);
    }
  }
  return y;
}

inline void AddBias(std::vector<float>* y, const std::vector<float>& b, bool relu) {
  for (size_t i = 0; i < y->size(); ++i) {
    float v = (*y)[i] + b[i % b.size()];
    (*y)[i] = relu ? std::max(v, 0.0f) : v;
  }
}

// What the model computes, in double-accumulated naive loops.
inline std::vector<float> Reference(const TestModel& m, const std::vector<float>& x,
                                    bool residual) {
  std::vector<float> h = Dense(x, m.w1, m.batch, m.in, m.hidden);
  AddBias(&h, m.b1, true);
  std::vector<float> y = Dense(h, m.w2, m.batch, m.hidden, m.out);
  AddBias(&y, m.b2, false);
  if (residual) {
    for (size_t i = 0; i < y.size(); ++i) y[i] = std::max(y[i] + x[i], 0.0f);
  }
  return y;
}

}  // namespace tunefarm::runtime::testing
