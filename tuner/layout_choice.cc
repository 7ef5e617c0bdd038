#include "tuner/layout_choice.h"

#include <algorithm>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>

#include "absl/strings/str_cat.h"
#include "runtime/core/json_nesting.h"

namespace tunefarm::tuner {
namespace {

using Json = nlohmann::json;

absl::Status Invalid(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("layout choice: ", what));
}

// An array of integers, or nullopt (a non-array, a non-integer, or more than `limit` entries).
std::optional<std::vector<int64_t>> Integers(const Json& j, size_t limit) {
  if (!j.is_array() || j.size() > limit) return std::nullopt;
  std::vector<int64_t> out;
  out.reserve(j.size());
  for (const Json& v : j) {
    if (!v.is_number_integer()) return std::nullopt;
    out.push_back(v.get<int64_t>());
  }
  return out;
}

bool FitsInt(int64_t v) {
  return v >= std::numeric_limits<int>::min() && v <= std::numeric_limits<int>::max();
}

}  // namespace

absl::StatusOr<BlockAssignment> SearchBlocks(const std::vector<std::vector<int64_t>>& candidates,
                                             const std::vector<int64_t>& start,
                                             const std::vector<std::vector<int>>& stages,
                                             const AssignmentCost& cost) {
  BlockAssignment result;
  result.blocks = start;
  absl::StatusOr<LayoutCost> first = cost(start);
  if (!first.ok()) return first.status();
  result.cost = *first;
  result.evaluated = 1;
  // Tries `vars` at `block`; keeps it when cheaper.
  auto try_move = [&](const std::vector<int>& vars, int64_t block) -> absl::Status {
    std::vector<int64_t> trial = result.blocks;
    bool changed = false;
    for (int v : vars) {
      changed = changed || trial[v] != block;
      trial[v] = block;
    }
    if (!changed) return absl::OkStatus();
    absl::StatusOr<LayoutCost> c = cost(trial);
    if (!c.ok()) return c.status();
    ++result.evaluated;
    const bool saves = c->unmeasured != result.cost.unmeasured
                           ? c->unmeasured < result.cost.unmeasured
                           : c->seconds < result.cost.seconds * (1 - kMinLayoutMoveSaving);
    if (saves) {
      result.cost = *c;
      result.blocks = std::move(trial);
    }
    return absl::OkStatus();
  };
  // A move is kept only when it lowers a finite order of costs, so the search ends; the bound
  // only cuts a long tail of gains.
  constexpr int kMaxRounds = 8;
  for (int round = 0; round < kMaxRounds; ++round) {
    const LayoutCost before = result.cost;
    for (const std::vector<int>& stage : stages) {
      if (stage.empty()) continue;
      for (int64_t block : candidates[stage.front()]) {
        if (absl::Status s = try_move(stage, block); !s.ok()) return s;
      }
    }
    for (const std::vector<int>& stage : stages) {
      for (int v : stage) {
        for (int64_t block : candidates[v]) {
          if (absl::Status s = try_move({v}, block); !s.ok()) return s;
        }
      }
    }
    if (!(result.cost < before)) break;
  }
  return result;
}

LayoutCost CostOfAssignment(const LayoutChoice& choice, const std::vector<int64_t>& blocks,
                            const std::vector<double>& best_seconds, std::vector<int>* runs) {
  // Per site, the fastest holding use with a time; whether any use holds at all.
  std::vector<int> fastest(choice.site_required.size(), -1);
  std::vector<bool> holds(choice.site_required.size(), false);
  for (const LayoutUse& use : choice.uses) {
    const bool all = std::all_of(use.when.begin(), use.when.end(),
                                 [&](const BlockCondition& c) { return blocks[c.var] == c.block; });
    if (!all) continue;
    holds[use.site] = true;
    const double s = best_seconds[use.task];
    if (s > 0 && (fastest[use.site] < 0 || s < best_seconds[fastest[use.site]])) {
      fastest[use.site] = use.task;
    }
  }
  if (runs != nullptr) runs->assign(best_seconds.size(), 0);
  LayoutCost cost;
  for (size_t site = 0; site < fastest.size(); ++site) {
    if (fastest[site] >= 0) {
      cost.seconds += best_seconds[fastest[site]];
      if (runs != nullptr) ++(*runs)[fastest[site]];
    } else if (holds[site] || choice.site_required[site]) {
      ++cost.unmeasured;
    }
  }
  return cost;
}

BlockAssignment ChooseBlocks(const LayoutChoice& choice, const std::vector<double>& best_seconds) {
  std::vector<std::vector<int64_t>> candidates;
  std::vector<int64_t> start;
  std::map<int64_t, std::vector<int>> by_stage;
  for (size_t v = 0; v < choice.vars.size(); ++v) {
    candidates.push_back(choice.vars[v].candidates);
    start.push_back(choice.vars[v].rule);
    by_stage[choice.vars[v].stage].push_back(static_cast<int>(v));
  }
  std::vector<std::vector<int>> stages;
  for (auto& [stage, vars] : by_stage) stages.push_back(std::move(vars));
  // The cost never fails, so neither does the search.
  return *SearchBlocks(candidates, start, stages, [&](const std::vector<int64_t>& blocks) {
    return absl::StatusOr<LayoutCost>(CostOfAssignment(choice, blocks, best_seconds));
  });
}

