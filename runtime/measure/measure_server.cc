#include "runtime/measure/measure_server.h"

#include <string>

#include "runtime/measure/candidate_measurer.h"
#include "runtime/measure/line_channel.h"
#include "runtime/measure/measure_protocol.h"

namespace tunefarm::runtime::measure {

int ServeMeasureRequests(int in_fd, int out_fd) {
  CandidateMeasurer measurer;
  LineReader reader(in_fd);
  std::string line;
  for (;;) {
    LineReader::Result r = reader.Read(&line, /*timeout_ms=*/-1);
    if (r == LineReader::Result::kEof) return 0;
    if (r != LineReader::Result::kLine) return 1;
    if (line.empty()) continue;
    MeasureResponse response;
    absl::StatusOr<MeasureRequest> request = ParseRequest(line);
    if (request.ok()) {
      response = measurer.Measure(*request);
    } else {
      response.status = ErrorKind::kRuntimeError;
      response.message = std::string(request.status().message());
    }
    if (!WriteLine(out_fd, SerializeResponse(response)).ok()) return 1;
  }
}

}  // namespace tunefarm::runtime::measure
