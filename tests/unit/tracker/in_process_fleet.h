// InProcessFleet: real workers without gRPC, for tests of the dispatcher's users (the job engine,
// the job manager). Each worker is a thread that writes a lease's libraries to disk and
// measures them in its own tunefarm-measure child (runtime::measure::IsolatedMeasurer), then
// reports to the Dispatcher and delivers the leases it hands back. Header-only: the test glob
// compiles only *_test.cc files.
//
// Usage:
//   Dispatcher dispatcher;
//   InProcessFleet fleet(dispatcher);          // destroy it before the dispatcher
//   fleet.AddWorker("test-cpu"); fleet.AddWorker("test-cpu");
//   JobEngine engine(options, dispatcher, fleet, store);  // the fleet is the LeaseSender
// Times given to the dispatcher are InProcessFleet::NowMs() (Unix milliseconds). Workers heartbeat
// every 500 ms while idle and with each result (not during a measurement, so keep a Tick-driven
// heartbeat timeout above the longest measurement).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/measure/isolated_measurer.h"
#include "runtime/measure/measure_program.h"
#include "tracker/dispatcher.h"
#include "tracker/lease_sender.h"

namespace tunefarm::tracker::testing {

class InProcessFleet final : public LeaseSender {
 public:
  static int64_t NowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }

  explicit InProcessFleet(Dispatcher& dispatcher) : dispatcher_(dispatcher) {
    static std::atomic<int> counter{0};
    dir_ = std::filesystem::temp_directory_path() /
           absl::StrCat("tf_fleet_", ::getpid(), "_", counter++);
    std::filesystem::create_directories(dir_);
    absl::StatusOr<std::string> program = runtime::measure::FindMeasureProgram();
    program_ = program.ok() ? *program : "tunefarm-measure";
  }

  // Stops every worker (a measurement in progress finishes first; its result is dropped) and
  // removes them from the dispatcher.
  ~InProcessFleet() override {
    std::vector<std::string> ids;
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (auto& [id, w] : workers_) ids.push_back(id);
    }
    for (const std::string& id : ids) StopThread(id, /*drop_results=*/true);
    for (const std::string& id : ids) dispatcher_.RemoveWorker(id, NowMs());
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  // The measure program of workers added from now on (a program that exits at once makes every
  // lease a runtime_error).
  void UseMeasureProgram(std::string program) { program_ = std::move(program); }

