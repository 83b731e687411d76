// SPDX-License-Identifier: MIT
// Internal: a joint's rotation-scale entries as every local-to-model path computes them.
#pragma once

namespace critter::anim::detail {

// The columns of R(q)·S(s) (column vectors) for q = (x, y, z, w), as in glm::mat3_cast: the
// float operations and their order that every path of LocalToModelJob repeats, lane by lane.
struct RotationScale {
  float r00, r01, r02, r10, r11, r12, r20, r21, r22;
  RotationScale(float x, float y, float z, float w, float sx, float sy, float sz) {
    const float xx = x * x, yy = y * y, zz = z * z;
    const float xy = x * y, xz = x * z, yz = y * z;
    const float wx = w * x, wy = w * y, wz = w * z;
    r00 = (1.0f - 2.0f * (yy + zz)) * sx;
    r01 = (2.0f * (xy + wz)) * sx;
    r02 = (2.0f * (xz - wy)) * sx;
    r10 = (2.0f * (xy - wz)) * sy;
    r11 = (1.0f - 2.0f * (xx + zz)) * sy;
    r12 = (2.0f * (yz + wx)) * sy;
    r20 = (2.0f * (xz + wy)) * sz;
    r21 = (2.0f * (yz - wx)) * sz;
    r22 = (1.0f - 2.0f * (xx + yy)) * sz;
  }
};

}  // namespace critter::anim::detail
