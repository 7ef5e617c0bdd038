// OrDefault: the proto3 rule "a zero means the default", for the API's scalar fields. A message
// cannot tell an unset field from one set to zero, so where common.proto and tracker.proto say
// "0: the default", this is how a reader applies it.
#pragma once

namespace tunefarm::proto_mapping {

template <typename T>
T OrDefault(T value, T fallback) {
  return value == T{} ? fallback : value;
}

}  // namespace tunefarm::proto_mapping
