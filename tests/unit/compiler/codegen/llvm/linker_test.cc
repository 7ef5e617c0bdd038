// LinkSharedLibrary: lld linking in this process writes the same library as the ld.lld child
// process, the library loads and runs, links from several threads at once all succeed, and a bad
// input is reported with the linker's own diagnostics either way.
#include "compiler/codegen/llvm/linker.h"

#include <csignal>
#include <dlfcn.h>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <sstream>
#include <thread>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/llvm_target_machine.h"
#include "compiler/codegen/llvm/object_emitter.h"
#include "tests/unit/compiler/codegen/llvm/codegen_test_util.h"

namespace tunefarm::codegen {
namespace {

using ::testing::HasSubstr;

std::string LinkerScratchPath(const std::string& name) {
  return ::testing::TempDir() + "/linker_" + std::to_string(getpid()) + "_" + name;
}

std::string ReadLinkedBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// An object file of one exported function, `int32_t NAME(int32_t x)` returning x * 3 + 7.
std::string WriteObject(const std::string& name) {
  llvm::LLVMContext context;
  llvm::Module module(name, context);
  absl::StatusOr<llvm::TargetMachine*> tm = ThreadTargetMachine(testing::Host());
  EXPECT_TRUE(tm.ok()) << tm.status();
  if (!tm.ok()) return "";
  module.setDataLayout((*tm)->createDataLayout());
  module.setTargetTriple((*tm)->getTargetTriple().str());
  llvm::IRBuilder<> b(context);
  llvm::Function* fn =
      llvm::Function::Create(llvm::FunctionType::get(b.getInt32Ty(), {b.getInt32Ty()}, false),
                             llvm::Function::ExternalLinkage, name, module);
  b.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", fn));
  b.CreateRet(b.CreateAdd(b.CreateMul(fn->getArg(0), b.getInt32(3)), b.getInt32(7)));
  absl::StatusOr<std::unique_ptr<llvm::MemoryBuffer>> object = EmitObject(module, **tm);
  EXPECT_TRUE(object.ok()) << object.status();
  if (!object.ok()) return "";
  const std::string path = LinkerScratchPath(name + ".o");
  std::ofstream(path, std::ios::binary)
      .write((*object)->getBufferStart(), static_cast<std::streamsize>((*object)->getBufferSize()));
  return path;
}

int CallLoaded(const std::string& library, const std::string& name, int x) {
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  EXPECT_NE(handle, nullptr) << dlerror();
  if (handle == nullptr) return -1;
  auto* fn = reinterpret_cast<int32_t (*)(int32_t)>(dlsym(handle, name.c_str()));
  EXPECT_NE(fn, nullptr) << name;
  int result = fn != nullptr ? fn(x) : -1;
  dlclose(handle);
  return result;
}

TEST(LinkerTest, InThisProcessWritesTheSameLibraryAsTheChildLinkerAndItRuns) {
  const std::string object = WriteObject("times_three_plus_seven");
  ASSERT_FALSE(object.empty());
  const std::string here = LinkerScratchPath("here.so"), child = LinkerScratchPath("child.so");
  const std::string log = LinkerScratchPath("link.log");
  ASSERT_TRUE(LinkSharedLibrary({object}, here, log).ok());
  ASSERT_TRUE(LinkSharedLibraryInChildProcess({object}, child, log).ok());
  const std::string here_bytes = ReadLinkedBytes(here);
  EXPECT_GT(here_bytes.size(), 0u);
  EXPECT_TRUE(here_bytes == ReadLinkedBytes(child))
      << "lld is deterministic: the same arguments and "
         "objects give the same library";
  EXPECT_EQ(CallLoaded(here, "times_three_plus_seven", 5), 22);
  for (const std::string& p : {object, here, child, log}) unlink(p.c_str());
}

// lld keeps its state in globals; the linker takes one link at a time, so builder threads that
// export at once each get their own, correct library. Each thread keeps its own alternate signal
// stack (LLVM's signal handlers, installed by the first link, bring one of their own; a
// sanitizer aborts at a thread's exit when its stack was swapped).
TEST(LinkerTest, LinksFromSeveralThreadsAtOnceEachWriteTheirOwnLibrary) {
  const std::string object = WriteObject("linked_from_threads");
  ASSERT_FALSE(object.empty());
  constexpr int kThreads = 4, kLinksEach = 5;
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      stack_t before{}, after{};
      sigaltstack(nullptr, &before);
      for (int k = 0; k < kLinksEach; ++k) {
        const std::string out = LinkerScratchPath(absl::StrCat("thread", t, "_", k, ".so"));
        absl::Status s = LinkSharedLibrary({object}, out, out + ".log");
        if (!s.ok()) failures[t] = std::string(s.message());
      }
      sigaltstack(nullptr, &after);
      if (after.ss_sp != before.ss_sp || after.ss_size != before.ss_size) {
        failures[t] = "the thread's alternate signal stack was replaced";
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], "") << "thread " << t;
  for (int t = 0; t < kThreads; ++t) {
    for (int k = 0; k < kLinksEach; ++k) {
      const std::string out = LinkerScratchPath(absl::StrCat("thread", t, "_", k, ".so"));
      EXPECT_EQ(CallLoaded(out, "linked_from_threads", 1), 10) << out;
      unlink(out.c_str());
    }
  }
  unlink(object.c_str());
}

TEST(LinkerTest, AFailureCarriesTheLinkersMessageInThisProcessAndAsAChild) {
  const std::string object = LinkerScratchPath("not_an_object.o");
  std::ofstream(object) << "this is not ELF";
  const std::string never = LinkerScratchPath("never.so"), log = LinkerScratchPath("link.log");
  absl::Status here = LinkSharedLibrary({object}, never, log);
  ASSERT_FALSE(here.ok());
  EXPECT_THAT(here.message(), HasSubstr("linking " + never + " failed (lld in this process"));
  EXPECT_THAT(here.message(), HasSubstr("exit status 1"));
  EXPECT_THAT(here.message(), HasSubstr(object));  // lld names the file it could not read
  absl::Status child = LinkSharedLibraryInChildProcess({object}, never, log);
  ASSERT_FALSE(child.ok());
  EXPECT_THAT(child.message(), HasSubstr("linking " + never + " failed (" TUNEFARM_LLD_PROGRAM));
  EXPECT_THAT(child.message(), HasSubstr("exit status 1"));
  EXPECT_THAT(child.message(), HasSubstr(object));
  // A failed link leaves lld able to link again in this process.
  const std::string good = WriteObject("after_a_failure");
  const std::string out = LinkerScratchPath("after_a_failure.so");
  ASSERT_TRUE(LinkSharedLibrary({good}, out, log).ok());
  EXPECT_EQ(CallLoaded(out, "after_a_failure", 0), 7);
  for (const std::string& p : {object, log, good, out}) unlink(p.c_str());
}

}  // namespace
}  // namespace tunefarm::codegen
