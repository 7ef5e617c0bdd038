// The dispatcher driven directly with an explicit clock: fair shares by weight, leases lost to
// deadlines, removals and silence, exactly-once completion, quarantine, cancellation, draining
// and sessions.
#include "tracker/dispatcher.h"

#include <chrono>
#include <cstdio>
#include <deque>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

#include "tests/unit/tracker/dispatcher_test_support.h"

namespace tunefarm::tracker {
namespace {

using testing::kKey;
using testing::Ok;
using testing::Options;
using testing::Outcomes;
using testing::Work;
using testing::Worker;

TEST(DispatcherTest, ALeaseOfLongRepeatsHasTheirTimeOnTopOfTheRunTimeout) {
  Dispatcher d(Options());
  Outcomes out;
  MeasureWork long_repeats = Work("j", "long");
  long_repeats.options.repeat = 10;
  long_repeats.options.min_repeat_ms = 1000;
  EXPECT_TRUE(d.Submit(long_repeats, out.For("long"), 0).empty());
  auto leases = d.AddWorker(Worker("w1"), 100);
  ASSERT_TRUE(leases.ok());
  ASSERT_EQ(leases->size(), 1u);
  // (1 s + three tries of 10 s, doubled) twice, and the slack.
  EXPECT_EQ((*leases)[0].deadline_ms, 100 + 2 * (1000 + 2 * 3 * 10 * 1000) + 500);
}

TEST(DispatcherTest, ASlowerDevicesLeaseLastsAsMuchLonger) {
  Dispatcher d(Options());
  Outcomes out;
  EXPECT_TRUE(d.Submit(Work("j", "a"), out.For("a"), 0).empty());
  farm_api::WorkerDescription board = Worker("board");
  board.slowness = 20;  // its run timeout is 20 s instead of 1 s
  auto leases = d.AddWorker(board, 100);
  ASSERT_TRUE(leases.ok());
  ASSERT_EQ(leases->size(), 1u);
  EXPECT_EQ((*leases)[0].deadline_ms, 100 + 2 * 20 * 1000 + 500);
}

// Whether a result came from an emulator is what its worker registered as, whatever it answers.
TEST(DispatcherTest, AnEmulatedWorkersResultsSaySo) {
  Dispatcher d(Options());
  Outcomes out;
  farm_api::WorkerDescription board = Worker("board");
  board.emulated = true;
  ASSERT_TRUE(d.AddWorker(board, 0).ok());
  ASSERT_TRUE(d.AddWorker(Worker("real"), 0).ok());
  auto leases = d.Submit(Work("j", "a"), out.For("a"), 0);
  auto more = d.Submit(Work("j", "b"), out.For("b"), 0);
  leases.insert(leases.end(), more.begin(), more.end());
  ASSERT_EQ(leases.size(), 2u);
  for (const auto& lease : leases) d.Complete(lease.worker_id, lease.lease_id, Ok(), 1);
  for (const char* name : {"a", "b"}) {
    ASSERT_EQ(out.by_name[name].size(), 1u);
    const WorkOutcome& o = out.by_name[name][0];
    EXPECT_EQ(o.emulated, o.worker_id == "board") << name;
  }
}

TEST(DispatcherTest, AnIdleWorkerGetsALeaseWithADeadline) {
  Dispatcher d(Options());
  Outcomes out;
  EXPECT_TRUE(d.Submit(Work("j", "a"), out.For("a"), 0).empty());  // nobody to take it
  EXPECT_EQ(d.QueuedFor(kKey), 1);
  auto leases = d.AddWorker(Worker("w1"), 100);
  ASSERT_TRUE(leases.ok());
  ASSERT_EQ(leases->size(), 1u);
  EXPECT_EQ((*leases)[0].worker_id, "w1");
  EXPECT_EQ((*leases)[0].deadline_ms, 100 + 2000 + 500);
  EXPECT_EQ((*leases)[0].work->function_name, "a");
  EXPECT_EQ(d.QueuedFor(kKey), 0);
  EXPECT_EQ(d.LeasesOutstanding(), 1);
  EXPECT_FALSE(d.AddWorker(Worker("w1"), 100).ok());  // the id is taken
  auto ws = d.Workers(kKey);
  ASSERT_EQ(ws.size(), 1u);
  EXPECT_EQ(ws[0].state, farm_api::WorkerState::kBusy);
  EXPECT_EQ(farm_api::WorkerStateName(ws[0].state), "measuring");

  // A second piece of work waits: one lease per worker.
  EXPECT_TRUE(d.Submit(Work("j", "b"), out.For("b"), 200).empty());
  auto next = d.Complete("w1", (*leases)[0].lease_id, Ok(), 300);
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].work->function_name, "b");
  ASSERT_EQ(out.by_name["a"].size(), 1u);
  EXPECT_EQ(out.by_name["a"][0].worker_id, "w1");
  EXPECT_EQ(d.Workers(kKey)[0].measured, 1);
}

