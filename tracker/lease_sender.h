// Where the leases the dispatcher hands out go: the gRPC layer writes them to the workers'
// streams (tracker/service/); an in-process fleet could measure them directly.
#pragma once

#include <vector>

#include "tracker/dispatcher.h"

namespace tunefarm::tracker {

class LeaseSender {
 public:
  virtual ~LeaseSender() = default;
  // Must not block on the network and must not call back into the Dispatcher synchronously
  // (it may be called while a Dispatcher method's results are being delivered). A lease that
  // cannot be delivered (its worker just left) is fine to drop: the dispatcher re-queues it when
  // the worker's removal is reported.
  virtual void Send(std::vector<Assignment> assignments) = 0;
  virtual void Withdraw(std::vector<Withdrawal> withdrawals) = 0;
};

}  // namespace tunefarm::tracker