absl::Status ValidateLayoutChoice(const LayoutChoice& choice, int tasks) {
  if (choice.vars.size() > static_cast<size_t>(kMaxLayoutVars) ||
      choice.site_required.size() > static_cast<size_t>(kMaxLayoutSites) ||
      choice.uses.size() > static_cast<size_t>(kMaxLayoutUses)) {
    return Invalid(absl::StrCat(choice.vars.size(), " vars, ", choice.site_required.size(),
                                " sites and ", choice.uses.size(), " uses; at most ",
                                kMaxLayoutVars, ", ", kMaxLayoutSites, " and ", kMaxLayoutUses));
  }
  for (size_t v = 0; v < choice.vars.size(); ++v) {
    const LayoutVar& var = choice.vars[v];
    if (var.candidates.empty() || var.candidates.size() > 8) {
      return Invalid(absl::StrCat("var ", v, " has ", var.candidates.size(),
                                  " candidate blocks; it needs 1 to 8"));
    }
    for (int64_t b : var.candidates) {
      if (b <= 0 || b > 1024) {
        return Invalid(absl::StrCat("var ", v, " has block ", b, "; blocks are in 1..1024"));
      }
    }
    if (std::find(var.candidates.begin(), var.candidates.end(), var.rule) == var.candidates.end()) {
      return Invalid(absl::StrCat("var ", v, "'s rule block ", var.rule, " is not a candidate"));
    }
  }
  for (size_t u = 0; u < choice.uses.size(); ++u) {
    const LayoutUse& use = choice.uses[u];
    if (use.task < 0 || use.task >= tasks) {
      return Invalid(absl::StrCat("use ", u, " names task ", use.task, " of ", tasks));
    }
    if (use.site < 0 || static_cast<size_t>(use.site) >= choice.site_required.size()) {
      return Invalid(
          absl::StrCat("use ", u, " names site ", use.site, " of ", choice.site_required.size()));
    }
    if (use.when.size() > 2) {
      return Invalid(absl::StrCat("use ", u, " has ", use.when.size(),
                                  " conditions; at most 2 (a kernel's input and output)"));
    }
    for (const BlockCondition& c : use.when) {
      if (c.var < 0 || static_cast<size_t>(c.var) >= choice.vars.size()) {
        return Invalid(absl::StrCat("use ", u, " names var ", c.var, " of ", choice.vars.size()));
      }
      const std::vector<int64_t>& cands = choice.vars[c.var].candidates;
      if (std::find(cands.begin(), cands.end(), c.block) == cands.end()) {
        return Invalid(absl::StrCat("use ", u, " wants block ", c.block, " of var ", c.var,
                                    ", not one of its candidates"));
      }
    }
  }
  return absl::OkStatus();
}

std::string LayoutChoiceToJson(const LayoutChoice& choice) {
  Json vars = Json::array();
  for (const LayoutVar& v : choice.vars) {
    Json row = {v.rule, v.stage};
    for (int64_t b : v.candidates) row.push_back(b);
    vars.push_back(std::move(row));
  }
  Json sites = Json::array();
  for (bool required : choice.site_required) sites.push_back(required ? 1 : 0);
  Json uses = Json::array();
  for (const LayoutUse& u : choice.uses) {
    Json row = {u.task, u.site};
    for (const BlockCondition& c : u.when) {
      row.push_back(c.var);
      row.push_back(c.block);
    }
    uses.push_back(std::move(row));
  }
  return Json{{"vars", vars}, {"sites", sites}, {"uses", uses}}.dump();
}

absl::StatusOr<LayoutChoice> LayoutChoiceFromJson(std::string_view json) {
  if (!runtime::JsonNestingWithin(json)) return Invalid("JSON nested too deep");
  const Json j = Json::parse(json.begin(), json.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Invalid("not a JSON object");
  auto array = [&](const char* field, size_t limit) -> absl::StatusOr<const Json*> {
    auto it = j.find(field);
    if (it == j.end() || !it->is_array()) {
      return Invalid(absl::StrCat("field '", field, "' is not an array"));
    }
    if (it->size() > limit) {
      return Invalid(
          absl::StrCat("field '", field, "' has ", it->size(), " entries; at most ", limit));
    }
    return &*it;
  };
  absl::StatusOr<const Json*> vars = array("vars", kMaxLayoutVars);
  if (!vars.ok()) return vars.status();
  absl::StatusOr<const Json*> sites = array("sites", kMaxLayoutSites);
  if (!sites.ok()) return sites.status();
  absl::StatusOr<const Json*> uses = array("uses", kMaxLayoutUses);
  if (!uses.ok()) return uses.status();
  LayoutChoice choice;
  for (const Json& row : **vars) {
    std::optional<std::vector<int64_t>> v = Integers(row, 2 + 8);
    if (!v || v->size() < 3) {
      return Invalid("a var is not [rule, stage, candidate...] of at most 8 candidates");
    }
    choice.vars.push_back({(*v)[0], std::vector<int64_t>(v->begin() + 2, v->end()), (*v)[1]});
  }
  for (const Json& s : **sites) {
    if (!s.is_number_integer()) return Invalid("a site is not 0 or 1");
    choice.site_required.push_back(s.get<int64_t>() != 0);
  }
  for (const Json& row : **uses) {
    std::optional<std::vector<int64_t>> u = Integers(row, 2 + 2 * 2);
    if (!u || u->size() < 2 || u->size() % 2 != 0) {
      return Invalid("a use is not [task, site, var, block...] of at most 2 conditions");
    }
    if (!FitsInt((*u)[0]) || !FitsInt((*u)[1])) return Invalid("a use's task or site is too big");
    LayoutUse use{static_cast<int>((*u)[0]), static_cast<int>((*u)[1]), {}};
    for (size_t k = 2; k < u->size(); k += 2) {
      if (!FitsInt((*u)[k])) return Invalid("a use's var is too big");
      use.when.push_back({static_cast<int>((*u)[k]), (*u)[k + 1]});
    }
    choice.uses.push_back(std::move(use));
  }
  return choice;
}

}  // namespace tunefarm::tuner
