// The registry is a table sorted by name, holding the operator library's templates from the start
// (a sorted table keeps ListTemplates' order and MakeTemplate's errors deterministic); programs
// may add their own.
#include "tuner/templates/template_registry.h"

#include <algorithm>
#include <mutex>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/target/target_cpu.h"
#include "tuner/templates/conv2d_int8_template.h"
#include "tuner/templates/conv2d_nchwc_template.h"
#include "tuner/templates/conv2d_template.h"
#include "tuner/templates/conv2d_winograd_template.h"
#include "tuner/templates/dense_int8_template.h"
#include "tuner/templates/depthwise_conv2d_nchwc_template.h"
#include "tuner/templates/depthwise_conv2d_template.h"
#include "tuner/templates/gemm_template.h"
#include "tuner/templates/gpu_conv_templates.h"
#include "tuner/templates/gpu_matmul_template.h"
#include "tuner/templates/layout_transform_template.h"

namespace tunefarm::tuner {
namespace {

struct Entry {
  TemplateInfo info;
  TemplateFactory factory = nullptr;
};

std::mutex& RegistryMutex() {
  static std::mutex* mu = new std::mutex;
  return *mu;
}

// By name, the CPU template of a name before its GPU one.
void SortByName(std::vector<Entry>& entries) {
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.info.name, a.info.kind) < std::tie(b.info.name, b.info.kind);
  });
}

// Callers hold RegistryMutex().
std::vector<Entry>& Registry() {
  static std::vector<Entry>* entries = [] {
    auto* e = new std::vector<Entry>{
        {templates::BatchMatmulTemplateInfo(), &templates::MakeBatchMatmulTemplate},
        {templates::Conv2dTemplateInfo(), &templates::MakeConv2dTemplate},
        {templates::Conv2dInt8TemplateInfo(), &templates::MakeConv2dInt8Template},
        {templates::Conv2dNchwcTemplateInfo(), &templates::MakeConv2dNchwcTemplate},
        {templates::Conv2dWinogradNchwcTemplateInfo(), &templates::MakeConv2dWinogradNchwcTemplate},
        {templates::DenseTemplateInfo(), &templates::MakeDenseTemplate},
        {templates::DensePackedTemplateInfo(), &templates::MakeDensePackedTemplate},
        {templates::DenseInt8TemplateInfo(), &templates::MakeDenseInt8Template},
        {templates::DepthwiseConv2dTemplateInfo(), &templates::MakeDepthwiseConv2dTemplate},
        {templates::DepthwiseConv2dNchwcTemplateInfo(),
         &templates::MakeDepthwiseConv2dNchwcTemplate},
        {templates::LayoutTransformTemplateInfo(), &templates::MakeLayoutTransformTemplate},
        {templates::MatmulTemplateInfo(), &templates::MakeMatmulTemplate},
        {templates::GpuConv2dTemplateInfo(), &templates::MakeGpuConv2dTemplate},
        {templates::GpuDepthwiseConv2dTemplateInfo(), &templates::MakeGpuDepthwiseConv2dTemplate},
        {templates::GpuMatmulTemplateInfo(), &templates::MakeGpuMatmulTemplate},
        {templates::GpuDenseTemplateInfo(), &templates::MakeGpuDenseTemplate},
    };
    SortByName(*e);
    return e;
  }();
  return *entries;
}

}  // namespace

absl::Status RegisterTemplate(TemplateInfo info, TemplateFactory factory) {
  if (info.name.empty() || factory == nullptr) {
    return absl::InvalidArgumentError("a template needs a name and a factory");
  }
  std::lock_guard<std::mutex> lock(RegistryMutex());
  for (const Entry& e : Registry()) {
    if (e.info.name == info.name && e.info.kind == info.kind) {
      return absl::AlreadyExistsError(absl::StrCat("a ", target::Target::KindName(info.kind),
                                                   " template named '", info.name,
                                                   "' is already registered"));
    }
  }
  Registry().push_back(Entry{std::move(info), std::move(factory)});
  SortByName(Registry());
  return absl::OkStatus();
}

std::vector<TemplateInfo> ListTemplates() {
  std::lock_guard<std::mutex> lock(RegistryMutex());
  std::vector<TemplateInfo> infos;
  for (const Entry& e : Registry()) infos.push_back(e.info);
  return infos;
}

absl::StatusOr<std::unique_ptr<TaskTemplate>> MakeTemplate(const Workload& workload,
                                                           const topi::CpuInfo& cpu,
                                                           target::Target::Kind target) {
  // The GPU templates serve both GPU APIs: they schedule threads, shared memory and barriers,
  // which both dialects print.
  if (target == target::Target::Kind::kOpenCl) target = target::Target::Kind::kCuda;
  TemplateFactory factory = nullptr;
  std::vector<std::string> names;
  {
    std::lock_guard<std::mutex> lock(RegistryMutex());
    for (const Entry& e : Registry()) {
      if (e.info.kind != target) continue;
      names.push_back(e.info.name);
      if (e.info.name == workload.template_name) factory = e.factory;
    }
  }
  if (factory != nullptr) {
    absl::Status error;
    std::unique_ptr<TaskTemplate> t = factory(workload, cpu, error);
    if (t == nullptr) {
      if (error.ok()) {
        error = absl::InternalError(
            absl::StrCat("workload '", workload.Key(), "': template factory made nothing"));
      }
      return error;
    }
    return t;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "workload '", workload.Key(), "': unknown template '", workload.template_name, "' for ",
      target::Target::KindName(target), " targets (known: ", absl::StrJoin(names, ", "), ")"));
}

absl::StatusOr<std::unique_ptr<Task>> CreateTask(const Workload& workload,
                                                 const target::Target& target) {
  const topi::CpuInfo cpu = target::CpuInfoOf(target);
  absl::StatusOr<std::unique_ptr<TaskTemplate>> tmpl = MakeTemplate(workload, cpu, target.kind());
  if (!tmpl.ok()) return tmpl.status();
  return Task::FromTemplate(workload, *std::move(tmpl), target, cpu);
}

}  // namespace tunefarm::tuner
