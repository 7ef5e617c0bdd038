// The measure loop over a real channel: lines in, one response line per request out, malformed
// requests answered rather than fatal, end of input ends the loop; and LineReader's deadline.
#include "runtime/measure/measure_server.h"

#include <cstdio>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

#include "runtime/measure/line_channel.h"
#include "runtime/measure/measure_protocol.h"
#include "tests/unit/runtime/measure/measure_test_kernels.h"

namespace tunefarm::runtime::measure {
namespace {

using ::testing::HasSubstr;

TEST(LineChannelTest, LinesTimeoutAndEof) {
  int fds[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
  LineReader reader(fds[0]);
  std::string line;
  EXPECT_EQ(reader.Read(&line, 20), LineReader::Result::kTimeout);
  ASSERT_TRUE(WriteLine(fds[1], "first").ok());
  ASSERT_EQ(write(fds[1], "sec", 3), 3);
  EXPECT_EQ(reader.Read(&line, 1000), LineReader::Result::kLine);
  EXPECT_EQ(line, "first");
  EXPECT_EQ(reader.Read(&line, 20), LineReader::Result::kTimeout);  // half a line so far
  ASSERT_TRUE(WriteLine(fds[1], "ond").ok());
  EXPECT_EQ(reader.Read(&line, 1000), LineReader::Result::kLine);
  EXPECT_EQ(line, "second");
  close(fds[1]);
  EXPECT_EQ(reader.Read(&line, 1000), LineReader::Result::kEof);
  // Writing to a closed peer is an error, not a SIGPIPE that would end this test binary.
  EXPECT_FALSE(WriteLine(fds[0], "nobody listens").ok());
  close(fds[0]);
}

TEST(MeasureServerTest, ServesRequestsUntilEndOfInput) {
  const std::string library = testing::ScratchLibrary("server");
  ASSERT_EQ(testing::ExportAddKernel(library, "candidate", 1.0f), "");
  int to_server[2], from_server[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, to_server), 0);
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, from_server), 0);
  int served = -1;
  std::thread server([&] { served = ServeMeasureRequests(to_server[1], from_server[1]); });

  MeasureRequest q;
  q.id = 11;
  q.library_path = library;
  q.function_name = "candidate";
  q.reference_library_path = library;  // itself: trivially right
  q.options.repeat = 1;
  q.options.min_repeat_ms = 0;
  ASSERT_TRUE(WriteLine(to_server[0], "{garbage").ok());
  ASSERT_TRUE(WriteLine(to_server[0], SerializeRequest(q)).ok());
  LineReader reader(from_server[0]);
  std::string line;
  ASSERT_EQ(reader.Read(&line, 10000), LineReader::Result::kLine);
  absl::StatusOr<MeasureResponse> bad = ParseResponse(line);
  ASSERT_TRUE(bad.ok()) << bad.status();
  EXPECT_EQ(bad->status, ErrorKind::kRuntimeError);
  EXPECT_THAT(bad->message, HasSubstr("not a JSON object"));
  ASSERT_EQ(reader.Read(&line, 10000), LineReader::Result::kLine);
  absl::StatusOr<MeasureResponse> good = ParseResponse(line);
  ASSERT_TRUE(good.ok()) << good.status();
  EXPECT_EQ(good->id, 11);
  EXPECT_EQ(good->status, ErrorKind::kOk) << good->message;
  EXPECT_EQ(good->repeat_seconds.size(), 1u);

  close(to_server[0]);
  server.join();
  EXPECT_EQ(served, 0);
  for (int fd : {to_server[1], from_server[0], from_server[1]}) close(fd);
  std::remove(library.c_str());
}

}  // namespace
}  // namespace tunefarm::runtime::measure
