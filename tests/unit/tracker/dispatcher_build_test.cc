// The dispatcher and work to build: work a worker compiles itself goes only to workers that can
// build (and never to one that refused its job's task), comes back unbuilt when none is left, and
// never holds back the jobs behind it; builders take build-only work in a queue of their own.
#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <vector>

#include "tests/unit/tracker/dispatcher_test_support.h"
#include "tracker/dispatcher.h"

namespace tunefarm::tracker {
namespace {

using testing::kKey;
using testing::Ok;
using testing::Options;
using testing::Outcomes;
using testing::Work;
using testing::Worker;

farm_api::WorkerDescription Builder(const std::string& id) {
  farm_api::WorkerDescription d = Worker(id);
  d.can_build = true;
  return d;
}

MeasureWork WorkToBuild(const std::string& job, const std::string& name) {
  MeasureWork w = Work(job, name);
  w.build = runtime::measure::BuildSpec{};
  w.build->workload_key = "matmul:16,16,16:float32";
  w.build->target = "llvm";
  w.build->config_json = "{}";
  return w;
}

TEST(DispatcherBuildTest, WorkToBuildGoesOnlyToWorkersThatCanBuild) {
  Dispatcher d(Options());
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(Worker("measures-only"), 0).ok());  // longest idle
  ASSERT_TRUE(d.AddWorker(Builder("builds"), 0).ok());
  EXPECT_EQ(d.WorkersFor(kKey), 2);
  EXPECT_EQ(d.BuildersFor(kKey), 1);
  std::vector<Assignment> a = d.Submit(WorkToBuild("j", "a"), out.For("a"), 0);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].worker_id, "builds");
  ASSERT_TRUE(a[0].work->build.has_value());
  // The next one to build waits for the builder, not for the idle worker that cannot build.
  EXPECT_TRUE(d.Submit(WorkToBuild("j", "b"), out.For("b"), 0).empty());
  EXPECT_EQ(d.QueuedFor(kKey), 1);
  std::vector<Assignment> next = d.Complete("builds", a[0].lease_id, Ok(), 10);
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].worker_id, "builds");
  EXPECT_EQ(next[0].work->function_name, "b");
  // Built work still goes to whoever is idle.
  std::vector<Assignment> built = d.Submit(Work("j", "c"), out.For("c"), 20);
  ASSERT_EQ(built.size(), 1u);
  EXPECT_EQ(built[0].worker_id, "measures-only");
}

TEST(DispatcherBuildTest, WhenTheLastBuilderGoesItsWorkComesBackUnbuiltOnce) {
  Dispatcher d(Options());
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(Builder("b1"), 0).ok());
  std::vector<Assignment> a = d.Submit(WorkToBuild("j", "leased"), out.For("leased"), 0);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_TRUE(d.Submit(WorkToBuild("j", "queued"), out.For("queued"), 0).empty());
  EXPECT_TRUE(d.Submit(Work("j", "built"), out.For("built"), 0).empty());
  d.RemoveWorker("b1", 5);  // lost while building: its lease is re-queued, then returned
  ASSERT_EQ(out.by_name["leased"].size(), 1u);
  EXPECT_TRUE(out.by_name["leased"][0].unbuilt);
  ASSERT_EQ(out.by_name["queued"].size(), 1u);
  EXPECT_TRUE(out.by_name["queued"][0].unbuilt);
  EXPECT_TRUE(out.by_name["built"].empty());  // a library: it waits for any worker
  EXPECT_EQ(d.QueuedFor(kKey), 1);
  // Work to build for a key with no builder comes back at once.
  EXPECT_TRUE(d.Submit(WorkToBuild("j", "late"), out.For("late"), 10).empty());
  ASSERT_EQ(out.by_name["late"].size(), 1u);
  EXPECT_TRUE(out.by_name["late"][0].unbuilt);
  EXPECT_EQ(d.QueuedFor(kKey), 1);
  std::vector<Assignment> b = d.AddWorker(Worker("m1"), 20).value();
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].work->function_name, "built");
  d.Complete("m1", b[0].lease_id, Ok(), 30);
  EXPECT_EQ(out.Count(), 4);
}