TEST(DispatcherTest, WorkersThatLeftAreListedAsGoneWithWhatTheyDid) {
  Dispatcher d(Options());
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(Worker("w1"), 0).ok());
  ASSERT_TRUE(d.AddWorker(Worker("w2"), 0).ok());
  auto leases = d.Submit(Work("j", "a"), out.For("a"), 10);
  ASSERT_EQ(leases.size(), 1u);
  d.Complete(leases[0].worker_id, leases[0].lease_id, Ok(), 20);
  d.RemoveWorker(leases[0].worker_id, 30);
  std::vector<farm_api::WorkerSnapshot> gone = d.RecentlyGone();
  ASSERT_EQ(gone.size(), 1u);
  EXPECT_EQ(gone[0].description.worker_id, leases[0].worker_id);
  EXPECT_EQ(gone[0].state, farm_api::WorkerState::kGone);
  EXPECT_EQ(farm_api::WorkerStateName(gone[0].state), "gone");
  EXPECT_EQ(gone[0].gone_ms, 30);
  EXPECT_EQ(gone[0].measured, 1);
  EXPECT_EQ(d.Workers(kKey).size(), 1u);  // only connected workers
  // Silent workers leave the same way, and the list stays bounded.
  for (int i = 0; i < 70; ++i) {
    const std::string id = "x" + std::to_string(i);
    ASSERT_TRUE(d.AddWorker(Worker(id), 40).ok());
    d.RemoveWorker(id, 50 + i);
  }
  gone = d.RecentlyGone();
  EXPECT_EQ(gone.size(), 64u);
  EXPECT_EQ(gone[0].description.worker_id, "x69");  // newest first
}

TEST(DispatcherTest, WorkersAreSharedInProportionToJobWeights) {
  Dispatcher d(Options());
  Outcomes out;
  d.SetJobWeight("heavy", 3);
  d.SetJobWeight("light", 1);
  for (int i = 0; i < 400; ++i) {
    d.Submit(Work("heavy", "h"), out.For("h"), 0);
    d.Submit(Work("light", "l"), out.For("l"), 0);
  }
  std::vector<Assignment> live;
  for (int w = 0; w < 4; ++w) {
    auto leases = d.AddWorker(Worker("w" + std::to_string(w)), 0);
    ASSERT_TRUE(leases.ok());
    live.insert(live.end(), leases->begin(), leases->end());
  }
  std::map<std::string, int> leased;
  for (int n = 0; n < 400; ++n) {
    ASSERT_FALSE(live.empty());
    Assignment a = live.front();
    live.erase(live.begin());
    ++leased[a.work->job_id];
    auto next = d.Complete(a.worker_id, a.lease_id, Ok(), n);
    live.insert(live.end(), next.begin(), next.end());
  }
  // 3:1 over 400 leases, within a couple of leases.
  EXPECT_NEAR(leased["heavy"], 300, 3);
  EXPECT_NEAR(leased["light"], 100, 3);
}

TEST(DispatcherTest, AJobThatWasIdleDoesNotBankTurns) {
  Dispatcher d(Options());
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(Worker("w1"), 0).ok());
  std::vector<Assignment> live = d.Submit(Work("a"), out.For("a"), 0);
  for (int i = 0; i < 50; ++i) d.Submit(Work("a"), out.For("a"), 0);
  for (int i = 0; i < 20; ++i) {  // job a alone runs 20 leases
    auto next = d.Complete("w1", live[0].lease_id, Ok(), i);
    live = next;
  }
  for (int i = 0; i < 50; ++i) d.Submit(Work("b"), out.For("b"), 100);
  std::map<std::string, int> leased;
  for (int i = 0; i < 20; ++i) {
    auto next = d.Complete("w1", live[0].lease_id, Ok(), 200 + i);
    ASSERT_EQ(next.size(), 1u);
    ++leased[next[0].work->job_id];
    live = next;
  }
  EXPECT_NEAR(leased["a"], 10, 1);  // alternating, not b twenty times in a row
  EXPECT_NEAR(leased["b"], 10, 1);
}

