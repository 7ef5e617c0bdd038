// Compact JSON for configs, e.g. {"tile_x":[4,16],"order":[0,2,1],"ann":"unroll","pack":1}:
// knobs in definition order, each with its value (not its index), so records stay readable.
#ifndef TUNEFARM_COMPILER_SPACE_CONFIG_JSON_H_
#define TUNEFARM_COMPILER_SPACE_CONFIG_JSON_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "compiler/space/config.h"
#include "compiler/space/config_space.h"

namespace tunefarm::space {

std::string ConfigToJson(const Config& config);

// InvalidArgument for malformed JSON, a non-object, an unknown knob, a missing knob, or a value
// outside its knob's domain; each message names the knob. Constraints are not checked here
// (a stored record may be replayed against a space whose constraints changed): see CheckValid.
absl::StatusOr<Config> ConfigFromJson(const ConfigSpace& space, std::string_view json);

}  // namespace tunefarm::space

#endif  // TUNEFARM_COMPILER_SPACE_CONFIG_JSON_H_
