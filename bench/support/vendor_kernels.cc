#include "bench/support/vendor_kernels.h"

#include <cblas.h>
#include <omp.h>
#include <oneapi/dnnl/dnnl.hpp>
#include <random>
#include <vector>

#include "absl/strings/str_cat.h"

namespace tunefarm::bench {
namespace {

std::vector<float> RandomVector(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

struct GemmState {
  std::vector<float> a, b, c;
};

// A oneDNN primitive of one source, one weight and one destination, ready to execute.
struct PrimitiveState {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  dnnl::primitive primitive;
  dnnl::memory src, weights, dst;
};

void FillRandom(dnnl::memory& mem, uint32_t seed) {
  size_t n = mem.get_desc().get_size() / sizeof(float);
  std::vector<float> values = RandomVector(n, seed);
  auto* data = static_cast<float*>(mem.get_data_handle());
  std::copy(values.begin(), values.end(), data);
}

// The call of a oneDNN primitive of one source, one weight and one destination, set up in `state`.
VendorKernel OneDnnKernel(std::shared_ptr<PrimitiveState> state, const char* what) {
  PrimitiveState* s = state.get();
  VendorKernel kernel;
  kernel.library = absl::StrCat("oneDNN ", DNNL_VERSION_MAJOR, ".", DNNL_VERSION_MINOR, ".",
                                DNNL_VERSION_PATCH, what);
  kernel.run = [s] {
    s->primitive.execute(
        s->stream,
        {{DNNL_ARG_SRC, s->src}, {DNNL_ARG_WEIGHTS, s->weights}, {DNNL_ARG_DST, s->dst}});
    s->stream.wait();
  };
  kernel.state = std::move(state);
  return kernel;
}

}  // namespace

void SetVendorThreads(int threads) {
  openblas_set_num_threads(threads);
  omp_set_num_threads(threads);
}

absl::StatusOr<VendorKernel> OpenBlasSgemm(int64_t m, int64_t n, int64_t k) {
  if (m <= 0 || n <= 0 || k <= 0) return absl::InvalidArgumentError("sgemm: empty shape");
  auto state = std::make_shared<GemmState>();
  state->a = RandomVector(m * k, 1);
  state->b = RandomVector(k * n, 2);
  state->c.assign(m * n, 0.0f);
  GemmState* s = state.get();
  VendorKernel kernel;
  kernel.library = "OpenBLAS";
  kernel.run = [s, m, n, k] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, s->a.data(), k,
                s->b.data(), n, 0.0f, s->c.data(), n);
  };
  kernel.state = std::move(state);
  return kernel;
}

absl::StatusOr<VendorKernel> OneDnnInt8Matmul(int64_t m, int64_t n, int64_t k) {
  using dnnl::memory;
  using dt = memory::data_type;
  using tag = memory::format_tag;
  try {
    auto state = std::make_shared<PrimitiveState>();
    memory::desc a_md({m, k}, dt::u8, tag::ab);
    memory::desc w_md({k, n}, dt::s8, tag::any);
    memory::desc c_md({m, n}, dt::s32, tag::ab);
    dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a_md, w_md, c_md), state->engine);
    state->src = memory(pd.src_desc(), state->engine);
    state->weights = memory(pd.weights_desc(), state->engine);
    state->dst = memory(pd.dst_desc(), state->engine);
    std::mt19937 rng(5);
    std::uniform_int_distribution<int> byte(0, 255);
    for (dnnl::memory* mem : {&state->src, &state->weights}) {
      auto* data = static_cast<uint8_t*>(mem->get_data_handle());
      for (size_t i = 0; i < mem->get_desc().get_size(); ++i) {
        data[i] = static_cast<uint8_t>(byte(rng));
      }
    }
    state->primitive = dnnl::matmul(pd);
    return OneDnnKernel(std::move(state), " int8 matmul");
  } catch (const dnnl::error& e) {
    return absl::InternalError(absl::StrCat("oneDNN int8 matmul: ", e.what()));
  }
}

namespace {

// A forward-inference convolution of `shape` with these element types, in oneDNN's layouts.
absl::StatusOr<VendorKernel> OneDnnConvolution(const ConvShape& shape, dnnl::memory::data_type src,
                                               dnnl::memory::data_type weights,
                                               dnnl::memory::data_type dst, const char* what) {
  using dnnl::memory;
  using tag = memory::format_tag;
  try {
    auto state = std::make_shared<PrimitiveState>();
    memory::dims src_dims = {shape.batch, shape.in_channels, shape.height, shape.width};
    memory::dims dst_dims = {shape.batch, shape.out_channels, shape.out_height(),
                             shape.out_width()};
    memory::dims weight_dims =
        shape.groups == 1
            ? memory::dims{shape.out_channels, shape.in_channels, shape.kernel, shape.kernel}
            : memory::dims{shape.groups, shape.out_channels / shape.groups,
                           shape.in_channels / shape.groups, shape.kernel, shape.kernel};
    auto any = [](const memory::dims& d, memory::data_type t) {
      return memory::desc(d, t, tag::any);
    };
    dnnl::convolution_forward::desc desc(
        dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, any(src_dims, src),
        any(weight_dims, weights), any(dst_dims, dst), {shape.stride, shape.stride},
        {shape.pad, shape.pad}, {shape.pad, shape.pad});
    dnnl::convolution_forward::primitive_desc pd(desc, state->engine);
    state->src = memory(pd.src_desc(), state->engine);
    state->weights = memory(pd.weights_desc(), state->engine);
    state->dst = memory(pd.dst_desc(), state->engine);
    if (src == memory::data_type::f32) {
      FillRandom(state->src, 3);
      FillRandom(state->weights, 4);
    } else {
      std::mt19937 rng(5);
      for (dnnl::memory* mem : {&state->src, &state->weights}) {
        auto* data = static_cast<uint8_t*>(mem->get_data_handle());
        for (size_t i = 0; i < mem->get_desc().get_size(); ++i) data[i] = rng() & 0xff;
      }
    }
    state->primitive = dnnl::convolution_forward(pd);
    return OneDnnKernel(std::move(state), what);
  } catch (const dnnl::error& e) {
    return absl::InternalError(absl::StrCat("oneDNN convolution: ", e.what()));
  }
}

}  // namespace

absl::StatusOr<VendorKernel> OneDnnConv2d(const ConvShape& shape) {
  using dt = dnnl::memory::data_type;
  return OneDnnConvolution(shape, dt::f32, dt::f32, dt::f32, "");
}

absl::StatusOr<VendorKernel> OneDnnInt8Conv2d(const ConvShape& shape) {
  using dt = dnnl::memory::data_type;
  return OneDnnConvolution(shape, dt::u8, dt::s8, dt::s32, " int8 convolution");
}

}  // namespace tunefarm::bench
