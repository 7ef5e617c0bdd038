// WorkerLinks: the connected workers' outbound sides by worker id, and the LeaseSender the
// dispatcher's callers (JobManager, RemoteRunner, the services) deliver leases through.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "proto/tunefarm/v1/session.pb.h"
#include "tracker/lease_sender.h"

namespace tunefarm::tracker {

// One worker's stream as the rest of the tracker sees it. Every method queues and returns at
// once (never blocks on the network); after the stream ends they do nothing.
class WorkerLink {
 public:
  virtual ~WorkerLink() = default;
  virtual void SendLease(const Assignment& assignment) = 0;
  virtual void SendCancel(int64_t lease_id) = 0;
  virtual void SendSessionCall(v1::SessionCall call) = 0;
  // Ends the stream with an error status (the worker missed its heartbeats). The dispatcher has
  // already forgotten the worker, so the stream's end does not report it again.
  virtual void Close(int code, const std::string& message) = 0;
};

class WorkerLinks final : public LeaseSender {
 public:
  using ReplyHandler = std::function<void(const std::string& worker_id, const v1::SessionReply&)>;
  using GoneHandler = std::function<void(const std::string& worker_id)>;

  void Add(const std::string& worker_id, std::shared_ptr<WorkerLink> link);
  // Removes the entry only while it is still `link` (a stale stream cannot remove a newer one).
  void Remove(const std::string& worker_id, const WorkerLink* link);
  std::shared_ptr<WorkerLink> Find(const std::string& worker_id) const;
  std::vector<std::pair<std::string, std::shared_ptr<WorkerLink>>> All() const;
  size_t size() const;

  // LeaseSender: looks each worker up and queues on its stream; a worker that just left is
  // skipped (the dispatcher re-queues its lease when the removal is reported).
  void Send(std::vector<Assignment> assignments) override;
  void Withdraw(std::vector<Withdrawal> withdrawals) override;

  // Session relay hooks, set once before serving: a worker's SessionReply, and a worker gone.
  void SetSessionHandlers(ReplyHandler on_reply, GoneHandler on_gone);
  void DeliverSessionReply(const std::string& worker_id, const v1::SessionReply& reply) const;
  void NotifyGone(const std::string& worker_id) const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<WorkerLink>> links_;
  ReplyHandler on_reply_;
  GoneHandler on_gone_;
};

}  // namespace tunefarm::tracker