  // Registers a worker of `device_key` with the dispatcher and starts it; returns its id
  // ("<key>-w<n>" unless given).
  std::string AddWorker(const std::string& device_key, std::string worker_id = "") {
    auto w = std::make_shared<Worker>();
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (worker_id.empty()) worker_id = absl::StrCat(device_key, "-w", next_worker_++);
      w->id = worker_id;
      workers_[worker_id] = w;
    }
    w->thread = std::thread([this, w] { Loop(*w); });
    farm_api::WorkerDescription d;
    d.worker_id = worker_id;
    d.device_key = device_key;
    d.target = "llvm";
    d.cores = 1;
    d.hostname = "in-process";
    absl::StatusOr<std::vector<Assignment>> leases = dispatcher_.AddWorker(d, NowMs());
    if (leases.ok()) Send(*std::move(leases));
    return worker_id;
  }

  // A clean disconnect: the worker leaves the dispatcher (its lease, if any, is re-queued) and
  // its thread stops; a measurement in progress finishes and its result is dropped.
  void RemoveWorker(const std::string& worker_id) {
    Send(dispatcher_.RemoveWorker(worker_id, NowMs()));
    StopThread(worker_id, /*drop_results=*/true);
  }

  // Test hook for "kill -9 mid-measurement": the worker dies during its current measurement, or
  // its next one when idle: it is removed from the dispatcher while it holds the lease, and the
  // result is never reported. Returns at once; WaitUntilDead waits for it.
  void KillMidMeasurement(const std::string& worker_id) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = workers_.find(worker_id);
    if (it != workers_.end()) it->second->kill_requested = true;
    cv_.notify_all();
  }
  // True when the worker died (or is unknown) within `timeout_ms`.
  bool WaitUntilDead(const std::string& worker_id, int64_t timeout_ms = 30000) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] {
      auto it = workers_.find(worker_id);
      return it == workers_.end() || it->second->dead;
    });
  }

  // Results the worker reported (accepted or not).
  int Reported(const std::string& worker_id) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = workers_.find(worker_id);
    return it == workers_.end() ? 0 : it->second->reported;
  }

  void Send(std::vector<Assignment> assignments) override {
    std::lock_guard<std::mutex> lock(mu_);
    for (Assignment& a : assignments) {
      auto it = workers_.find(a.worker_id);
      if (it == workers_.end() || it->second->dead) continue;  // re-queued on its removal
      it->second->inbox.push_back(std::move(a));
    }
    cv_.notify_all();
  }

  void Withdraw(std::vector<Withdrawal> withdrawals) override {
    std::lock_guard<std::mutex> lock(mu_);
    for (const Withdrawal& w : withdrawals) {
      auto it = workers_.find(w.worker_id);
      if (it != workers_.end()) it->second->withdrawn.insert(w.lease_id);
    }
    cv_.notify_all();
  }

 private:
  struct Worker {
    std::string id;
    std::thread thread;
    std::deque<Assignment> inbox;
    std::set<int64_t> withdrawn;
    bool stop = false;
    bool kill_requested = false;
    bool dead = false;
    int reported = 0;
  };

  void StopThread(const std::string& worker_id, bool drop_results) {
    std::shared_ptr<Worker> w;
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = workers_.find(worker_id);
      if (it == workers_.end()) return;
      w = it->second;
      w->stop = true;
      if (drop_results) w->dead = true;
      cv_.notify_all();
    }
    if (w->thread.joinable()) w->thread.join();
    std::lock_guard<std::mutex> lock(mu_);
    workers_.erase(worker_id);
    cv_.notify_all();
  }

  // Writes an artifact once per fleet (by hash) and returns its path.
  std::string Materialize(const Artifact& artifact) {
    std::filesystem::path path = dir_ / (artifact.sha256 + ".so");
    std::lock_guard<std::mutex> lock(files_mu_);
    if (!std::filesystem::exists(path)) {
      std::filesystem::path tmp = dir_ / (artifact.sha256 + ".tmp");
      {
        std::ofstream out(tmp, std::ios::binary);
        out.write(artifact.bytes->data(), static_cast<std::streamsize>(artifact.bytes->size()));
      }
      std::filesystem::rename(tmp, path);
    }
    return path.string();
  }

  WorkOutcome Measure(runtime::measure::IsolatedMeasurer& measurer, const MeasureWork& work) {
    runtime::measure::MeasureRequest request;
    request.library_path = Materialize(work.library);
    request.function_name = work.function_name;
    if (work.reference.has_value()) {
      request.reference_library_path = Materialize(*work.reference);
      request.reference_function = work.reference_function;
      request.reference_key = work.reference_key;
    }
    request.bindings = work.bindings;
    request.options = work.options;
    request.best_seconds = work.best_seconds;
    runtime::measure::MeasureOutcome m =
        measurer.Measure(std::move(request), work.options.run_timeout_s);
    WorkOutcome outcome;
    outcome.error_kind = m.kind;
    outcome.error_message = std::move(m.message);
    outcome.repeat_seconds = std::move(m.repeat_seconds);
    return outcome;
  }

  // Dies as a killed worker would: removed while holding its lease, its result lost.
  void Die(Worker& w) {
    Send(dispatcher_.RemoveWorker(w.id, NowMs()));
    std::lock_guard<std::mutex> lock(mu_);
    w.dead = true;
    w.inbox.clear();
    cv_.notify_all();
  }

  void Loop(Worker& w) {
    runtime::measure::IsolatedMeasurer measurer(program_);
    while (true) {
      Assignment a;
      {
        std::unique_lock<std::mutex> lock(mu_);
        // Wakes now and then to heartbeat, as a real worker does.
        cv_.wait_for(lock, std::chrono::milliseconds(500),
                     [&] { return w.stop || w.dead || !w.inbox.empty(); });
        if (w.stop || w.dead) return;
        if (w.inbox.empty()) {
          lock.unlock();
          dispatcher_.Heartbeat(w.id, NowMs());
          continue;
        }
        a = std::move(w.inbox.front());
        w.inbox.pop_front();
        if (w.withdrawn.count(a.lease_id) != 0) continue;
        if (w.kill_requested) {
          lock.unlock();
          Die(w);
          return;
        }
      }
      WorkOutcome outcome = Measure(measurer, *a.work);
      {
        std::unique_lock<std::mutex> lock(mu_);
        if (w.dead) return;
        if (w.kill_requested) {
          lock.unlock();
          Die(w);
          return;
        }
        ++w.reported;
      }
      Send(dispatcher_.Complete(w.id, a.lease_id, std::move(outcome), NowMs()));
    }
  }

  Dispatcher& dispatcher_;
  std::filesystem::path dir_;
  std::string program_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, std::shared_ptr<Worker>> workers_;
  int next_worker_ = 1;
  std::mutex files_mu_;
};

}  // namespace tunefarm::tracker::testing
