// SPDX-License-Identifier: MIT
// The scalar reference pass of LocalToModelJob, which the SIMD paths are tested against.
#include "anim/ltm_kernels.h"
#include "anim/ltm_rotation_scale.h"

// Separate multiplies and adds (see ltm_avx512.cpp): contracted into fused multiply-adds on a
// CPU that has them, the reference would round differently from the SIMD paths.
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

namespace critter::anim::detail {

namespace {

// out = p · m for a column-major p and an affine m given by its weights (m's column j has entries
// w[j][0..2], and column 3 adds p's column 3): out column j = (p0·w[j][0] + p1·w[j][1]) +
// p2·w[j][2], the order of every SIMD path.
void multiply(const float* p, const float (&w)[4][3], float* out) {
  for (int j = 0; j < 4; ++j)
    for (int r = 0; r < 4; ++r)
      out[4 * j + r] = p[r] * w[j][0] + p[4 + r] * w[j][1] + p[8 + r] * w[j][2];
  for (int r = 0; r < 4; ++r) out[12 + r] = out[12 + r] + p[12 + r];
}

}  // namespace

void local_to_model_scalar(const std::int16_t* parents, std::size_t first, std::size_t last,
                           const float* local, const float* root, const float* correction,
                           float* model) {
  float corrected[4][3] = {};
  if (correction != nullptr)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 3; ++k) corrected[j][k] = correction[4 * j + k];
  for (std::size_t i = first; i < last; ++i) {
    const float* x = local + (i - first) * kLocalFloats;
    const RotationScale m(x[3], x[4], x[5], x[6], x[7], x[8], x[9]);
    const float weights[4][3] = {
        {m.r00, m.r01, m.r02}, {m.r10, m.r11, m.r12}, {m.r20, m.r21, m.r22}, {x[0], x[1], x[2]}};
    const int p = parents[i];
    float* out = model + i * 16;
    if (p < 0 && correction != nullptr) {
      float uncorrected[16];
      multiply(root, weights, uncorrected);
      multiply(uncorrected, corrected, out);
    } else {
      multiply(p < 0 ? root : model + static_cast<std::size_t>(p) * 16, weights, out);
    }
  }
}

}  // namespace critter::anim::detail
