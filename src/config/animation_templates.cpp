// SPDX-License-Identifier: MIT
// The built-in animation templates of specs/animation-config.md §5, as data. Their mask bones are
// optional (a model without a Neck still uses FourLegged); bind warns about the missing ones.
#include <array>
#include <string_view>
#include <vector>

#include "critter/config/animation_config.h"
#include "critter/core/strings.h"

namespace critter::config {
namespace {

TemplateLayer layer(std::string_view name, int index,
                    LayerBlendMode mode = LayerBlendMode::kOverride,
                    std::vector<std::string> mask = {}) {
  TemplateLayer l;
  l.name = name;
  l.index = index;
  l.blend_mode = mode;
  l.bone_mask = std::move(mask);
  return l;
}

AnimationTemplate make(std::string_view name, std::vector<TemplateLayer> layers) {
  AnimationTemplate t;
  t.name = name;
  t.layers = std::move(layers);
  t.built_in = true;
  return t;
}

// Base; Head over Head and Neck; Death: the layout FourLegged, Bird and FlightlessBird share.
std::vector<TemplateLayer> head_and_death() {
  return {layer("Base", 0), layer("Head", 1, LayerBlendMode::kOverride, {"Head", "Neck"}),
          layer("Death", 2)};
}

const std::array<AnimationTemplate, 6>& builtins() {
  static const std::array<AnimationTemplate, 6> templates = {
      make("Simple", {layer("Base", 0)}),
      make("FourLegged", head_and_death()),
      make("Human",
           {layer("Base", 0), layer("Activity", 1, LayerBlendMode::kAdditive, {"Hand1", "Hand2"}),
            layer("Ride", 2), layer("Death", 3)}),
      make("Bird", head_and_death()),
      make("FlightlessBird", head_and_death()),
      make("Fish", {layer("Base", 0), layer("Head", 1, LayerBlendMode::kOverride, {"Jaw"}),
                    layer("Death", 2)}),
  };
  return templates;
}

}  // namespace

const AnimationTemplate* find_builtin_template(std::string_view name) {
  for (const AnimationTemplate& t : builtins()) {
    if (iequals(t.name, name)) return &t;
  }
  return nullptr;
}

std::vector<std::string_view> builtin_template_names() {
  std::vector<std::string_view> names;
  for (const AnimationTemplate& t : builtins()) names.push_back(t.name);
  return names;
}

}  // namespace critter::config
