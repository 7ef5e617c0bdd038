#include "runtime/core/library_loader.h"

#include <dlfcn.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <link.h>

#include "tests/testing/files.h"

namespace tunefarm::runtime {
namespace {

using ::testing::HasSubstr;

// Whether the dynamic linker still has `path` loaded.
bool IsLoaded(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (handle == nullptr) return false;
  dlclose(handle);
  return true;
}

std::string OpenError(const std::string& path, LoadErrorKind expected_kind) {
  std::string error;
  LoadErrorKind kind = LoadErrorKind::kNone;
  EXPECT_EQ(LoadedLibrary::Open(path, &error, &kind), nullptr) << path;
  EXPECT_EQ(kind, expected_kind) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  return error;
}

TEST(LibraryLoaderTest, OpensAGoodLibraryAndWiresItsParallelLoops) {
  const std::string path = TF_TEST_KERNELS_GOOD_PATH;
  std::string error;
  std::unique_ptr<LoadedLibrary> library = LoadedLibrary::Open(path, &error);
  ASSERT_NE(library, nullptr) << error;
  EXPECT_EQ(library->path(), path);
  ASSERT_EQ(library->kernels().size(), 2u);
  EXPECT_EQ(library->kernels()[0].signature.name, "tf_test_add_one");
  EXPECT_EQ(library->kernels()[0].signature.args.size(), 3u);
  const LoadedKernel* fail = library->Find("tf_test_fail");
  ASSERT_NE(fail, nullptr);
  EXPECT_EQ(library->Find("tf_test_absent"), nullptr);
  TFValue code{.v_int64 = 7};
  int32_t type = kTFArgInt;
  EXPECT_EQ(fail->entry(&code, &type, 1), 7);

  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(handle, nullptr);
  auto* launch = static_cast<TFParallelLaunchFunc*>(dlsym(handle, TF_PARALLEL_LAUNCH_SYMBOL));
  ASSERT_NE(launch, nullptr);
  EXPECT_EQ(*launch, &TFBackendParallelLaunch);
  dlclose(handle);

  library.reset();
  EXPECT_FALSE(IsLoaded(path)) << "destroying the library must dlclose it";
}

TEST(LibraryLoaderTest, MissingFile) {
  EXPECT_EQ(OpenError("/no/such/dir/lib.so", LoadErrorKind::kFileNotFound),
            "cannot load '/no/such/dir/lib.so': No such file or directory");
  // A bare name is a file in the working directory, never a search of the library path.
  EXPECT_THAT(OpenError("libm.so.6", LoadErrorKind::kFileNotFound),
              HasSubstr("cannot load 'libm.so.6'"));
}

TEST(LibraryLoaderTest, NotASharedLibrary) {
  std::string path = fixtures::WriteTempFile("not_a_library.so", "just text\n");
  std::string error = OpenError(path, LoadErrorKind::kNotLoadable);
  EXPECT_THAT(error, HasSubstr("cannot load '" + path + "': "));
  EXPECT_THAT(error, HasSubstr("not_a_library.so"));  // dlerror's own text follows
}

TEST(LibraryLoaderTest, ALibraryWithoutManifestIsNotATunefarmLibrary) {
  void* libm = dlopen("libm.so.6", RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(libm, nullptr);
  link_map* map = nullptr;
  ASSERT_EQ(dlinfo(libm, RTLD_DI_LINKMAP, &map), 0);
  std::string path = map->l_name;
  dlclose(libm);
  EXPECT_EQ(OpenError(path, LoadErrorKind::kNotTunefarmLibrary),
            "'" + path + "' is not a tunefarm library: it defines no __tf_manifest symbol");
}

TEST(LibraryLoaderTest, ManifestWithoutLaunchSymbol) {
  EXPECT_THAT(OpenError(TF_TEST_KERNELS_NO_LAUNCH_PATH, LoadErrorKind::kNotTunefarmLibrary),
              HasSubstr("defines __tf_manifest but no __tf_parallel_launch symbol"));
}

TEST(LibraryLoaderTest, BadManifest) {
  EXPECT_THAT(OpenError(TF_TEST_KERNELS_BAD_MANIFEST_PATH, LoadErrorKind::kBadManifest),
              HasSubstr("manifest line 1: unsupported manifest version 2"));
}

TEST(LibraryLoaderTest, ManifestNamesAMissingKernel) {
  const std::string path = TF_TEST_KERNELS_MISSING_KERNEL_PATH;
  EXPECT_EQ(OpenError(path, LoadErrorKind::kMissingKernel),
            "'" + path +
                "': the manifest names kernel 'tf_test_absent', which the library does "
                "not define");
  EXPECT_FALSE(IsLoaded(path)) << "a failed open must not leave the library loaded";
}

}  // namespace
}  // namespace tunefarm::runtime