// A worker still at work on its lease says so in its heartbeats: the lease is not lost while
// they come, however slow the device (up to lease_max_spans of it, against a worker that would
// name a lease forever); heartbeats that name another lease, or none, move nothing.
TEST(DispatcherTest, HeartbeatsNamingTheLeaseKeepItFromExpiring) {
  DispatcherOptions o = Options();
  o.lease_max_spans = 4;
  Dispatcher d(o);
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(Worker("slow"), 0).ok());
  auto first = d.Submit(Work("j", "a"), out.For("a"), 0);
  ASSERT_EQ(first.size(), 1u);
  const int64_t span = first[0].deadline_ms;  // leased at 0
  const int64_t lease = first[0].lease_id;
  int64_t now = 0;
  const int64_t beat = 500;  // within the heartbeat timeout (1000)
  for (; now + beat < 4 * span; now += beat) {
    d.Heartbeat("slow", now, lease);
    EXPECT_TRUE(d.Tick(now + beat).empty()) << "lost at " << now + beat;
  }
  // Past four spans the lease is lost even though the heartbeats still name it.
  d.Heartbeat("slow", now, lease);
  auto again = d.Tick(4 * span);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_NE(again[0].lease_id, lease);

  // A heartbeat naming no lease, or one it does not hold, leaves the deadline where it is.
  Dispatcher plain(Options());
  ASSERT_TRUE(plain.AddWorker(Worker("w"), 0).ok());
  auto leased = plain.Submit(Work("j", "b"), out.For("b"), 0);
  ASSERT_EQ(leased.size(), 1u);
  plain.Heartbeat("w", leased[0].deadline_ms - 1, 0);
  plain.Heartbeat("w", leased[0].deadline_ms - 1, leased[0].lease_id + 7);
  EXPECT_EQ(plain.Tick(leased[0].deadline_ms).size(), 1u);  // lost on time, leased again
}

TEST(DispatcherTest, AnExpiredLeaseIsRequeuedAndItsLateResultIgnored) {
  Dispatcher d(Options());
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(Worker("w1"), 0).ok());
  auto first = d.Submit(Work("j", "a"), out.For("a"), 0);
  ASSERT_EQ(first.size(), 1u);
  d.Heartbeat("w1", 2000);
  EXPECT_TRUE(d.Tick(2499).empty());  // not yet
  d.Heartbeat("w1", 2499);
  auto again = d.Tick(2500);  // the deadline: re-queued; w1 is idle again and gets it back
  ASSERT_EQ(again.size(), 1u);
  EXPECT_NE(again[0].lease_id, first[0].lease_id);
  EXPECT_EQ(again[0].work->function_name, "a");
  // The first lease's result comes late: ignored.
  EXPECT_TRUE(d.Complete("w1", first[0].lease_id, Ok(), 2600).empty());
  EXPECT_EQ(out.Count(), 0);
  d.Complete("w1", again[0].lease_id, Ok(), 2700);
  EXPECT_EQ(out.by_name["a"].size(), 1u);
}

TEST(DispatcherTest, ARemovedWorkersLeaseGoesToAnotherWorker) {
  Dispatcher d(Options());
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(Worker("w1"), 0).ok());
  auto first = d.Submit(Work("j"), out.For("a"), 0);
  ASSERT_TRUE(d.AddWorker(Worker("w2"), 0).ok());
  auto moved = d.RemoveWorker("w1", 10);
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].worker_id, "w2");
  EXPECT_EQ(d.WorkersFor(kKey), 1);
  // The dead worker's result (say, from a reconnect) is not accepted.
  EXPECT_TRUE(d.Complete("w1", first[0].lease_id, Ok(), 20).empty());
  d.Complete("w2", moved[0].lease_id, Ok(), 30);
  ASSERT_EQ(out.by_name["a"].size(), 1u);
  EXPECT_EQ(out.by_name["a"][0].worker_id, "w2");
}

TEST(DispatcherTest, ResultsAreAcceptedExactlyOnceFromTheHolder) {
  Dispatcher d(Options());
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(Worker("w1"), 0).ok());
  ASSERT_TRUE(d.AddWorker(Worker("w2"), 0).ok());
  auto leases = d.Submit(Work("j"), out.For("a"), 0);
  ASSERT_EQ(leases.size(), 1u);
  const std::string holder = leases[0].worker_id;
  const std::string other = holder == "w1" ? "w2" : "w1";
  d.Complete(other, leases[0].lease_id, Ok(), 1);         // not the holder
  d.Complete(holder, leases[0].lease_id + 100, Ok(), 1);  // no such lease
  EXPECT_EQ(out.Count(), 0);
  d.Complete(holder, leases[0].lease_id, Ok(), 2);
  d.Complete(holder, leases[0].lease_id, Ok(), 3);  // a duplicate
  EXPECT_EQ(out.Count(), 1);
  EXPECT_EQ(d.LeasesOutstanding(), 0);
}

