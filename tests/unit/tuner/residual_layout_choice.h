// A small layout choice for tests: x -> c1 -> c2, and c2 + c1's output. Two convs (vars 0 and 1,
// blocks 8 or 16, the rule's 16, one stage), their sites 0 and 1, and the add (site 2) that moves
// c1's value into c2's block when they differ. Tasks: 0 c1 in 16, 1 c1 in 8; 2..5 c2 at
// (ic, oc) (16,16), (16,8), (8,8), (8,16); 6 the transform 8->16, 7 the transform 16->8.
#pragma once

#include "tuner/layout_choice.h"

namespace tunefarm::tuner::testing {

inline LayoutChoice ResidualLayoutChoice() {
  LayoutChoice c;
  c.vars = {{16, {8, 16}, 16}, {16, {8, 16}, 16}};
  c.site_required = {true, true, false};
  c.uses = {{0, 0, {{0, 16}}},         {1, 0, {{0, 8}}},         {2, 1, {{0, 16}, {1, 16}}},
            {3, 1, {{0, 16}, {1, 8}}}, {4, 1, {{0, 8}, {1, 8}}}, {5, 1, {{0, 8}, {1, 16}}},
            {6, 2, {{0, 8}, {1, 16}}}, {7, 2, {{0, 16}, {1, 8}}}};
  return c;
}

}  // namespace tunefarm::tuner::testing
