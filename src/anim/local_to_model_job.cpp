// SPDX-License-Identifier: MIT
#include "critter/anim/local_to_model_job.h"
#include "critter/core/cpu_features.h"

#include <string>

#include "anim/ltm_kernels.h"

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace critter::anim {

namespace {

Status job_error(std::string location, std::string message) {
  return fail(
      Error::at(ErrorCode::kUsage, "LocalToModelJob", std::move(location), std::move(message)));
}

// all_finite(m), inline: validate() runs every frame and the matrices are usually small work
// next to it. With SSE2, x − x is 0 for a finite x and NaN otherwise, for four floats at once.
bool finite_matrix(const mat4& m) {
#if defined(__SSE2__)
  __m128 bad = _mm_setzero_ps();
  for (int c = 0; c < 4; ++c) {
    const __m128 x = _mm_loadu_ps(&m[c][0]);
    bad = _mm_or_ps(bad, _mm_cmpneq_ps(_mm_sub_ps(x, x), _mm_setzero_ps()));
  }
  return _mm_movemask_ps(bad) == 0;
#else
  return all_finite(m);
#endif
}

// m == identity (value comparison, as glm's operator==).
bool identity_matrix(const mat4& m) {
#if defined(__SSE2__)
  __m128 same = _mm_cmpeq_ps(_mm_loadu_ps(&m[0][0]), _mm_setr_ps(1.0f, 0.0f, 0.0f, 0.0f));
  same =
      _mm_and_ps(same, _mm_cmpeq_ps(_mm_loadu_ps(&m[1][0]), _mm_setr_ps(0.0f, 1.0f, 0.0f, 0.0f)));
  same =
      _mm_and_ps(same, _mm_cmpeq_ps(_mm_loadu_ps(&m[2][0]), _mm_setr_ps(0.0f, 0.0f, 1.0f, 0.0f)));
  same =
      _mm_and_ps(same, _mm_cmpeq_ps(_mm_loadu_ps(&m[3][0]), _mm_setr_ps(0.0f, 0.0f, 0.0f, 1.0f)));
  return _mm_movemask_ps(same) == 0xF;
#else
  return m == mat4(1.0f);
#endif
}

// Index of the first joint whose parent is neither -1 nor below it; n when there is none. With
// SSE2, eight parents per comparison: the scalar scan only runs to name a broken entry.
std::size_t first_misordered(const std::int16_t* parents, std::size_t n) {
  std::size_t i = 0;
#if defined(__SSE2__)
  __m128i index = _mm_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7);
  const __m128i eight = _mm_set1_epi16(8), minus_two = _mm_set1_epi16(-2);
  for (; i + 8 <= n; i += 8) {
    const __m128i p = _mm_loadu_si128(reinterpret_cast<const __m128i*>(parents + i));
    const __m128i ok = _mm_and_si128(_mm_cmplt_epi16(p, index), _mm_cmpgt_epi16(p, minus_two));
    if (_mm_movemask_epi8(ok) != 0xFFFF) break;
    index = _mm_add_epi16(index, eight);
  }
#endif
  for (; i < n; ++i) {
    const int p = parents[i];
    if (p < -1 || p >= static_cast<int>(i)) return i;
  }
  return n;
}

constexpr bool kX86 =
#if defined(__x86_64__) && defined(__GNUC__)
    true;
#else
    false;
#endif

}  // namespace

bool local_to_model_path_available(LocalToModelPath path) {
  switch (path) {
    case LocalToModelPath::kAuto:
    case LocalToModelPath::kScalar:
      return true;
    case LocalToModelPath::kSse2:
      return kX86;
    case LocalToModelPath::kAvx2:
      return kX86 && cpu_has_avx2_fma();
    case LocalToModelPath::kAvx512:
      return kX86 && cpu_has_avx512();
  }
  return false;
}

Status LocalToModelJob::validate() const {
  const std::span<const std::int16_t> order = skeleton != nullptr ? skeleton->parents() : parents;
  const std::size_t n = order.size();
  if (input.size() != n)
    return job_error("input", "input has " + std::to_string(input.size()) + " transforms, " +
                                  std::to_string(n) + " parents given");
  if (output.size() != n)
    return job_error("output", "output has " + std::to_string(output.size()) + " matrices, " +
                                   std::to_string(n) + " parents given");
  if (skeleton == nullptr) {
    if (const std::size_t i = first_misordered(order.data(), n); i < n) {
      const int p = order[i];
      return job_error("parents/" + std::to_string(i),
                       "parent " + std::to_string(p) + " is not -1 and not below joint " +
                           std::to_string(i) + " (parents-first order)");
    }
  }
  if (!finite_matrix(root)) return job_error("root", "root matrix is not finite");
  if (!finite_matrix(root_correction))
    return job_error("root_correction", "root correction matrix is not finite");
  if (root_correction[0][3] != 0.0f || root_correction[1][3] != 0.0f ||
      root_correction[2][3] != 0.0f || root_correction[3][3] != 1.0f)
    return job_error("root_correction", "root correction matrix is not affine");
  if (!local_to_model_path_available(path))
    return job_error("path", "path " + std::to_string(static_cast<int>(path)) +
                                 " cannot run on this CPU or build");
  return {};
}

Status LocalToModelJob::run() const {
  const std::span<const std::int16_t> order = skeleton != nullptr ? skeleton->parents() : parents;
  const std::size_t n = order.size();
  // The usual job (sizes that match, parents in order, a finite root, no correction, the
  // automatic path) passes these checks without calling validate(), whose message-building
  // paths make it cost more than a small skeleton's whole pass.
  const bool uncorrected = identity_matrix(root_correction);
  if (input.size() != n || output.size() != n || !uncorrected || !finite_matrix(root) ||
      (skeleton == nullptr && first_misordered(order.data(), n) < n) ||
      (path != LocalToModelPath::kAuto && !local_to_model_path_available(path))) {
    if (auto ok = validate(); !ok) return ok;
  }
  static_assert(sizeof(Transform) == detail::kLocalFloats * sizeof(float));
  const std::int16_t* up = order.data();
  const auto* local = reinterpret_cast<const float*>(input.data());
  auto* model = reinterpret_cast<float*>(output.data());
  const float* top = &root[0][0];
  const float* correction = uncorrected ? nullptr : &root_correction[0][0];
  // The fastest path this CPU runs, decided once.
  static const LocalToModelPath fastest = !kX86                ? LocalToModelPath::kScalar
                                          : cpu_has_avx512()   ? LocalToModelPath::kAvx512
                                          : cpu_has_avx2_fma() ? LocalToModelPath::kAvx2
                                                               : LocalToModelPath::kSse2;
  const LocalToModelPath use = path == LocalToModelPath::kAuto ? fastest : path;
  switch (use) {
#if defined(__x86_64__) && defined(__GNUC__)
    case LocalToModelPath::kAvx512:
      detail::local_to_model_avx512(up, n, local, top, correction, model);
      break;
    case LocalToModelPath::kAvx2:
      detail::local_to_model_avx2(up, n, local, top, correction, model);
      break;
    case LocalToModelPath::kSse2:
      detail::local_to_model_sse2(up, n, local, top, correction, model);
      break;
#endif
    default:
      detail::local_to_model_scalar(up, n, local, top, correction, model);
      break;
  }
  return {};
}

}  // namespace critter::anim