TEST(DispatcherTest, WorkLostTooOftenIsWorkerLost) {
  Dispatcher d(Options());
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(Worker("w1"), 0).ok());
  d.Submit(Work("j"), out.For("a"), 0);
  int64_t now = 0;
  for (int i = 0; i < 3; ++i) {  // the same live worker overruns its lease three times
    now += 2501;
    d.Heartbeat("w1", now);
    d.Tick(now);
  }
  ASSERT_EQ(out.by_name["a"].size(), 1u);
  const WorkOutcome& o = out.by_name["a"][0];
  EXPECT_EQ(o.error_kind, tuner::ErrorKind::kWorkerLost);
  EXPECT_NE(o.error_message.find("lease lost 3 times"), std::string::npos) << o.error_message;
  EXPECT_FALSE(o.cancelled);
  EXPECT_EQ(d.QueuedFor(kKey), 0);
  EXPECT_EQ(d.LeasesOutstanding(), 0);
}

TEST(DispatcherTest, WorkThatTakesDownTwoWorkersIsQuarantined) {
  Dispatcher d(Options());
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(Worker("w1"), 0).ok());
  ASSERT_TRUE(d.AddWorker(Worker("w2"), 0).ok());
  auto first = d.Submit(Work("j"), out.For("killer"), 0);
  ASSERT_EQ(first.size(), 1u);
  auto second = d.RemoveWorker(first[0].worker_id, 1);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(out.Count(), 0);
  EXPECT_TRUE(d.RemoveWorker(second[0].worker_id, 2).empty());
  ASSERT_EQ(out.by_name["killer"].size(), 1u);
  EXPECT_EQ(out.by_name["killer"][0].error_kind, tuner::ErrorKind::kWorkerLost);
  EXPECT_NE(out.by_name["killer"][0].error_message.find("quarantined"), std::string::npos);
}

farm_api::WorkerDescription Reconnect(const std::string& id, const std::string& previous_id) {
  farm_api::WorkerDescription d = Worker(id);
  d.previous_worker_id = previous_id;
  return d;
}

TEST(DispatcherTest, AWorkerReconnectingAfterAFlakyLinkIsOneWorkerForQuarantine) {
  Dispatcher d(Options());
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(Worker("w1"), 0).ok());
  ASSERT_EQ(d.Submit(Work("j"), out.For("healthy"), 0).size(), 1u);
  // The link drops twice while the candidate is leased; the worker comes back each time with
  // the id it had before.
  EXPECT_TRUE(d.RemoveWorker("w1", 1).empty());
  auto again = d.AddWorker(Reconnect("w2", "w1"), 2);
  ASSERT_TRUE(again.ok());
  ASSERT_EQ(again->size(), 1u);
  ASSERT_EQ(d.Workers(kKey).size(), 1u);
  EXPECT_EQ(d.Workers(kKey)[0].description.previous_worker_id, "w1");
  EXPECT_TRUE(d.RemoveWorker("w2", 3).empty());
  EXPECT_EQ(out.Count(), 0);  // neither quarantined nor given up
  EXPECT_EQ(d.QueuedFor(kKey), 1);
  auto third = d.AddWorker(Reconnect("w3", "w2"), 4);
  ASSERT_TRUE(third.ok());
  ASSERT_EQ(third->size(), 1u);
  d.Complete("w3", (*third)[0].lease_id, Ok(), 5);
  ASSERT_EQ(out.by_name["healthy"].size(), 1u);
  EXPECT_EQ(out.by_name["healthy"][0].error_kind, tuner::ErrorKind::kOk);

  // The same two losses on two different workers still quarantine the candidate.
  d.Submit(Work("j"), out.For("killer"), 6);
  ASSERT_EQ(d.Workers(kKey).size(), 1u);
  d.RemoveWorker("w3", 7);
  ASSERT_TRUE(d.AddWorker(Worker("w4"), 8).ok());  // a fresh worker, no claim
  d.RemoveWorker("w4", 9);
  ASSERT_EQ(out.by_name["killer"].size(), 1u);
  EXPECT_NE(out.by_name["killer"][0].error_message.find("quarantined"), std::string::npos);
}

