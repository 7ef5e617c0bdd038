// ScheduledOp: what every ScheduleXxx returns — a schedule and its argument list (the inputs,
// then the outputs), ready for passes::Lower.
#pragma once

#include <vector>

#include "compiler/schedule/schedule.h"
#include "compiler/te/tensor.h"

namespace tunefarm::topi {

struct ScheduledOp {
  schedule::Schedule schedule;
  std::vector<te::Tensor> args;
};

}  // namespace tunefarm::topi
