// Real model modules for the graph executor's tests, made the way the compiler will make them
// (c_abi.h: kernels with their manifest, __tf_graph, __tf_params, __tf_params_size) but written
// as C and compiled at test time with the system C compiler (or a cross compiler): the runtime's
// tests must not link the compiler. Weights go in with `.incbin`, aligned as the compiler aligns
// them (or one byte off, to test the executor's aligned copy).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

namespace tunefarm::runtime::testing {

// Kernels over float32 tensors (shapes read from the DLTensors, checked by the manifest):
//   dense(X[m,k], W[k,n], Y[m,n])       Y = X W, columns split over the thread pool
//   bias_relu(X[m,n], B[n], Y[m,n])     Y = max(X + B, 0)
//   bias_add(X[m,n], B[n], Y[m,n])      Y = X + B
//   add_relu(A[m,n], B[m,n], Y[m,n])    Y = max(A + B, 0)
//   scale(X[n], Y[n], n, alpha)         Y = alpha X (an int and a float argument)
//   fail(code)                          returns `code`
inline constexpr char kModelKernels[] = R"C(
#include <stdint.h>

typedef union { int64_t v_int64; double v_float64; void* v_handle; } TFValue;
typedef int32_t (*TFParallelLambda)(int32_t, int32_t, void*);
typedef int32_t (*TFParallelLaunchFunc)(TFParallelLambda, void*, int32_t);
typedef struct {
  void* data; int32_t device_type, device_id; int32_t ndim;
  uint8_t code, bits; uint16_t lanes; int64_t* shape; int64_t* strides; uint64_t byte_offset;
} DLT;

TFParallelLaunchFunc __tf_parallel_launch = 0;

#define MN "[m,n]"
const char __tf_manifest[] = "tunefarm-manifest 1\n"
  "function dense 3\narg tensor X float32 [m,k]\narg tensor W float32 [k,n]\n"
  "arg tensor Y float32 [m,n]\n"
  "function bias_relu 3\narg tensor X float32 " MN "\narg tensor B float32 [n]\n"
  "arg tensor Y float32 " MN "\n"
  "function bias_add 3\narg tensor X float32 " MN "\narg tensor B float32 [n]\n"
  "arg tensor Y float32 " MN "\n"
  "function add_relu 3\narg tensor A float32 " MN "\narg tensor B float32 " MN "\n"
  "arg tensor Y float32 " MN "\n"
  "function scale 4\narg tensor X float32 [n]\narg tensor Y float32 [n]\narg int n int64\n"
  "arg float alpha float64\n"
  "function fail 1\narg int code int32\n";

#define T(i) ((const DLT*)args[i].v_handle)
#define F(i) ((float*)T(i)->data)

typedef struct { const float* x; const float* w; float* y; int64_t m, k, n; } Dense;

static int32_t DenseColumns(int32_t task, int32_t num_tasks, void* closure) {
  const Dense* d = (const Dense*)closure;
  int64_t chunk = (d->n + num_tasks - 1) / num_tasks;
  int64_t lo = task * chunk, hi = lo + chunk < d->n ? lo + chunk : d->n;
  for (int64_t i = 0; i < d->m; ++i) {
    for (int64_t j = lo; j < hi; ++j) {
      float sum = 0;
      for (int64_t p = 0; p < d->k; ++p) sum += d->x[i * d->k + p] * d->w[p * d->n + j];
      d->y[i * d->n + j] = sum;
    }
  }
  return 0;
}

int32_t dense(const TFValue* args, const int32_t* codes, int32_t num_args) {
  (void)codes; (void)num_args;
  Dense d = {F(0), F(1), F(2), T(0)->shape[0], T(0)->shape[1], T(1)->shape[1]};
  if (__tf_parallel_launch == 0) return 99;
  return __tf_parallel_launch(DenseColumns, &d, 0);
}

static int32_t Epilogue(const TFValue* args, int relu, int full) {
  const float* x = F(0); const float* b = F(1); float* y = F(2);
  int64_t m = T(0)->shape[0], n = T(0)->shape[1];
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float v = x[i * n + j] + (full ? b[i * n + j] : b[j]);
      y[i * n + j] = relu && v < 0 ? 0 : v;
    }
  }
  return 0;
}

