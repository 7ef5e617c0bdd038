// .npy parsing: what NumPy writes (versions 1 and 2, float32 and int64, 0-d) reads back exactly; a
// bad magic, a big-endian or Fortran-order array, a header that runs past the file and a shape
// the file's data does not back are refused with the reason, before anything is allocated.
#include "runtime/npy_file.h"

#include <cstring>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace tunefarm::runtime {
namespace {

using ::testing::HasSubstr;

// A version-1 file with `header` (padded as NumPy pads it) and `data`.
std::string Npy(const std::string& header, const std::string& data, char version = 1) {
  std::string h = header;
  const size_t prefix = version == 1 ? 10 : 12;
  while ((prefix + h.size() + 1) % 64 != 0) h += ' ';
  h += '\n';
  std::string out = "\x93NUMPY";
  out += version;
  out += '\0';
  if (version == 1) {
    out += static_cast<char>(h.size() & 0xff);
    out += static_cast<char>(h.size() >> 8);
  } else {
    for (int i = 0; i < 4; ++i) out += static_cast<char>((h.size() >> (8 * i)) & 0xff);
  }
  return out + h + data;
}

std::string Floats(std::vector<float> v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
}

TEST(NpyFileTest, FloatArraysReadBackExactly) {
  for (char version : {char{1}, char{2}}) {
    absl::StatusOr<NDArray> a =
        ParseNpy(Npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
                     Floats({1, 2, 3, 4, 5, 6.5f}), version),
                 "a.npy");
    ASSERT_TRUE(a.ok()) << a.status();
    EXPECT_EQ(a->shape(), (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(a->dtype().code, kDLFloat);
    EXPECT_FLOAT_EQ(static_cast<const float*>(a->data())[5], 6.5f);
  }
}

TEST(NpyFileTest, IntegersAndScalarsRead) {
  int64_t v[2] = {7, -3};
  absl::StatusOr<NDArray> a =
      ParseNpy(Npy("{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }",
                   std::string(reinterpret_cast<const char*>(v), sizeof(v))),
               "i.npy");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(static_cast<const int64_t*>(a->data())[1], -3);
  absl::StatusOr<NDArray> s = ParseNpy(
      Npy("{'descr': '<f4', 'fortran_order': False, 'shape': (), }", Floats({2})), "s.npy");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->ndim(), 0);
}

TEST(NpyFileTest, MalformedAndHostileFilesAreRefusedWithTheReason) {
  const std::string f32 = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
  struct Case {
    std::string bytes, why;
  } cases[] = {
      {"PK\x03\x04 not numpy", "no \\x93NUMPY magic"},
      {Npy(f32, Floats({1, 2, 3})), "the shape needs 16 bytes of data and the file holds 12"},
      {Npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776, 1099511627776), }",
           Floats({1})),
       "a.npy"},
      {Npy(f32, Floats({1, 2, 3, 4})).substr(0, 30), "the header runs past the file"},
      {Npy("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", Floats({1})),
       "dtype '>f4'"},
      {Npy("{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }", Floats({1})),
       "Fortran order"},
      {Npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, x), }", Floats({1})),
       "a malformed 'shape'"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<NDArray> a = ParseNpy(c.bytes, "a.npy");
    ASSERT_FALSE(a.ok()) << c.why;
    EXPECT_THAT(std::string(a.status().message()), HasSubstr(c.why));
  }
}

}  // namespace
}  // namespace tunefarm::runtime
