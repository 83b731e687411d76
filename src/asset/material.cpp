// SPDX-License-Identifier: MIT
#include "critter/asset/material.h"

namespace critter {

RenderMode Material::render_mode() const {
  switch (alpha_mode) {
    case AlphaMode::kOpaque:
      return RenderMode::kSolid;
    case AlphaMode::kMask:
      return RenderMode::kAlphaThreshold;
    case AlphaMode::kBlend:
      return RenderMode::kTransparentBeforeWater;
  }
  return RenderMode::kSolid;
}

}  // namespace critter
