#include "tools/cli/model_commands.h"

#include <iostream>
#include <memory>

#include "driver/model_compiler.h"
#include "tools/cli/flag_checks.h"
#include "tools/cli/interrupt.h"
#include "tools/commands/exit_codes.h"
#include "tools/commands/model_build_command.h"
#include "tools/commands/model_info_command.h"
#include "tools/commands/model_passes_command.h"
#include "tools/commands/model_quantize_command.h"
#include "tools/commands/model_run_command.h"
#include "tools/commands/model_test_command.h"
#include "tools/commands/model_tune_command.h"

namespace tunefarm::tools::cli {
namespace {

// Runs `run` once every --input-shape has been parsed into `shapes`; a bad one is a usage error.
int WithShapes(const std::vector<std::string>& texts,
               std::map<std::string, std::vector<int64_t>>& shapes,
               const std::function<int()>& run) {
  for (const std::string& text : texts) {
    absl::Status s = driver::ParseInputShape(text, &shapes);
    if (!s.ok()) {
      std::cerr << "tunefarm: " << s.message() << "\n";
      return kExitUsage;
    }
  }
  return run();
}

}  // namespace

void AddModelCommands(CLI::App& app, CommandTable& table) {
  // --input-shape NAME=D1,D2,...: the same flag of every model command, parsed once one runs.
  auto shapes = std::make_shared<std::vector<std::string>>();
  auto model_info = std::make_shared<ModelInfoOptions>();
  CLI::App* model_cmd = table.AddGroup(app, "model", "Whole models (ONNX)");
  CLI::App* model_info_cmd = table.Add(
      *model_cmd, "info",
      "Import an ONNX model and print its inputs, outputs, op counts, parameters and FLOPs",
      [model_info, shapes] {
        return WithShapes(*shapes, model_info->input_shapes,
                          [&] { return RunModelInfoCommand(*model_info, std::cout, std::cerr); });
      });
  model_info_cmd->add_option("model", model_info->file, "The .onnx file")
      ->required()
      ->check(ReadableFile());

  model_info_cmd->add_option("--input-shape", *shapes,
                             "NAME=D1,D2,...: the shape of an input (batch size, image size)");
  auto model_passes = std::make_shared<ModelPassesOptions>();
  CLI::App* model_passes_cmd =
      table.Add(*model_cmd, "passes",
                "Print the graph after import and after each graph pass, then the fused groups",
                [model_passes, shapes] {
                  return WithShapes(*shapes, model_passes->input_shapes, [&] {
                    return RunModelPassesCommand(*model_passes, std::cout, std::cerr);
                  });
                });
  model_passes_cmd->add_option("model", model_passes->file, "The .onnx file")
      ->required()
      ->check(ReadableFile());
  model_passes_cmd
      ->add_option("--disable", model_passes->disable,
                   "Graph passes to skip, comma-separated (simplify_inference, fold_scales, "
                   "pack_weights, constant_folding, common_subexpression, dead_code, fuse_ops)")
      ->delimiter(',');
  model_passes_cmd->add_option("--input-shape", *shapes,
                               "NAME=D1,D2,...: the shape of an input (batch size, image size)");
  // Options every command that builds a model takes.
  auto add_compile_options = [&](CLI::App* cmd, driver::ModelCompileOptions& compile) {
    cmd->add_option("--input-shape", *shapes,
                    "NAME=D1,D2,...: the shape of an input (batch size, image size)");
    cmd->add_option("--disable", compile.disabled_passes, "Graph passes to skip, comma-separated")
        ->delimiter(',');
  };
  auto model_build = std::make_shared<ModelBuildOptions>();
  CLI::App* model_build_cmd = table.Add(
      *model_cmd, "build",
      "Build an ONNX model into one module file that the graph runtime loads alone",
      [model_build, shapes] {
        if (model_build->compile.db.empty() != model_build->compile.device_key.empty()) {
          std::cerr << "tunefarm: --db and --device-key go together\n";
          return kExitUsage;
        }
        return WithShapes(*shapes, model_build->compile.input_shapes,
                          [&] { return RunModelBuildCommand(*model_build, std::cout, std::cerr); });
      });
  model_build_cmd->add_option("model", model_build->file, "The .onnx file")
      ->required()
      ->check(ReadableFile());
  model_build_cmd
      ->add_option("--target", model_build->target,
                   "llvm (this host) or llvm -mtriple=aarch64-linux-gnu ...")
      ->capture_default_str();
  model_build_cmd->add_option("-o,--output", model_build->output, "The module to write")
      ->required();
  model_build_cmd
      ->add_option("--db", model_build->compile.db,
                   "A records database: build each tuned task with its best record")
      ->check(ReadableFile());
  model_build_cmd->add_option("--device-key", model_build->compile.device_key,
                              "The device key whose records --db uses");
  model_build_cmd->add_flag(
      "--race", model_build->race,
      "With --db: time the model here with each conv's rival algorithms (direct, Winograd "
      "tiles) whose records are close, and keep what runs fastest in the model");
  model_build_cmd
      ->add_option("--race-seconds", model_build->race_seconds,
                   "No new rival is raced after this many seconds")
      ->capture_default_str()
      ->check(Above(0, " s"));
  model_build_cmd->add_option("--threads", model_build->threads, "--race: threads of the runtime")
      ->check(AtLeast(1));
  add_compile_options(model_build_cmd, model_build->compile);
  auto model_run = std::make_shared<ModelRunOptions>();
  CLI::App* model_run_cmd = table.Add(
      *model_cmd, "run", "Run a model (.onnx, built for this host first, or a built module) once",
      [model_run, shapes] {
        return WithShapes(*shapes, model_run->compile.input_shapes,
                          [&] { return RunModelRunCommand(*model_run, std::cout, std::cerr); });
      });
  model_run_cmd->add_option("model", model_run->model, "The .onnx file or module")
      ->required()
      ->check(ReadableFile());
  model_run_cmd
      ->add_option("--target", model_run->target,
                   "What an .onnx model is built for before it runs: llvm (this host), cuda or "
                   "opencl (this machine's GPU of that API)")
      ->capture_default_str();
  model_run_cmd->add_option("--input", model_run->inputs,
                            "NAME=FILE (.pb TensorProto or .npy); inputs not given are random");
  model_run_cmd->add_option("--expect", model_run->expect,
                            "Expected output files, one per output in order");
  model_run_cmd->add_flag("--time", model_run->time, "Print the median latency: median_ms=<ms>");
  model_run_cmd->add_flag("--profile", model_run->profile,
                          "With --time: each kernel's median time, largest first");
  model_run_cmd->add_option("--threads", model_run->threads, "Threads of the runtime's pool")
      ->check(AtLeast(1));
  model_run_cmd
      ->add_option("--rtol", model_run->rtol,
                   "Tolerance relative to the expected output's largest magnitude")
      ->capture_default_str()
      ->check(AtLeast(0));
  add_compile_options(model_run_cmd, model_run->compile);
  auto model_tune = std::make_shared<ModelTuneOptions>();
  CLI::App* model_tune_cmd = table.Add(
      *model_cmd, "tune",
      "Tune a model's kernels on this machine under one trial budget (a task scheduler gives "
      "each batch to the kernel that cuts the model's latency most) and record every trial",
      [model_tune, shapes] {
        return WithShapes(*shapes, model_tune->compile.input_shapes, [&] {
          return UnlessInterrupted(
              RunModelTuneCommand(*model_tune, StopOnInterrupt(), std::cout, std::cerr));
        });
      });
  model_tune_cmd->add_option("model", model_tune->file, "The .onnx file")
      ->required()
      ->check(ReadableFile());
  {
    TuneCommandOptions& t = model_tune->tune;
    AddTuningFlags(model_tune_cmd, t, "Candidates to measure, over all kernels", "weights");
    model_tune_cmd->add_option(
        "--device-key", t.device_key,
        "Device key records are filed under (default: local-<cpu>, -<N>t with --threads)");
    model_tune_cmd->add_flag("!--no-transfer", t.transfer,
                             "Do not warm each kernel's model from records of other shapes");
    model_tune_cmd->add_flag("!--no-progress", t.progress, "No line per batch");
    model_tune_cmd->add_flag("--round-robin", model_tune->round_robin,
                             "Give the kernels batches in turn (the baseline of the scheduler)");
    CLI::Option* layouts_on = model_tune_cmd->add_flag_callback(
        "--layouts", [&model_tune] { model_tune->layouts = driver::LayoutTuning::kOn; },
        "Also tune each conv at every channel block the build may choose, and the transforms "
        "between blocks, so that `model build --db` picks the blocks by measurement (default: "
        "when --trials gives each of those tasks a batch)");
    model_tune_cmd
        ->add_flag_callback(
            "--no-layouts", [&model_tune] { model_tune->layouts = driver::LayoutTuning::kOff; },
            "Tune the convs in the rule's channel blocks only")
        ->excludes(layouts_on);
    model_tune_cmd
        ->add_option("--target", model_tune->tune.target,
                     "llvm (this host), or with --tracker the target of the key's devices")
        ->capture_default_str();
    model_tune_cmd->add_option(
        "--tracker", t.tracker,
        "Tune through a farm: submit a model job to this tracker (HOST:PORT) and watch it");
    model_tune_cmd->add_option("--key", t.key,
                               "Farm mode: the device key of the workers that measure it");
    model_tune_cmd
        ->add_option("--token-file", t.token_file, "Farm mode: file holding the farm's token")
        ->check(ReadableFile());
    model_tune_cmd
        ->add_option("--tls-root-cert", t.tls_root_cert,
                     "Farm mode: CA certificate (PEM) to verify the tracker")
        ->check(ReadableFile());
    model_tune_cmd->add_option("--priority", t.priority, "Farm mode: share of the fleet, 1..100")
        ->capture_default_str()
        ->check(InRange(1, 100));
    model_tune_cmd
        ->add_option("--parallel-tasks", model_tune->parallel_tasks,
                     "Farm mode: kernels tuning at once on the key's workers")
        ->capture_default_str()
        ->check(AtLeast(1));
    model_tune_cmd->add_flag("--detach", t.detach,
                             "Farm mode: print the model job's id and return");
    model_tune_cmd->add_option(
        "-o,--output", model_tune->output,
        "Build the tuned module here, then time it and the untuned build end to end on the tuned "
        "device (this machine, or a worker of --key)");
    model_tune_cmd->add_flag(
        "!--no-race", model_tune->race,
        "With --output: do not race each conv's close rival algorithms (direct, Winograd tiles) "
        "in the model on the tuned device before the build");
    model_tune_cmd
        ->add_option("--race-seconds", model_tune->race_seconds,
                     "With --output: no new rival is raced after this many seconds")
        ->capture_default_str()
        ->check(Above(0, " s"));
  }
  add_compile_options(model_tune_cmd, model_tune->compile);
  auto model_test = std::make_shared<ModelTestOptions>();
  CLI::App* model_test_cmd = table.Add(
      *model_cmd, "test", "Build and run ONNX backend test cases (model.onnx + test_data_set_*)",
      [model_test] { return RunModelTestCommand(*model_test, std::cout, std::cerr); });
  model_test_cmd->add_option("cases", model_test->cases, "Case folders")->required();
  model_test_cmd->add_option("--target", model_test->target, "What the cases are built for")
      ->capture_default_str();
  auto model_quantize = std::make_shared<ModelQuantizeOptions>();
  CLI::App* model_quantize_cmd = table.Add(
      *model_cmd, "quantize",
      "Quantize an ONNX model to int8 (ONNX's QDQ form, which this compiler and ONNX Runtime run "
      "as int8) from the ranges its activations take on calibration inputs",
      [model_quantize, shapes] {
        return WithShapes(*shapes, model_quantize->compile.input_shapes, [&] {
          return RunModelQuantizeCommand(*model_quantize, std::cout, std::cerr);
        });
      });
  model_quantize_cmd->add_option("model", model_quantize->file, "The float .onnx file")
      ->required()
      ->check(ReadableFile());
  model_quantize_cmd->add_option("-o,--output", model_quantize->output, "The QDQ .onnx to write")
      ->required();
  model_quantize_cmd
      ->add_option("--calibrate", model_quantize->calibrate,
                   "Calibration samples, one per value: FILE (.npy or .pb) for a model of one "
                   "input, NAME=FILE,NAME=FILE for several")
      ->required();
  model_quantize_cmd
      ->add_option("--method", model_quantize->method,
                   "minmax (each activation's whole range) or percentile (the range that holds "
                   "--percentile of its values: outliers clipped)")
      ->capture_default_str();
  model_quantize_cmd
      ->add_option("--percentile", model_quantize->percentile,
                   "--method percentile: the share of values each range keeps, in %")
      ->capture_default_str()
      ->check(Above(50, " %"));
  model_quantize_cmd->add_flag("--per-tensor", model_quantize->per_tensor,
                               "One scale per weight instead of one per output channel");
  model_quantize_cmd->add_option("--input-shape", *shapes,
                                 "NAME=D1,D2,...: the shape of an input (batch size, image size)");
}

}  // namespace tunefarm::tools::cli