TEST(DispatcherBuildTest, ABuilderLostMidBuildLeavesItToAnotherBuilder) {
  Dispatcher d(Options());
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(Builder("b1"), 0).ok());
  ASSERT_TRUE(d.AddWorker(Builder("b2"), 0).ok());
  std::vector<Assignment> a = d.Submit(WorkToBuild("j", "x"), out.For("x"), 0);
  ASSERT_EQ(a.size(), 1u);
  const std::string first = a[0].worker_id;
  const std::string other = first == "b1" ? "b2" : "b1";
  std::vector<Assignment> again = d.RemoveWorker(first, 5);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].worker_id, other);
  EXPECT_TRUE(out.by_name["x"].empty());
  d.Complete(other, again[0].lease_id, Ok(), 10);
  ASSERT_EQ(out.by_name["x"].size(), 1u);
  EXPECT_FALSE(out.by_name["x"][0].unbuilt);
  EXPECT_EQ(out.by_name["x"][0].worker_id, other);
}

TEST(DispatcherBuildTest, AJobWaitingForABuilderHoldsBackNoJobBehindIt) {
  Dispatcher d(Options());
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(Builder("builds"), 0).ok());
  ASSERT_TRUE(d.AddWorker(Worker("measures-only"), 0).ok());
  std::vector<Assignment> a = d.Submit(WorkToBuild("first", "a"), out.For("a"), 0);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].worker_id, "builds");
  // "first" is next in turn, but its work waits for the builder: "second"'s built work takes
  // the idle worker meanwhile, and "first" keeps its turn.
  EXPECT_TRUE(d.Submit(WorkToBuild("first", "b"), out.For("b"), 0).empty());
  std::vector<Assignment> c = d.Submit(Work("second", "c"), out.For("c"), 0);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].worker_id, "measures-only");
  EXPECT_EQ(c[0].work->function_name, "c");
  EXPECT_TRUE(d.Submit(Work("second", "d"), out.For("d"), 0).empty());
  std::vector<Assignment> next = d.Complete("builds", a[0].lease_id, Ok(), 10);
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].work->function_name, "b");
}

TEST(DispatcherBuildTest, ManyJobsWaitingForABuilderKeepTheirTurnsAndHoldBackNothing) {
  Dispatcher d(Options());
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(Builder("builds"), 0).ok());
  std::vector<Assignment> busy = d.Submit(WorkToBuild("first", "busy"), out.For("busy"), 0);
  ASSERT_EQ(busy.size(), 1u);
  for (int j = 0; j < 300; ++j) {
    const std::string name = "wait" + std::to_string(j);
    EXPECT_TRUE(d.Submit(WorkToBuild(name, name), out.For(name), 0).empty());
  }
  for (int i = 0; i < 50; ++i) {
    const std::string name = "m" + std::to_string(i);
    EXPECT_TRUE(d.Submit(Work("measured", name), out.For(name), 0).empty());
  }
  // Each worker that joins takes the built work behind the 300 waiting jobs.
  for (int w = 0; w < 50; ++w) {
    absl::StatusOr<std::vector<Assignment>> a = d.AddWorker(Worker("w" + std::to_string(w)), 1);
    ASSERT_TRUE(a.ok());
    ASSERT_EQ(a->size(), 1u) << w;
    EXPECT_EQ((*a)[0].work->function_name, "m" + std::to_string(w));
  }
  EXPECT_EQ(d.QueuedFor(kKey), 300);
  // The builder, free again, serves the waiting jobs in the order they came.
  std::vector<Assignment> next = d.Complete("builds", busy[0].lease_id, Ok(), 10);
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].work->function_name, "wait0");
  next = d.Complete("builds", next[0].lease_id, Ok(), 11);
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].work->function_name, "wait1");
}

