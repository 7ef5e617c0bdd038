#include "tools/cli/farm_commands.h"

#include <iostream>
#include <memory>

#include "tools/cli/flag_checks.h"
#include "tools/cli/interrupt.h"
#include "tools/commands/demo_command.h"
#include "tools/commands/jobs_command.h"
#include "tools/commands/session_command.h"
#include "tools/commands/tracker_command.h"
#include "tools/commands/worker_command.h"
#include "tools/commands/workers_command.h"

namespace tunefarm::tools::cli {

void AddFarmCommands(CLI::App& app, CommandTable& table) {
  auto demo = std::make_shared<DemoOptions>();
  auto tracker = std::make_shared<TrackerCommandOptions>();
  auto worker = std::make_shared<WorkerCommandOptions>();
  auto jobs = std::make_shared<JobsOptions>();
  auto session = std::make_shared<SessionCommandOptions>();
  auto workers = std::make_shared<WorkersOptions>();

  CLI::App* demo_cmd = table.Add(
      app, "demo",
      "Start a farm here (tracker + 2 workers), tune a matmul and a conv2d through it, and "
      "compare the best configs with the untuned defaults",
      [demo] {
        return UnlessInterrupted(RunDemoCommand(*demo, StopOnInterrupt(), std::cout, std::cerr));
      });
  demo_cmd->add_option("--db", demo->db, "The record database it leaves behind")
      ->capture_default_str();
  demo_cmd->add_option("--trials", demo->trials, "Trials per job")
      ->capture_default_str()
      ->check(AtLeast(1));
  demo_cmd->add_option("--workers", demo->workers, "Local workers")
      ->capture_default_str()
      ->check(AtLeast(1));
  demo_cmd->add_option("--matmul", demo->matmul, "The matmul workload")->capture_default_str();
  demo_cmd->add_option("--conv", demo->conv, "The conv2d workload")->capture_default_str();
  demo_cmd->add_flag("!--no-progress", demo->progress, "No progress line");
  CLI::App* tracker_cmd = table.Add(
      app, "tracker", "Run a farm's tracker: workers connect to it, clients submit tuning jobs",
      [tracker] {
        // Ctrl-C or SIGTERM: the tracker stops (jobs resume on restart).
        return RunTrackerCommand(*tracker, StopOnInterrupt(true), std::cout, std::cerr);
      });
  tracker_cmd->add_option("--listen", tracker->listen, "Address to serve, HOST:PORT (0: any)")
      ->capture_default_str();
  tracker_cmd->add_option("--db", tracker->db, "The record database (created if missing)")
      ->capture_default_str();
  tracker_cmd
      ->add_option("--token-file", tracker->token_file,
                   "Workers and clients must present the token in this file")
      ->check(ReadableFile());
  tracker_cmd->add_option("--tls-cert", tracker->tls_cert, "Serve TLS with this certificate")
      ->check(ReadableFile());
  tracker_cmd->add_option("--tls-key", tracker->tls_key, "... and this private key (PEM)")
      ->check(ReadableFile());
  tracker_cmd->add_option("--max-jobs", tracker->max_jobs, "Unfinished jobs at most")
      ->capture_default_str()
      ->check(AtLeast(1));
  tracker_cmd
      ->add_option("--build-threads", tracker->build_threads,
                   "Candidates the tracker compiles at once (0: its cores)")
      ->capture_default_str()
      ->check(AtLeast(0));
  tracker_cmd
      ->add_option("--builds", tracker->builds,
                   "Where candidates are compiled when the workers can build: auto (here; an idle "
                   "worker builds what it would otherwise wait for), workers, tracker")
      ->capture_default_str();
  tracker_cmd->add_option("--max-trials", tracker->max_trials, "Trials per job at most")
      ->capture_default_str()
      ->check(AtLeast(1));
  tracker_cmd
      ->add_option("--max-artifact-mb", tracker->max_artifact_mb,
                   "Largest library sent to a worker")
      ->capture_default_str()
      ->check(AtLeast(1, " MB"));
  tracker_cmd->add_option("--http", tracker->http,
                          "Serve the web dashboard, JSON API and /metrics on HOST:PORT");
  tracker_cmd->add_option("--port-file", tracker->port_file,
                          "Write the bound port here once listening");

  CLI::App* worker_cmd =
      table.Add(app, "worker",
                "Serve this machine to a farm: measure the candidates a tracker leases", [worker] {
                  // Ctrl-C or SIGTERM: the worker drains.
                  return RunWorkerCommand(*worker, StopOnInterrupt(true), std::cout, std::cerr);
                });
  worker_cmd->add_option("--tracker", worker->tracker, "The tracker, HOST:PORT")
      ->capture_default_str();
  worker_cmd->add_option("--key", worker->key, "Device key, e.g. epyc-2c")->required();
  worker_cmd->add_option("--target", worker->target, "The target it runs")->capture_default_str();
  worker_cmd->add_option("--token-file", worker->token_file, "File holding the farm's token")
      ->check(ReadableFile());
  worker_cmd
      ->add_option("--tls-root-cert", worker->tls_root_cert,
                   "CA certificate (PEM): use TLS and trust only trackers it signed")
      ->check(ReadableFile());
  worker_cmd->add_option("--work-dir", worker->work_dir, "Artifact cache directory");
  worker_cmd->add_flag("--no-build", worker->no_build,
                       "Measure only: the tracker builds this worker's candidates");
  worker_cmd->add_flag("--build-only", worker->build_only,
                       "Build for the devices of --key that cannot (the slim server on a "
                       "board): cross-compile for --target, measure nothing");
  worker_cmd->add_option("--device", worker->device,
                         "Serve an OpenCL device instead of the CPU: opencl or "
                         "opencl:PLATFORM:DEVICE (clinfo -l lists them)");
  worker_cmd
      ->add_option("--parallel", worker->parallel,
                   "With --build-only: builders in this process, one candidate each at a time "
                   "(e.g. the cores to give)")
      ->capture_default_str();

  CLI::App* jobs_cmd = table.Add(app, "jobs", "List the farm's tuning jobs, or cancel one",
                                 [jobs] { return RunJobsCommand(*jobs, std::cout, std::cerr); });
  AddFarmAddress(jobs_cmd, jobs->farm);
  jobs_cmd->add_flag("--all", jobs->all, "Finished jobs too");
  jobs_cmd->add_option("--limit", jobs->limit, "At most this many")
      ->capture_default_str()
      ->check(AtLeast(1));
  jobs_cmd->add_option("--cancel", jobs->cancel, "Cancel this job (its records stay)");

  CLI::App* session_cmd =
      table.Add(app, "session",
                "Run a built module on a device of the farm (through the tracker) and time it",
                [session] { return RunSessionCommand(*session, std::cout, std::cerr); });
  AddFarmAddress(session_cmd, session->farm);
  session_cmd->add_option("--key", session->key, "Device key to borrow a worker of")->required();
  session_cmd->add_option("library", session->library, "Shared library from tunefarm build")
      ->required()
      ->check(ReadableFile());
  session_cmd->add_option("--function", session->function,
                          "Function to run (default: the only one)");
  session_cmd->add_option("--bind", session->bind, "Symbolic sizes and integer arguments: n=512");
  session_cmd->add_option("--repeat", session->repeat, "Timed repeats")
      ->capture_default_str()
      ->check(AtLeast(1));
  session_cmd->add_option("--min-repeat-ms", session->min_repeat_ms, "Shortest repeat, in ms")
      ->capture_default_str()
      ->check(AtLeast(0, " ms"));
  session_cmd
      ->add_option("--threads", session->threads, "Parallel width on the device (0: its default)")
      ->capture_default_str()
      ->check(AtLeast(0));
  session_cmd
      ->add_option("--compare", session->compare,
                   "Another build of the same computation: both timed in alternating "
                   "rounds on the device, their speedup printed with its 95 % CI")
      ->check(ReadableFile());
  session_cmd->add_option("--rounds", session->rounds, "With --compare: rounds (2..1000)")
      ->capture_default_str()
      ->check(InRange(2, 1000));
  session_cmd->add_option("--wait", session->wait_s, "Seconds to wait for an idle worker")
      ->capture_default_str()
      ->check(AtLeast(0, " s"));

  CLI::App* workers_cmd =
      table.Add(app, "workers", "List the workers connected to the farm",
                [workers] { return RunWorkersCommand(*workers, std::cout, std::cerr); });
  AddFarmAddress(workers_cmd, workers->farm);
  workers_cmd->add_option("--key", workers->key, "Only this device key");
}

}  // namespace tunefarm::tools::cli
