#include "runtime/core/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <sched.h>
#include <system_error>
#include <thread>
#include <vector>

#include "runtime/core/c_abi.h"

namespace tunefarm::runtime {
namespace {

// How long a waiting thread spins before it sleeps: long enough to catch the next parallel loop
// of the same kernel, short enough not to starve other processes on a shared machine.
constexpr std::chrono::microseconds kSpinTime{100};

thread_local bool tls_in_task = false;

void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  asm volatile("yield" ::: "memory");
#endif
}

// Waits until `word` differs from `old` and returns the new value: spin first, then sleep.
template <typename T>
T WaitForChange(const std::atomic<T>& word, T old) {
  auto deadline = std::chrono::steady_clock::time_point{};
  for (int i = 0;; ++i) {
    T now = word.load(std::memory_order_acquire);
    if (now != old) return now;
    if ((i & 63) == 63) {
      auto t = std::chrono::steady_clock::now();
      if (deadline == decltype(deadline){}) {
        deadline = t + kSpinTime;
      } else if (t >= deadline) {
        break;
      }
    }
    CpuRelax();
  }
  for (;;) {
    word.wait(old, std::memory_order_acquire);
    T now = word.load(std::memory_order_acquire);
    if (now != old) return now;
  }
}

std::vector<int> AllowedCpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
    }
  }
  return cpus;
}

bool EnvFlag(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && value[0] != '\0' && std::string(value) != "0";
}

// One launch's task range, handed to its participants.
struct ParallelLaunch {
  TFParallelLambda lambda = nullptr;
  void* closure = nullptr;
  int32_t num_tasks = 0;
  int32_t num_participants = 0;
};

// A worker's wake-up word, on its own cache line so that waking one worker does not disturb
// another's spinning.
struct alignas(64) WorkerSlot {
  std::atomic<uint32_t> ticket{0};
};

class Pool {
 public:
  Pool() : width_(DefaultNumThreads()), pin_(EnvFlag("TUNEFARM_PIN_THREADS")) {
    pthread_atfork(&Pool::BeforeFork, &Pool::AfterForkInParent, &Pool::AfterForkInChild);
  }

  // Leaked on purpose: kernels may still run from other static destructors at exit, and a
  // pool destroyed under them would hang or crash; the OS reclaims the threads.
  static Pool& Get() {
    static Pool* pool = new Pool();
    return *pool;
  }

  int width() const { return width_.load(std::memory_order_relaxed); }
  bool pin() const { return pin_.load(std::memory_order_relaxed); }

  bool SetWidth(int n, std::string* error) {
    if (!OutsideTasks("SetNumThreads", error)) return false;
    if (n > kMaxThreads) {
      if (error) {
        *error = "SetNumThreads(" + std::to_string(n) + "): at most " +
                 std::to_string(kMaxThreads) + " threads";
      }
      return false;
    }
    std::lock_guard<std::mutex> lock(launch_mutex_);
    if (n <= 0) n = DefaultNumThreads();
    if (n != width()) {
      StopWorkers();
      width_.store(n, std::memory_order_relaxed);
    }
    return true;
  }

  bool SetPin(bool pin, std::string* error) {
    if (!OutsideTasks("SetPinThreads", error)) return false;
    std::lock_guard<std::mutex> lock(launch_mutex_);
    if (pin != this->pin()) {
      StopWorkers();
      pin_.store(pin, std::memory_order_relaxed);
    }
    return true;
  }

  int32_t Launch(TFParallelLambda lambda, void* closure, int32_t num_tasks) {
    if (lambda == nullptr || num_tasks < 0) return -1;
    if (tls_in_task) return RunSerially(lambda, closure, num_tasks == 0 ? 1 : num_tasks);
    std::unique_lock<std::mutex> lock(launch_mutex_);
    int32_t width = this->width();
    if (num_tasks == 0) num_tasks = width;
    if (width > 1 && num_tasks > 1 && workers_.empty()) StartWorkers();
    int32_t participants = std::min(num_tasks, static_cast<int32_t>(workers_.size()) + 1);
    if (participants <= 1) {
      lock.unlock();
      return RunSerially(lambda, closure, num_tasks);
    }
    launch_ = ParallelLaunch{lambda, closure, num_tasks, participants};
    first_error_.store(0, std::memory_order_relaxed);
    pending_.store(participants - 1, std::memory_order_relaxed);
    for (int32_t i = 1; i < participants; ++i) {
      slots_[i].ticket.fetch_add(1, std::memory_order_release);
      slots_[i].ticket.notify_one();
    }
    tls_in_task = true;
    RunShare(0);
    tls_in_task = false;
    for (int32_t left = participants - 1; left != 0;) left = WaitForChange(pending_, left);
    return first_error_.load(std::memory_order_relaxed);
  }

 private:
  // The launching thread holds launch_mutex_ while it runs task 0, and workers would have to
  // stop themselves: settings change only between launches.
  static bool OutsideTasks(const char* what, std::string* error) {
    if (!tls_in_task) return true;
    if (error) *error = std::string(what) + " cannot be called from inside a parallel task";
    return false;
  }

