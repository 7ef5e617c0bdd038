// The default schedules' code for an AArch64 board, read from the built library's disassembly:
// qemu runs it but says nothing about its speed, so the shape a fast kernel has is checked
// instead. The innermost loop that does the multiply-adds uses 4-lane fp32 vectors (fmla
// v.4s), keeps a register tile of accumulators, and spills nothing to the stack.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "tests/cli/tunefarm_binary.h"

#ifndef TUNEFARM_LLVM_OBJDUMP
#define TUNEFARM_LLVM_OBJDUMP ""
#endif

namespace tunefarm {
namespace {

constexpr char kNeon[] = "llvm -mtriple=aarch64-linux-gnu -mattr=+neon";

struct Instruction {
  uint64_t address = 0;
  std::string mnemonic;
  std::string operands;
};

std::vector<Instruction> Disassemble(const std::string& library, std::string* error) {
  const std::string objdump = TUNEFARM_LLVM_OBJDUMP;
  const std::string listing = Scratch("objdump.txt");
  const std::string command =
      objdump + " -d --no-show-raw-insn " + library + " > " + listing + " 2>&1";
  if (std::system(command.c_str()) != 0) {
    *error = "llvm-objdump failed on " + library;
    return {};
  }
  std::vector<Instruction> code;
  std::ifstream in(listing);
  static const std::regex kLine(R"(^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$)");
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (!std::regex_match(line, m, kLine)) continue;
    code.push_back({std::stoull(m[1].str(), nullptr, 16), m[2].str(), m[3].str()});
  }
  return code;
}

// A backward branch's target, or 0 when `i` is not one.
uint64_t BackwardTarget(const Instruction& i) {
  const bool branch = i.mnemonic.rfind("b.", 0) == 0 || i.mnemonic == "b" || i.mnemonic == "cbnz" ||
                      i.mnemonic == "cbz" || i.mnemonic == "tbnz" || i.mnemonic == "tbz";
  if (!branch) return 0;
  static const std::regex kTarget(R"(0x([0-9a-f]+))");
  std::smatch m;
  if (!std::regex_search(i.operands, m, kTarget)) return 0;
  const uint64_t target = std::stoull(m[1].str(), nullptr, 16);
  return target < i.address ? target : 0;
}

struct Loop {
  std::vector<Instruction> body;
  int fmla = 0;
};

// The innermost loop (no backward branch inside it) with the most fmla instructions.
Loop HottestInnerLoop(const std::vector<Instruction>& code) {
  std::vector<std::pair<uint64_t, uint64_t>> loops;  // [target, branch]
  for (const Instruction& i : code) {
    if (uint64_t t = BackwardTarget(i)) loops.push_back({t, i.address});
  }
  Loop best;
  for (const auto& [begin, end] : loops) {
    const bool innermost = std::none_of(loops.begin(), loops.end(), [&](const auto& other) {
      return other.second < end && other.first >= begin && other != std::make_pair(begin, end);
    });
    if (!innermost) continue;
    Loop loop;
    for (const Instruction& i : code) {
      if (i.address < begin || i.address > end) continue;
      loop.body.push_back(i);
      if (i.mnemonic == "fmla") ++loop.fmla;
    }
    if (loop.fmla > best.fmla) best = loop;
  }
  return best;
}

class Aarch64CodeShapeTest : public ::testing::TestWithParam<const char*> {};

TEST_P(Aarch64CodeShapeTest, TheInnerLoopIsFourLaneFmlaOnARegisterTileWithoutSpills) {
  if (access(TUNEFARM_LLVM_OBJDUMP, X_OK) != 0) {
    GTEST_SKIP() << "llvm-objdump is not at '" << TUNEFARM_LLVM_OBJDUMP << "'";
  }
  const std::string workload = GetParam();
  const std::string library = Scratch("a64_" + std::to_string(std::hash<std::string>{}(workload)));
  Outcome built = Tunefarm({"build", "--workload", workload, "--target", kNeon, "-o", library});
  ASSERT_EQ(built.code, 0) << built.output;
  std::string error;
  std::vector<Instruction> code = Disassemble(library, &error);
  ASSERT_FALSE(code.empty()) << error;

  Loop loop = HottestInnerLoop(code);
  ASSERT_GE(loop.fmla, 4) << workload << ": no inner loop of vector multiply-adds";
  std::set<std::string> accumulators;
  std::ostringstream body;
  for (const Instruction& i : loop.body) {
    body << std::hex << i.address << ": " << i.mnemonic << " " << i.operands << "\n";
    if (i.mnemonic == "fmla") {
      EXPECT_NE(i.operands.find(".4s"), std::string::npos) << "not 4 lanes: " << i.operands;
      accumulators.insert(i.operands.substr(0, i.operands.find(',')));
    }
    // A load or store through sp inside the hot loop is a spill.
    const bool memory = i.mnemonic.rfind("ld", 0) == 0 || i.mnemonic.rfind("st", 0) == 0;
    EXPECT_FALSE(memory && i.operands.find("[sp") != std::string::npos)
        << "a spill in the inner loop: " << i.mnemonic << " " << i.operands;
  }
  // A register tile: several independent accumulators hide the multiply-add latency.
  EXPECT_GE(accumulators.size(), 4u) << body.str();
  EXPECT_LE(accumulators.size(), 32u);
}

INSTANTIATE_TEST_SUITE_P(DefaultSchedules, Aarch64CodeShapeTest,
                         ::testing::Values("matmul:256,256,256", "dense:16,768,768",
                                           "conv2d_nchwc:1,64,28,28,64,3,3,1,1"));

}  // namespace
}  // namespace tunefarm