TEST(DispatcherTest, AClaimOnAConnectedUnknownOrUsedIdMakesANewWorker) {
  Dispatcher d(Options());
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(Worker("w1"), 0).ok());
  ASSERT_EQ(d.Submit(Work("j"), out.For("killer"), 0).size(), 1u);
  // A worker that claims to be the connected w1 does not get its identity.
  ASSERT_TRUE(d.AddWorker(Reconnect("evil", "w1"), 1).ok());
  ASSERT_TRUE(d.AddWorker(Reconnect("stranger", "never-issued"), 1).ok());
  for (const farm_api::WorkerSnapshot& w : d.Workers(kKey)) {
    EXPECT_TRUE(w.description.previous_worker_id.empty()) << w.description.worker_id;
  }
  auto moved = d.RemoveWorker("w1", 2);
  ASSERT_EQ(moved.size(), 1u);
  d.RemoveWorker(moved[0].worker_id, 3);
  ASSERT_EQ(out.by_name["killer"].size(), 1u);
  EXPECT_NE(out.by_name["killer"][0].error_message.find("quarantined"), std::string::npos);
  // w1 has left: one registration may continue it, a second claim on it is a new worker.
  ASSERT_TRUE(d.AddWorker(Reconnect("w5", "w1"), 4).ok());
  ASSERT_TRUE(d.AddWorker(Reconnect("w6", "w1"), 4).ok());
  for (const farm_api::WorkerSnapshot& w : d.Workers(kKey)) {
    EXPECT_EQ(w.description.previous_worker_id, w.description.worker_id == "w5" ? "w1" : "")
        << w.description.worker_id;
  }
}

TEST(DispatcherTest, CancellingAJobCompletesItsWorkAndWithdrawsItsLeases) {
  Dispatcher d(Options());
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(Worker("w1"), 0).ok());
  auto leased = d.Submit(Work("doomed"), out.For("d"), 0);
  ASSERT_EQ(leased.size(), 1u);
  for (int i = 0; i < 3; ++i) d.Submit(Work("doomed"), out.For("d"), 0);
  d.Submit(Work("other"), out.For("o"), 0);
  std::vector<Withdrawal> withdrawals = d.CancelJob("doomed");
  ASSERT_EQ(withdrawals.size(), 1u);
  EXPECT_EQ(withdrawals[0].worker_id, "w1");
  EXPECT_EQ(withdrawals[0].lease_id, leased[0].lease_id);
  ASSERT_EQ(out.by_name["d"].size(), 4u);
  for (const WorkOutcome& o : out.by_name["d"]) EXPECT_TRUE(o.cancelled);
  // The withdrawn lease's late result is ignored; the freed worker takes the other job's work.
  EXPECT_TRUE(d.Complete("w1", leased[0].lease_id, Ok(), 5).empty());
  EXPECT_EQ(out.by_name["d"].size(), 4u);
  auto next = d.Tick(6);
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].work->job_id, "other");
  EXPECT_TRUE(d.CancelJob("doomed").empty());
}

TEST(DispatcherTest, DoneCallbacksMayCallBackIntoTheDispatcher) {
  Dispatcher d(Options());
  int queued_seen = -1;
  ASSERT_TRUE(d.AddWorker(Worker("w1"), 0).ok());
  auto leases = d.Submit(
      Work("j"), [&](const WorkOutcome&) { queued_seen = d.QueuedFor(kKey); }, 0);
  d.Complete("w1", leases[0].lease_id, Ok(), 1);  // would deadlock under the lock
  EXPECT_EQ(queued_seen, 0);
}

TEST(DispatcherTest, ADrainingWorkerFinishesItsLeaseButGetsNoMore) {
  Dispatcher d(Options());
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(Worker("w1"), 0).ok());
  auto leases = d.Submit(Work("j"), out.For("a"), 0);
  d.Submit(Work("j"), out.For("b"), 0);
  d.SetDraining("w1");
  EXPECT_EQ(d.Workers()[0].state, farm_api::WorkerState::kDraining);
  EXPECT_TRUE(d.Complete("w1", leases[0].lease_id, Ok(), 1).empty());
  EXPECT_EQ(out.by_name["a"].size(), 1u);
  EXPECT_EQ(d.QueuedFor(kKey), 1);
  EXPECT_TRUE(d.Tick(2).empty());
}

