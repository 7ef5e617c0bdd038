// `tunefarm workers [--key KEY]`: the workers connected to the farm: key, state, what they are.
#pragma once

#include <ostream>
#include <string>

#include "client/farm_client.h"

namespace tunefarm::tools {

struct WorkersOptions {
  client::FarmAddress farm;
  std::string key;  // only this device key
};

// 0 with one line per worker; 1 with "tunefarm: ..." when the tracker refuses or is unreachable.
int RunWorkersCommand(const WorkersOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
