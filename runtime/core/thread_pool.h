// The thread pool that runs generated kernels' parallel loops (TFBackendParallelLaunch in
// c_abi.h). Part of runtime/core: libc, libstdc++ and pthreads only.
//
// Workers are persistent; the calling thread runs task 0, so a width-N pool has N-1 workers.
// Task t of T runs on participant t % min(T, N): the same task ids land on the same threads launch
// after launch, which keeps each thread's chunk of a buffer in its own cache. Workers spin briefly
// after a launch (the next parallel loop usually follows within microseconds) and then sleep. A
// launch from inside a task runs its tasks serially on that thread. Launches from several
// threads at once take turns.
#pragma once

#include <string>

namespace tunefarm::runtime {

// The width used when SetNumThreads has not chosen one: TUNEFARM_NUM_THREADS when it is a
// positive integer, else the number of CPUs this process may run on (its affinity mask).
int DefaultNumThreads();

// The pool's width: how many threads (the caller included) run a launch's tasks.
int NumThreads();

// Sets the width for the launches that follow; `num_threads` <= 0 restores DefaultNumThreads().
// Workers are stopped and restarted lazily. Fails (false, `*error` says why) from inside a
// parallel task and above kMaxThreads.
inline constexpr int kMaxThreads = 1024;
bool SetNumThreads(int num_threads, std::string* error = nullptr);

// Pins worker i (1..width-1) to the i-th CPU of the process's affinity mask, from the next
// (re)start of the workers; the calling thread is never pinned, since it belongs to the user.
// Defaults to TUNEFARM_PIN_THREADS=1 in the environment. Fails from inside a parallel task.
bool SetPinThreads(bool pin, std::string* error = nullptr);
bool PinThreads();

// Runs an empty launch across the pool, so that the next launch finds its workers spinning rather
// than asleep: what a kernel finds inside a model, where launches follow each other. A timing
// that does something slow between calls (flushing caches) calls it before starting the clock.
void WakeWorkers();

// True on a thread that is running a parallel task (where a launch would run serially).
bool InParallelTask();

}  // namespace tunefarm::runtime
