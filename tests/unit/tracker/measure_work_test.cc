// Artifacts: SHA-256 against the FIPS 180-2 test vectors, and the loader's size limit and
// missing-file errors.
#include "tracker/measure_work.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace tunefarm::tracker {
namespace {

TEST(MeasureWorkTest, Sha256OfKnownVectors) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  std::string million(1000000, 'a');
  EXPECT_EQ(Sha256Hex(million), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

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
  EXPECT_EQ(a->sha256, Sha256Hex("abc"));
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