TEST(DispatcherBuildTest, WorkToBuildIsNeverLeasedToAWorkerThatRefusedItsTask) {
  Dispatcher d(Options());
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(Builder("refused"), 0).ok());  // longest idle
  ASSERT_TRUE(d.AddWorker(Builder("b2"), 0).ok());
  ASSERT_TRUE(d.AddWorker(Worker("measures-only"), 0).ok());
  EXPECT_EQ(d.BuildersFor(kKey), 2);
  EXPECT_EQ(d.BuildersFor(kKey, {"refused", "not-connected"}), 1);
  MeasureWork w = WorkToBuild("j", "a");
  w.not_for = {"refused"};
  std::vector<Assignment> a = d.Submit(w, out.For("a"), 0);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].worker_id, "b2");
  // The next waits for b2 although "refused" is idle; another job's built work takes
  // "refused" meanwhile.
  w.function_name = "b";
  EXPECT_TRUE(d.Submit(w, out.For("b"), 0).empty());
  std::vector<Assignment> c = d.Submit(Work("k", "c"), out.For("c"), 0);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].worker_id, "refused");
  // b2 leaves: no builder may take "b" any more, so it comes back unbuilt, once.
  std::vector<Assignment> lost = d.RemoveWorker("b2", 5);
  EXPECT_TRUE(lost.empty());
  ASSERT_EQ(out.by_name["a"].size(), 1u);
  EXPECT_TRUE(out.by_name["a"][0].unbuilt);
  ASSERT_EQ(out.by_name["b"].size(), 1u);
  EXPECT_TRUE(out.by_name["b"][0].unbuilt);
  EXPECT_TRUE(out.by_name["c"].empty());
  // And new work only "refused" could build is returned at once.
  w.function_name = "e";
  EXPECT_TRUE(d.Submit(w, out.For("e"), 10).empty());
  ASSERT_EQ(out.by_name["e"].size(), 1u);
  EXPECT_TRUE(out.by_name["e"][0].unbuilt);
  EXPECT_EQ(d.QueuedFor(kKey), 0);
}

farm_api::WorkerDescription BuildOnly(const std::string& id) {
  farm_api::WorkerDescription d = Builder(id);
  d.build_only = true;
  return d;
}

MeasureWork BuildOnlyWork(const std::string& job, const std::string& name) {
  MeasureWork w = WorkToBuild(job, name);
  w.build_only = true;
  w.build->build_timeout_s = 7;
  return w;
}

WorkOutcome Built(const std::string& function_name) {
  WorkOutcome o;
  o.built = BuiltLibraries{};
  o.built->library = Artifact{"ab", std::make_shared<const std::string>("lib"), "candidate.so"};
  o.built->function_name = function_name;
  return o;
}

TEST(DispatcherBuildOnlyTest, BuildersTakeOnlyBuildOnlyWorkAndNeverCountAsTheKeysWorkers) {
  Dispatcher d(Options());
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(BuildOnly("builder"), 0).ok());  // longest idle
  ASSERT_TRUE(d.AddWorker(Builder("device"), 0).ok());
  EXPECT_EQ(d.WorkersFor(kKey), 1);
  EXPECT_EQ(d.BuildersFor(kKey), 1);
  EXPECT_EQ(d.BuildOnlyFor(kKey).builders, 1);
  EXPECT_EQ(d.BuildOnlyFor(kKey).idle, 1);
  EXPECT_EQ(d.IdleFor(kKey), 1);
  EXPECT_EQ(d.DeviceKeys(), std::vector<std::string>{kKey});
  // A library and a spec the device builds itself both go to the device, never to the builder.
  std::vector<Assignment> m = d.Submit(Work("j", "lib"), out.For("lib"), 0);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].worker_id, "device");
  EXPECT_TRUE(d.Submit(WorkToBuild("j", "spec"), out.For("spec"), 0).empty());
  EXPECT_EQ(d.QueuedFor(kKey), 1);
  // Build-only work goes to the builder, with the build's timeout and no run time in its
  // deadline.
  std::vector<Assignment> b = d.Submit(BuildOnlyWork("j", "x"), out.For("x"), 100);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].worker_id, "builder");
  EXPECT_EQ(b[0].deadline_ms, 100 + 7000 + 500);
  EXPECT_EQ(d.QueuedFor(kKey), 1);  // the spec still waits for the device
  EXPECT_TRUE(d.Submit(BuildOnlyWork("j", "z"), out.For("z"), 100).empty());
  EXPECT_EQ(d.BuildOnlyFor(kKey).queued, 1);
  EXPECT_EQ(d.BuildOnlyFor(kKey).idle, 0);
  EXPECT_EQ(d.QueuedFor(kKey), 1);
  auto workers = d.Workers(kKey);
  ASSERT_EQ(workers.size(), 2u);
  EXPECT_TRUE(workers[0].description.build_only);
  EXPECT_EQ(workers[0].state, farm_api::WorkerState::kBusy);
  // The builder's answer carries the libraries; it is no measurement.
  d.Complete("builder", b[0].lease_id, Built("x_kernel"), 200);
  ASSERT_EQ(out.by_name["x"].size(), 1u);
  const WorkOutcome& o = out.by_name["x"][0];
  EXPECT_TRUE(o.build_only);
  ASSERT_TRUE(o.built.has_value());
  EXPECT_EQ(o.built->function_name, "x_kernel");
  EXPECT_EQ(o.worker_id, "builder");
  // A session never reserves a builder.
  std::vector<Assignment> next = d.Complete("device", m[0].lease_id, Ok(), 300);
  ASSERT_EQ(next.size(), 1u);  // the spec
  EXPECT_FALSE(d.ReserveForSession(kKey).has_value());
}

