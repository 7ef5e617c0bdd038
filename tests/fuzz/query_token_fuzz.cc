// The dashboard's `?token=` reader over any request target a client can send: it never returns
// more bytes than it was given, and what it read, sent again fully %XX-encoded, reads back the
// same.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "tracker/http/query_token.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string target(reinterpret_cast<const char*>(data), size);
  const std::string token = tunefarm::tracker::QueryTokenOf(target);
  if (token.size() > target.size()) std::abort();
  std::string encoded = "/?token=";
  static const char kHex[] = "0123456789ABCDEF";
  for (unsigned char c : token) {
    encoded += '%';
    encoded += kHex[c >> 4];
    encoded += kHex[c & 15];
  }
  if (tunefarm::tracker::QueryTokenOf(encoded) != token) std::abort();
  return 0;
}
