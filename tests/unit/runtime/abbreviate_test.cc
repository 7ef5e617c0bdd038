// Quoted input in messages stays short, whatever was sent.
#include "runtime/core/abbreviate.h"

#include <gtest/gtest.h>
#include <string>

namespace tunefarm::runtime {
namespace {

TEST(AbbreviateTest, ShortTextIsUnchanged) {
  EXPECT_EQ(Abbreviate("matmul:64,64,64"), "matmul:64,64,64");
  EXPECT_EQ(Abbreviate(std::string(kMaxQuotedBytes, 'a')), std::string(kMaxQuotedBytes, 'a'));
}

TEST(AbbreviateTest, LongTextKeepsItsStartAndSaysHowLongItWas) {
  const std::string key(40 * 1024, 'k');
  const std::string quoted = Abbreviate(key);
  EXPECT_EQ(quoted, std::string(kMaxQuotedBytes, 'k') + "... (40960 bytes)");
  EXPECT_EQ(Abbreviate("abcdef", 3), "abc... (6 bytes)");
}

TEST(AbbreviateTest, NeverCutsACharacterInTwo) {
  // "é" is two bytes: a cut after 2 bytes would leave half of the second one.
  EXPECT_EQ(Abbreviate("aéé", 2), "a... (5 bytes)");
  EXPECT_EQ(Abbreviate("aéé", 3), "aé... (5 bytes)");
}

}  // namespace
}  // namespace tunefarm::runtime
