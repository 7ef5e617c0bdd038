// simulated-device-measure: a measure child for benchmarks of the farm itself. It serves the
// measure protocol (runtime/measure/README.md) but runs nothing: each candidate is answered ok
// after a fixed device time (argv[1] milliseconds), so that 64 "devices" fit on one small
// machine while the tracker's builds, dispatch and records are real. The reported time varies
// with the library's path, so searches see different candidates as different.
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>

#include "runtime/measure/line_channel.h"
#include "runtime/measure/measure_protocol.h"

int main(int argc, char** argv) {
  namespace rm = tunefarm::runtime::measure;
  std::signal(SIGPIPE, SIG_IGN);
  const double device_ms = argc > 1 ? std::atof(argv[1]) : 200;
  rm::LineReader reader(0);
  std::string line;
  for (;;) {
    rm::LineReader::Result r = reader.Read(&line, /*timeout_ms=*/-1);
    if (r == rm::LineReader::Result::kEof) return 0;
    if (r != rm::LineReader::Result::kLine) return 1;
    if (line.empty()) continue;
    rm::MeasureResponse response;
    absl::StatusOr<rm::MeasureRequest> request = rm::ParseRequest(line);
    if (!request.ok()) {
      response.status = rm::ErrorKind::kRuntimeError;
      response.message = std::string(request.status().message());
    } else {
      response.id = request->id;
      if (!request->library_path.empty()) {
        std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(device_ms));
        const double scale =
            1 + static_cast<double>(std::hash<std::string>{}(request->library_path) % 1000) / 1000;
        const int repeat = std::max(request->options.repeat, 1);
        response.repeat_seconds.assign(repeat, 1e-4 * scale);
      }
    }
    if (!rm::WriteLine(1, rm::SerializeResponse(response)).ok()) return 1;
  }
}
