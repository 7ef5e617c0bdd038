// The registry is a fixed table: the operator library's templates are known at compile time, and
// a table keeps ListTemplates' order and MakeTemplate's errors deterministic.
#include "tuner/templates/template_registry.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tuner/target_cpu.h"
#include "tuner/templates/conv2d_nchwc_template.h"
#include "tuner/templates/conv2d_template.h"
#include "tuner/templates/depthwise_conv2d_nchwc_template.h"
#include "tuner/templates/depthwise_conv2d_template.h"
#include "tuner/templates/gemm_template.h"

namespace tunefarm::tuner {
namespace {

struct Entry {
  TemplateInfo info;
  TemplateFactory factory;
};

const std::vector<Entry>& Registry() {
  static const std::vector<Entry>* entries = [] {
    auto* e = new std::vector<Entry>{
        {templates::BatchMatmulTemplateInfo(), &templates::MakeBatchMatmulTemplate},
        {templates::Conv2dTemplateInfo(), &templates::MakeConv2dTemplate},
        {templates::Conv2dNchwcTemplateInfo(), &templates::MakeConv2dNchwcTemplate},
        {templates::DenseTemplateInfo(), &templates::MakeDenseTemplate},
        {templates::DepthwiseConv2dTemplateInfo(), &templates::MakeDepthwiseConv2dTemplate},
        {templates::DepthwiseConv2dNchwcTemplateInfo(),
         &templates::MakeDepthwiseConv2dNchwcTemplate},
        {templates::MatmulTemplateInfo(), &templates::MakeMatmulTemplate},
    };
    std::sort(e->begin(), e->end(),
              [](const Entry& a, const Entry& b) { return a.info.name < b.info.name; });
    return e;
  }();
  return *entries;
}

}  // namespace

std::vector<TemplateInfo> ListTemplates() {
  std::vector<TemplateInfo> infos;
  for (const Entry& e : Registry()) infos.push_back(e.info);
  return infos;
}

absl::StatusOr<std::unique_ptr<TaskTemplate>> MakeTemplate(const Workload& workload,
                                                           const topi::CpuInfo& cpu) {
  for (const Entry& e : Registry()) {
    if (e.info.name != workload.template_name) continue;
    absl::Status error;
    std::unique_ptr<TaskTemplate> t = e.factory(workload, cpu, error);
    if (t == nullptr) {
      if (error.ok()) {
        error = absl::InternalError(
            absl::StrCat("workload '", workload.Key(), "': template factory made nothing"));
      }
      return error;
    }
    return t;
  }
  std::vector<std::string> names;
  for (const Entry& e : Registry()) names.push_back(e.info.name);
  return absl::InvalidArgumentError(absl::StrCat("workload '", workload.Key(),
                                                 "': unknown template '", workload.template_name,
                                                 "' (known: ", absl::StrJoin(names, ", "), ")"));
}

absl::StatusOr<std::unique_ptr<Task>> CreateTask(const Workload& workload,
                                                 const std::string& target) {
  absl::StatusOr<topi::CpuInfo> cpu = CpuInfoForTarget(target);
  if (!cpu.ok()) return cpu.status();
  absl::StatusOr<std::unique_ptr<TaskTemplate>> tmpl = MakeTemplate(workload, *cpu);
  if (!tmpl.ok()) return tmpl.status();
  return Task::FromTemplate(workload, *std::move(tmpl), target, *cpu);
}

}  // namespace tunefarm::tuner