TEST(DispatcherBuildOnlyTest, AnAnswerOfTheWrongKindIsARuntimeError) {
  Dispatcher d(Options());
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(BuildOnly("builder"), 0).ok());
  ASSERT_TRUE(d.AddWorker(Worker("device"), 0).ok());
  std::vector<Assignment> b = d.Submit(BuildOnlyWork("j", "x"), out.For("x"), 0);
  std::vector<Assignment> m = d.Submit(Work("j", "y"), out.For("y"), 0);
  ASSERT_EQ(b.size(), 1u);
  ASSERT_EQ(m.size(), 1u);
  d.Complete("builder", b[0].lease_id, Ok(), 10);       // timings, no libraries
  d.Complete("device", m[0].lease_id, Built("f"), 10);  // libraries for a measurement
  ASSERT_EQ(out.by_name["x"].size(), 1u);
  EXPECT_EQ(out.by_name["x"][0].error_kind, tuner::ErrorKind::kRuntimeError);
  EXPECT_NE(out.by_name["x"][0].error_message.find("without the libraries"), std::string::npos);
  ASSERT_EQ(out.by_name["y"].size(), 1u);
  EXPECT_EQ(out.by_name["y"][0].error_kind, tuner::ErrorKind::kRuntimeError);
  EXPECT_FALSE(out.by_name["y"][0].built.has_value());
}

TEST(DispatcherBuildOnlyTest, ABuilderLostMidBuildLeavesItToAnotherAndTheLastReturnsTheRest) {
  Dispatcher d(Options());
  Outcomes out;
  ASSERT_TRUE(d.AddWorker(BuildOnly("b1"), 0).ok());
  ASSERT_TRUE(d.AddWorker(BuildOnly("b2"), 0).ok());
  ASSERT_TRUE(d.AddWorker(Builder("device"), 0).ok());  // can build, but is no builder
  std::vector<Assignment> a = d.Submit(BuildOnlyWork("j", "x"), out.For("x"), 0);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].worker_id, "b1");
  std::vector<Assignment> again = d.RemoveWorker("b1", 5);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].worker_id, "b2");
  EXPECT_TRUE(out.by_name["x"].empty());
  EXPECT_TRUE(d.Submit(BuildOnlyWork("j", "y"), out.For("y"), 6).empty());
  d.RemoveWorker("b2", 10);
  // x went down with two builders: quarantined, as work that kills workers is. The queued y
  // comes back unbuilt, for the tracker to build.
  ASSERT_EQ(out.by_name["x"].size(), 1u);
  EXPECT_EQ(out.by_name["x"][0].error_kind, tuner::ErrorKind::kWorkerLost);
  EXPECT_NE(out.by_name["x"][0].error_message.find("quarantined"), std::string::npos);
  ASSERT_EQ(out.by_name["y"].size(), 1u);
  EXPECT_TRUE(out.by_name["y"][0].unbuilt);
  EXPECT_EQ(d.BuildOnlyFor(kKey).builders, 0);
  EXPECT_EQ(d.BuildOnlyFor(kKey).queued, 0);
  EXPECT_EQ(d.IdleFor(kKey), 1);  // the device was never offered them
}

}  // namespace
}  // namespace tunefarm::tracker
