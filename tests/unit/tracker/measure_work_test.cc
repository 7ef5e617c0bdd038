// Artifacts: the loader's hash, size limit and missing-file errors.
#include "tracker/measure_work.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

#include "runtime/measure/sha256.h"

namespace tunefarm::tracker {
namespace {

std::string WriteFile(const std::string& name, const std::string& bytes) {
  std::filesystem::path path = std::filesystem::path(::testing::TempDir()) / name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path.string();
}

TEST(MeasureWorkTest, LoadsAndHashesAFile) {
  std::string path = WriteFile("tf_artifact_abc.so", "abc");
  absl::StatusOr<Artifact> a = LoadArtifact(path, 3);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(*a->bytes, "abc");
  EXPECT_EQ(a->sha256, runtime::measure::Sha256Hex("abc"));
  EXPECT_EQ(a->name, "tf_artifact_abc.so");
}

TEST(MeasureWorkTest, AnOversizedFileNamesItsSizeAndTheLimit) {
  std::string path = WriteFile("tf_artifact_big.so", std::string(100, 'x'));
  absl::StatusOr<Artifact> a = LoadArtifact(path, 99);
  ASSERT_EQ(a.status().code(), absl::StatusCode::kResourceExhausted);
  std::string message(a.status().message());
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("100"), std::string::npos) << message;
  EXPECT_NE(message.find("99"), std::string::npos) << message;
}

TEST(MeasureWorkTest, AMissingFileIsNotFound) {
  absl::StatusOr<Artifact> a = LoadArtifact("/nonexistent/tf/lib.so", 1 << 20);
  ASSERT_EQ(a.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(a.status().message().find("/nonexistent/tf/lib.so"), std::string::npos);
}

}  // namespace
}  // namespace tunefarm::tracker
