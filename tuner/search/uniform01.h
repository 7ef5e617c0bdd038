// Uniform01: a uniform double in [0, 1) from 53 bits of a 64-bit Mersenne twister, the same
// sequence on every standard library (unlike <random>'s distributions), so a seeded search repeats.
#pragma once

#include <random>

namespace tunefarm::tuner {

inline double Uniform01(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

}  // namespace tunefarm::tuner
