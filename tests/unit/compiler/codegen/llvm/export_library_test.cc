// ExportLibrary: a host library that runtime::LoadModule loads and runs (checked against the
// interpreter), an AArch64 library that is an ELF shared object for EM_AARCH64 exporting the
// kernel and the ABI symbols, and linker failures that carry the linker's own message.
#include <elf.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <set>
#include <sstream>
#include <unistd.h>

#include "runtime/module.h"
#include "tests/unit/compiler/codegen/llvm/codegen_test_util.h"

namespace tunefarm::codegen {
namespace {

using namespace testing;  // NOLINT
using ::testing::HasSubstr;

std::string ScratchPath(const std::string& name) {
  return ::testing::TempDir() + "/" + std::to_string(getpid()) + "_" + name;
}

// parallel over rows, vector columns: C[i, j] = exp(A[i, j]) * 0.5 + B[j], n symbolic.
ir::PrimFunc RowKernel() {
  ir::Var n("n"), i("i", kI32), j("j", kI32);
  ir::Buffer a("A", kF32, {n, 16}), b("B", kF32, {16}), c("C", kF32, {n, 16});
  ir::Expr lanes = ir::RampNode::Make(i * 16 + j * 8, 1, 8);
  ir::Expr value =
      ir::Call(ir::Intrinsic::kExp, {At(a, lanes)}) * ir::BroadcastNode::Make(0.5f, 8) +
      At(b, ir::RampNode::Make(j * 8, 1, 8));
  ir::Stmt body =
      ir::ForNode::Make(j, 0, 2, ir::ForKind::kSerial, ir::StoreNode::Make(c->data, value, lanes));
  return ir::PrimFunc{"rows", {a, b, c}, ir::ForNode::Make(i, 0, n, ir::ForKind::kParallel, body)};
}

TEST(ExportLibraryTest, AHostLibraryLoadsAndRuns) {
  const std::string path = ScratchPath("rows.so");
  ASSERT_TRUE(ExportLibrary({RowKernel()}, Host(), path).ok());
  absl::StatusOr<std::shared_ptr<runtime::Module>> m = runtime::LoadModule(path);
  ASSERT_TRUE(m.ok()) << m.status();
  absl::StatusOr<runtime::PackedFunction> fn = (*m)->GetFunction("rows");
  ASSERT_TRUE(fn.ok()) << fn.status();
  runtime::NDArray a = MakeArray(kF32, {7, 16}), b = MakeArray(kF32, {16});
  runtime::NDArray c = MakeArray(kF32, {7, 16}), want = MakeArray(kF32, {7, 16});
  Fill(a, 71);
  Fill(b, 72);
  ASSERT_TRUE(fn->Call({&a, &b, &c}).ok());
  ASSERT_TRUE(interp::Run(RowKernel(), {&a, &b, &want}).ok());
  EXPECT_EQ(Mismatch(c, want, 4e-6, 1e-6), "");
  unlink(path.c_str());
}

// Defined dynamic symbols of an ELF64 little-endian shared object, and its header.
struct ElfInfo {
  Elf64_Ehdr header{};
  std::set<std::string> exported;
};

ElfInfo ReadElf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string bytes = buffer.str();
  ElfInfo info;
  EXPECT_GE(bytes.size(), sizeof(Elf64_Ehdr));
  if (bytes.size() < sizeof(Elf64_Ehdr)) return info;
  std::memcpy(&info.header, bytes.data(), sizeof(Elf64_Ehdr));
  auto section = [&](size_t k) {
    Elf64_Shdr s;
    std::memcpy(&s, bytes.data() + info.header.e_shoff + k * info.header.e_shentsize, sizeof(s));
    return s;
  };
  for (size_t k = 0; k < info.header.e_shnum; ++k) {
    Elf64_Shdr dynsym = section(k);
    if (dynsym.sh_type != SHT_DYNSYM) continue;
    Elf64_Shdr strtab = section(dynsym.sh_link);
    for (size_t off = 0; off + sizeof(Elf64_Sym) <= dynsym.sh_size; off += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      std::memcpy(&sym, bytes.data() + dynsym.sh_offset + off, sizeof(sym));
      if (sym.st_shndx == SHN_UNDEF || ELF64_ST_BIND(sym.st_info) != STB_GLOBAL) continue;
      info.exported.insert(std::string(bytes.data() + strtab.sh_offset + sym.st_name));
    }
  }
  return info;
}

TEST(ExportLibraryTest, AnAArch64LibraryIsASharedObjectExportingTheKernel) {
  absl::StatusOr<LlvmTarget> target =
      ParseLlvmTarget("llvm -mtriple=aarch64-linux-gnu -mattr=+neon");
  ASSERT_TRUE(target.ok());
  const std::string path = ScratchPath("rows_aarch64.so");
  absl::Status s = ExportLibrary({RowKernel()}, *target, path);
  ASSERT_TRUE(s.ok()) << s;
  ElfInfo elf = ReadElf(path);
  EXPECT_EQ(std::memcmp(elf.header.e_ident, ELFMAG, SELFMAG), 0);
  EXPECT_EQ(elf.header.e_ident[EI_CLASS], ELFCLASS64);
  EXPECT_EQ(elf.header.e_type, ET_DYN);
  EXPECT_EQ(elf.header.e_machine, EM_AARCH64);
  EXPECT_TRUE(elf.exported.count("rows")) << "dynamic symbols miss the kernel";
  EXPECT_TRUE(elf.exported.count("__tf_manifest"));
  EXPECT_TRUE(elf.exported.count("__tf_parallel_launch"));
  EXPECT_FALSE(elf.exported.count("__tf_body_rows")) << "the body function is internal";
  // This machine cannot load it.
  if (!Host().is_aarch64()) {
    EXPECT_FALSE(runtime::LoadModule(path).ok());
  }
  unlink(path.c_str());
}

TEST(ExportLibraryTest, ALinkerFailureCarriesItsMessage) {
  absl::Status s = ExportLibrary({RowKernel()}, Host(), "/nonexistent-dir/rows.so");
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("ld.lld"));
  EXPECT_THAT(s.message(), HasSubstr("/nonexistent-dir/rows.so"));
  EXPECT_THAT(s.message(), HasSubstr("cannot open output file"));
}

}  // namespace
}  // namespace tunefarm::codegen