  static int32_t RunSerially(TFParallelLambda lambda, void* closure, int32_t num_tasks) {
    bool outer = !tls_in_task;
    tls_in_task = true;
    int32_t first_error = 0;
    for (int32_t t = 0; t < num_tasks; ++t) {
      int32_t result = lambda(t, num_tasks, closure);
      if (first_error == 0) first_error = result;
    }
    if (outer) tls_in_task = false;
    return first_error;
  }

  // Participant p runs tasks p, p + P, p + 2P, ...
  void RunShare(int32_t participant) {
    const ParallelLaunch& launch = launch_;
    for (int32_t t = participant; t < launch.num_tasks; t += launch.num_participants) {
      int32_t result = launch.lambda(t, launch.num_tasks, launch.closure);
      if (result != 0) {
        int32_t expected = 0;
        first_error_.compare_exchange_strong(expected, result, std::memory_order_relaxed);
      }
    }
  }

  void WorkerLoop(int32_t index, int cpu) {
    tls_in_task = true;
    if (cpu >= 0) {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(cpu, &set);
      // Pinning only helps locality; a refusal (a restricted container) is not an error.
      pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
    }
    const std::atomic<uint32_t>& ticket = slots_[index].ticket;
    for (uint32_t seen = 0;;) {
      seen = WaitForChange(ticket, seen);
      if (stop_.load(std::memory_order_acquire)) return;
      RunShare(index);
      if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) pending_.notify_one();
    }
  }

  // Called with launch_mutex_ held.
  void StartWorkers() {
    int32_t width = this->width();
    std::vector<int> cpus = pin() ? AllowedCpus() : std::vector<int>{};
    stop_.store(false, std::memory_order_relaxed);
    slots_ = std::make_unique<WorkerSlot[]>(width);
    workers_.reserve(width - 1);
    for (int32_t i = 1; i < width; ++i) {
      int cpu = cpus.empty() ? -1 : cpus[i % cpus.size()];
      try {
        workers_.emplace_back([this, i, cpu] { WorkerLoop(i, cpu); });
      } catch (const std::system_error&) {
        // Out of threads (a phone's process limit): run on the workers we have. An exception
        // must not unwind through the generated code that called the launch.
        break;
      }
    }
  }

  // Called with launch_mutex_ held.
  void StopWorkers() {
    if (workers_.empty()) return;
    stop_.store(true, std::memory_order_release);
    for (size_t i = 1; i <= workers_.size(); ++i) {
      slots_[i].ticket.fetch_add(1, std::memory_order_release);
      slots_[i].ticket.notify_one();
    }
    for (std::thread& t : workers_) t.join();
    workers_.clear();
  }

  // A forked child (the measuring child of a worker) has none of the parent's threads: it forgets
  // them (leaking their handles, since neither join nor detach may touch a thread that does not
  // exist) and starts its own at its first launch. Holding launch_mutex_ across fork() keeps the
  // child from inheriting a launch half done.
  static void BeforeFork() {
    if (!tls_in_task) Get().launch_mutex_.lock();
  }
  static void AfterForkInParent() {
    if (!tls_in_task) Get().launch_mutex_.unlock();
  }
  static void AfterForkInChild() {
    Pool& pool = Get();
    if (!pool.workers_.empty()) {
      [[maybe_unused]] auto* abandoned = new std::vector<std::thread>(std::move(pool.workers_));
      pool.workers_.clear();
    }
    if (!tls_in_task) pool.launch_mutex_.unlock();
  }

  std::mutex launch_mutex_;
  std::atomic<int32_t> width_;
  std::atomic<bool> pin_;
  std::vector<std::thread> workers_;
  std::unique_ptr<WorkerSlot[]> slots_;
  ParallelLaunch launch_;
  std::atomic<int32_t> pending_{0};
  std::atomic<int32_t> first_error_{0};
  std::atomic<bool> stop_{false};
};

}  // namespace

int DefaultNumThreads() {
  if (const char* env = std::getenv("TUNEFARM_NUM_THREADS"); env != nullptr && env[0] != '\0') {
    char* end = nullptr;
    long n = std::strtol(env, &end, 10);
    if (*end == '\0' && n > 0) return static_cast<int>(std::min<long>(n, kMaxThreads));
    static std::once_flag warned;
    std::call_once(warned, [env] {
      std::fprintf(stderr,
                   "tunefarm: ignoring TUNEFARM_NUM_THREADS='%s' (not a positive integer)\n", env);
    });
  }
  size_t cpus = AllowedCpus().size();
  if (cpus == 0) cpus = std::thread::hardware_concurrency();
  return static_cast<int>(std::clamp<size_t>(cpus, 1, kMaxThreads));
}

int NumThreads() { return Pool::Get().width(); }

bool SetNumThreads(int num_threads, std::string* error) {
  return Pool::Get().SetWidth(num_threads, error);
}

bool SetPinThreads(bool pin, std::string* error) { return Pool::Get().SetPin(pin, error); }

bool PinThreads() { return Pool::Get().pin(); }

bool InParallelTask() { return tls_in_task; }

void WakeWorkers() {
  TFBackendParallelLaunch([](int32_t, int32_t, void*) -> int32_t { return 0; }, nullptr, 0);
}

}  // namespace tunefarm::runtime

extern "C" int32_t TFBackendParallelLaunch(TFParallelLambda lambda, void* closure,
                                           int32_t num_tasks) {
  return tunefarm::runtime::Pool::Get().Launch(lambda, closure, num_tasks);
}
