// TF_CHECK: aborts on a programmer error (a broken invariant), never on user input.
#pragma once

#include <sstream>
#include <string>

namespace tunefarm {

// Collects the message of a failed check and aborts when it goes out of scope.
class CheckFailure {
 public:
  CheckFailure(const char* file, int line, const char* condition);
  [[noreturn]] ~CheckFailure();
  template <typename T>
  CheckFailure& operator<<(const T& value) {
    stream_ << value;
    return *this;
  }

 private:
  std::ostringstream stream_;
};

// Lets `TF_CHECK(c) << msg` be a single expression that evaluates msg only on failure.
struct CheckVoidify {
  void operator&(CheckFailure&) {}
};

}  // namespace tunefarm

#define TF_CHECK(cond) \
  (cond) ? (void)0     \
         : ::tunefarm::CheckVoidify() & ::tunefarm::CheckFailure(__FILE__, __LINE__, #cond)

// The loop tells the compiler that control never goes on, where its analysis loses sight of the
// [[noreturn]] destructor (several sources compiled as one, in the unity build).
#define TF_UNREACHABLE() \
  while (true) ::tunefarm::CheckFailure(__FILE__, __LINE__, "unreachable")
