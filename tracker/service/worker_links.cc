#include "tracker/service/worker_links.h"

#include <utility>

namespace tunefarm::tracker {

void WorkerLinks::Add(const std::string& worker_id, std::shared_ptr<WorkerLink> link) {
  std::lock_guard lock(mu_);
  links_[worker_id] = std::move(link);
}

void WorkerLinks::Remove(const std::string& worker_id, const WorkerLink* link) {
  std::lock_guard lock(mu_);
  auto it = links_.find(worker_id);
  if (it != links_.end() && it->second.get() == link) links_.erase(it);
}

std::shared_ptr<WorkerLink> WorkerLinks::Find(const std::string& worker_id) const {
  std::lock_guard lock(mu_);
  auto it = links_.find(worker_id);
  return it == links_.end() ? nullptr : it->second;
}

std::vector<std::pair<std::string, std::shared_ptr<WorkerLink>>> WorkerLinks::All() const {
  std::lock_guard lock(mu_);
  return {links_.begin(), links_.end()};
}

size_t WorkerLinks::size() const {
  std::lock_guard lock(mu_);
  return links_.size();
}

// The registry lock is never held while a link queues: a link's own lock nests inside nothing.
void WorkerLinks::Send(std::vector<Assignment> assignments) {
  for (const Assignment& a : assignments) {
    if (auto link = Find(a.worker_id)) link->SendLease(a);
  }
}

void WorkerLinks::Withdraw(std::vector<Withdrawal> withdrawals) {
  for (const Withdrawal& w : withdrawals) {
    if (auto link = Find(w.worker_id)) link->SendCancel(w.lease_id);
  }
}

void WorkerLinks::SetSessionHandlers(ReplyHandler on_reply, GoneHandler on_gone) {
  std::lock_guard lock(mu_);
  on_reply_ = std::move(on_reply);
  on_gone_ = std::move(on_gone);
}

void WorkerLinks::DeliverSessionReply(const std::string& worker_id,
                                      const v1::SessionReply& reply) const {
  ReplyHandler handler;
  {
    std::lock_guard lock(mu_);
    handler = on_reply_;
  }
  if (handler) handler(worker_id, reply);
}

void WorkerLinks::NotifyGone(const std::string& worker_id) const {
  GoneHandler handler;
  {
    std::lock_guard lock(mu_);
    handler = on_gone_;
  }
  if (handler) handler(worker_id);
}

}  // namespace tunefarm::tracker
