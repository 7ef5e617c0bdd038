// The request loop of a measure process: reads request lines, measures each candidate, writes
// one response line per request, until the input ends.
#pragma once

namespace tunefarm::runtime::measure {

// Serves requests from `in_fd` to `out_fd` (neither is closed). A malformed request gets a
// runtime_error response (id 0 when even the id is unreadable) and the loop goes on. Returns 0
// when the input ends, 1 when reading or writing fails.
int ServeMeasureRequests(int in_fd, int out_fd);

}  // namespace tunefarm::runtime::measure
