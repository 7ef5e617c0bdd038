#include "tracker/measure_work.h"

#include <filesystem>
#include <fstream>
#include <memory>
#include <openssl/evp.h>
#include <system_error>

#include "absl/strings/str_cat.h"

namespace tunefarm::tracker {

absl::StatusOr<Artifact> LoadArtifact(const std::string& path, int64_t max_bytes) {
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) {
    return absl::NotFoundError(absl::StrCat("artifact ", path, " cannot be read: ", ec.message()));
  }
  if (static_cast<int64_t>(size) > max_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "artifact ", path, " is ", size, " bytes, over the limit of ", max_bytes, " bytes"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("artifact ", path, " cannot be opened"));
  auto bytes = std::make_shared<std::string>();
  bytes->resize(size);
  in.read(bytes->data(), static_cast<std::streamsize>(size));
  if (static_cast<uintmax_t>(in.gcount()) != size) {
    return absl::DataLossError(
        absl::StrCat("artifact ", path, ": read ", in.gcount(), " of ", size, " bytes"));
  }
  Artifact artifact;
  artifact.sha256 = Sha256Hex(*bytes);
  artifact.bytes = std::move(bytes);
  artifact.name = std::filesystem::path(path).filename().string();
  return artifact;
}

std::string Sha256Hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (ctx == nullptr || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), bytes.data(), bytes.size()) != 1 ||
      EVP_DigestFinal_ex(ctx.get(), digest, &length) != 1) {
    return "";  // only on allocation failure inside OpenSSL
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(length * 2);
  for (unsigned int i = 0; i < length; ++i) {
    hex.push_back(kHex[digest[i] >> 4]);
    hex.push_back(kHex[digest[i] & 0xf]);
  }
  return hex;
}

}  // namespace tunefarm::tracker