TEST(DispatcherTest, ASessionReservesAnIdleWorkerUntilReleased) {
  Dispatcher d(Options());
  Outcomes out;
  EXPECT_FALSE(d.ReserveForSession(kKey).has_value());
  ASSERT_TRUE(d.AddWorker(Worker("w1"), 0).ok());
  std::optional<farm_api::WorkerSnapshot> s = d.ReserveForSession(kKey);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->description.worker_id, "w1");
  EXPECT_EQ(s->state, farm_api::WorkerState::kSession);
  EXPECT_FALSE(d.ReserveForSession(kKey).has_value());
  EXPECT_TRUE(d.Submit(Work("j"), out.For("a"), 1).empty());  // the worker is in a session
  auto leases = d.ReleaseSession("w1", 2);
  ASSERT_EQ(leases.size(), 1u);
  EXPECT_EQ(leases[0].worker_id, "w1");
}

TEST(DispatcherTest, ASilentWorkerIsRemovedByTickAndItsLeaseRequeued) {
  Dispatcher d(Options());
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(Worker("quiet"), 0).ok());
  auto leases = d.Submit(Work("j"), out.For("a"), 0);
  ASSERT_EQ(leases.size(), 1u);
  ASSERT_TRUE(d.AddWorker(Worker("chatty"), 500).ok());
  d.Heartbeat("chatty", 1200);
  std::vector<std::string> removed;
  auto moved = d.Tick(1001, &removed);
  ASSERT_EQ(removed, std::vector<std::string>{"quiet"});
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].worker_id, "chatty");
  EXPECT_EQ(d.WorkersFor(kKey), 1);
  // Workers of another key never take it.
  ASSERT_TRUE(d.AddWorker(Worker("gpu", "gpu"), 1100).ok());
  EXPECT_EQ(d.Workers("gpu")[0].state, farm_api::WorkerState::kIdle);
}

TEST(DispatcherTest, AResultCountsAsHearingFromItsWorker) {
  Dispatcher d(Options());
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(Worker("busy"), 0).ok());
  ASSERT_TRUE(d.AddWorker(Worker("idle"), 100).ok());
  std::vector<Assignment> a = d.Submit(Work("j"), out.For("x"), 0);
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(a[0].worker_id, "busy");
  d.Complete("busy", a[0].lease_id, Ok(), 900);
  std::vector<std::string> removed;
  d.Tick(1500, &removed);
  EXPECT_EQ(removed, std::vector<std::string>{"idle"});
  d.Tick(1900, &removed);
  EXPECT_EQ(removed.size(), 1u) << "heard from 1000 ms ago: not yet silent";
  d.Heartbeat("busy", 1800);
  d.Tick(2700, &removed);
  EXPECT_EQ(removed.size(), 1u);
  d.Tick(2801, &removed);
  EXPECT_EQ(removed, (std::vector<std::string>{"idle", "busy"}));
  EXPECT_EQ(d.WorkersFor(kKey), 0);
}

// A capacity smoke test: 1,000 workers, several jobs, every result answered with the next lease.
// No timing assertion (a shared VM is noisy); it prints the mean cost of a Complete.
TEST(DispatcherTest, AThousandWorkersKeepBusy) {
  Dispatcher d(Options());
  int done = 0;
  for (int j = 0; j < 8; ++j) d.SetJobWeight("job" + std::to_string(j), 1 + j % 3);
  for (int i = 0; i < 40000; ++i) {
    d.Submit(
        Work("job" + std::to_string(i % 8)), [&](const WorkOutcome&) { ++done; }, 0);
  }
  std::deque<Assignment> live;
  for (int w = 0; w < 1000; ++w) {
    auto leases = d.AddWorker(Worker("w" + std::to_string(w)), 0);
    ASSERT_TRUE(leases.ok());
    live.insert(live.end(), leases->begin(), leases->end());
  }
  ASSERT_EQ(live.size(), 1000u);
  auto start = std::chrono::steady_clock::now();
  while (!live.empty()) {
    Assignment a = live.front();
    live.pop_front();
    auto next = d.Complete(a.worker_id, a.lease_id, Ok(), 1);
    live.insert(live.end(), next.begin(), next.end());
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(done, 40000);
  EXPECT_EQ(d.LeasesOutstanding(), 0);
  std::printf("[ capacity ] %.2f us per Complete with 1000 workers\n", seconds / 40000 * 1e6);
}

}  // namespace
}  // namespace tunefarm::tracker