int32_t bias_relu(const TFValue* a, const int32_t* c, int32_t n) {
  (void)c; (void)n; return Epilogue(a, 1, 0);
}
int32_t bias_add(const TFValue* a, const int32_t* c, int32_t n) {
  (void)c; (void)n; return Epilogue(a, 0, 0);
}
int32_t add_relu(const TFValue* a, const int32_t* c, int32_t n) {
  (void)c; (void)n; return Epilogue(a, 1, 1);
}
int32_t scale(const TFValue* args, const int32_t* c, int32_t n) {
  (void)c; (void)n;
  for (int64_t i = 0; i < args[2].v_int64; ++i) F(1)[i] = (float)(args[3].v_float64 * F(0)[i]);
  return 0;
}
int32_t fail(const TFValue* args, const int32_t* c, int32_t n) {
  (void)c; (void)n; return (int32_t)args[0].v_int64;
}
)C";

struct ModelSource {
  std::string graph;  // the __tf_graph text
  std::vector<unsigned char> params;
  bool define_graph = true;
  bool define_params = true;
  bool misalign_params = false;  // put the blob one byte past a 64-byte boundary
};

inline std::string CString(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '\n') {
      out += "\\n\"\n  \"";
    } else if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// The module's C source; the weights are read from `params_path` by the assembler.
inline std::string ModelCSource(const ModelSource& m, const std::string& params_path) {
  std::string c = kModelKernels;
  if (m.define_graph) c += "const char __tf_graph[] = " + CString(m.graph) + ";\n";
  if (!m.define_params) return c;
  c += "const uint64_t __tf_params_size = " + std::to_string(m.params.size()) + ";\n";
  c += "__asm__(\".section .rodata\\n.p2align 6\\n";
  if (m.misalign_params) c += ".byte 0\\n";
  c += ".globl __tf_params\\n.type __tf_params, %object\\n__tf_params:\\n.incbin \\\"" +
       params_path + "\\\"\\n.size __tf_params, " + std::to_string(m.params.size()) +
       "\\n.previous\\n\");\n";
  return c;
}

// Compiles `m` into `<stem>.so` with `compiler`; returns the path, or "" with `*error` set.
inline std::string BuildModelLibrary(const ModelSource& m, const std::string& stem,
                                     std::string* error, const std::string& compiler = "cc") {
  {
    std::ofstream params(stem + ".params", std::ios::binary);
    params.write(reinterpret_cast<const char*>(m.params.data()),
                 static_cast<std::streamsize>(m.params.size()));
    std::ofstream source(stem + ".c");
    source << ModelCSource(m, stem + ".params");
  }
  const std::string command =
      compiler + " -shared -fPIC -O2 -o " + stem + ".so " + stem + ".c 2>" + stem + ".log";
  if (std::system(command.c_str()) != 0) {
    std::ifstream log(stem + ".log");
    std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
    *error = "'" + command + "' failed: " + text;
    return "";
  }
  return stem + ".so";
}

// A fresh scratch directory for one test, removed by the caller.
inline std::string ScratchDir(const std::string& name) {
  const char* base = std::getenv("TEST_TMPDIR");
  std::string dir = std::string(base != nullptr ? base : "/tmp") + "/tf_graph_" + name + "_" +
                    std::to_string(getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::vector<float> RandomFloats(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

// Appends `values` to a params blob at the next 64-byte boundary; returns their offset.
inline uint64_t AppendParam(std::vector<unsigned char>* blob, const std::vector<float>& values) {
  blob->resize((blob->size() + 63) / 64 * 64, 0);
  uint64_t offset = blob->size();
  blob->resize(offset + values.size() * sizeof(float));
  std::memcpy(blob->data() + offset, values.data(), values.size() * sizeof(float));
  return offset;
}

}  // namespace tunefarm::runtime::testing
