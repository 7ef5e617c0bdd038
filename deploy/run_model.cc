// Loads a model module with the runtime alone, runs it once on an input and prints the top-5
// classes of its first output: what an application on a board does with `tunefarm model build`'s
// file. Uses only runtime/graph's public header (and runtime/core's thread pool).
//
//   run_model MODEL.so [--input FILE] [--seed N] [--threads N]
//
// FILE holds the first input's bytes (raw float32, row-major); without it the input is filled
// with uniform random numbers in [-1, 1) from --seed (default 1).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "runtime/core/thread_pool.h"
#include "runtime/graph/graph_executor.h"

namespace {

struct Args {
  std::string model;
  std::string input;
  unsigned seed = 1;
  int threads = 0;  // 0: the runtime's default
};

bool ParseArgs(int argc, char** argv, Args* args) {
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    bool has_value = i + 1 < argc;
    if (flag == "--input" && has_value) {
      args->input = argv[++i];
    } else if (flag == "--seed" && has_value) {
      args->seed = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
    } else if (flag == "--threads" && has_value) {
      args->threads = std::atoi(argv[++i]);
    } else if (args->model.empty() && flag.rfind("--", 0) != 0) {
      args->model = flag;
    } else {
      return false;
    }
  }
  return !args->model.empty();
}

std::string ShapeText(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

bool IsFloat32(DLDataType t) { return t.code == kDLFloat && t.bits == 32 && t.lanes == 1; }

// The first input's bytes: the file's, or random floats.
bool ReadInput(const Args& args, const tunefarm::runtime::GraphTensorInfo& info,
               std::vector<char>* bytes) {
  if (!args.input.empty()) {
    std::ifstream in(args.input, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "run_model: cannot read %s\n", args.input.c_str());
      return false;
    }
    bytes->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return true;
  }
  if (!IsFloat32(info.dtype)) {
    std::fprintf(stderr, "run_model: input '%s' is not float32: give --input\n", info.name.c_str());
    return false;
  }
  std::vector<float> values(info.bytes / sizeof(float));
  std::mt19937 rng(args.seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (float& v : values) v = dist(rng);
  bytes->resize(info.bytes);
  std::memcpy(bytes->data(), values.data(), info.bytes);
  return true;
}

void PrintTop5(const tunefarm::runtime::GraphTensorInfo& info, const float* scores) {
  size_t n = info.bytes / sizeof(float);
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  size_t k = std::min<size_t>(5, n);
  std::partial_sort(order.begin(), order.begin() + k, order.end(),
                    [&](size_t a, size_t b) { return scores[a] > scores[b]; });
  std::printf("top-%zu of '%s':\n", k, info.name.c_str());
  for (size_t i = 0; i < k; ++i) std::printf("  %zu %.6f\n", order[i], scores[order[i]]);
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, &args)) {
    std::fprintf(stderr, "usage: run_model MODEL.so [--input FILE] [--seed N] [--threads N]\n");
    return 2;
  }
  std::string error;
  if (args.threads > 0 && !tunefarm::runtime::SetNumThreads(args.threads, &error)) {
    std::fprintf(stderr, "run_model: %s\n", error.c_str());
    return 1;
  }
  auto exec = tunefarm::runtime::GraphExecutor::Load(args.model, &error);
  if (exec == nullptr) {
    std::fprintf(stderr, "run_model: %s\n", error.c_str());
    return 1;
  }
  if (exec->inputs().empty()) {
    std::fprintf(stderr, "run_model: the model has no inputs\n");
    return 1;
  }
  const auto& stats = exec->memory_stats();
  std::printf(
      "model %s: %d steps, arena %llu bytes (%llu without planning), %d threads\n",
      args.model.c_str(), exec->num_steps(), static_cast<unsigned long long>(stats.arena_bytes),
      static_cast<unsigned long long>(stats.unplanned_bytes), tunefarm::runtime::NumThreads());
  for (const auto& in : exec->inputs()) {
    std::printf("input %s %s\n", in.name.c_str(), ShapeText(in.shape).c_str());
  }
  std::vector<char> input;
  if (!ReadInput(args, exec->inputs()[0], &input)) return 1;
  if (!exec->SetInput(0, input.data(), input.size(), &error) || !exec->Run(&error)) {
    std::fprintf(stderr, "run_model: %s\n", error.c_str());
    return 1;
  }
  const auto& out = exec->outputs()[0];
  std::printf("output %s %s\n", out.name.c_str(), ShapeText(out.shape).c_str());
  if (!IsFloat32(out.dtype)) {
    std::fprintf(stderr, "run_model: output '%s' is not float32\n", out.name.c_str());
    return 1;
  }
  PrintTop5(out, static_cast<const float*>(exec->GetOutput(0)->data));
  return 0;
}
