// SPDX-License-Identifier: MIT
#include "critter/anim/local_to_model_job.h"
#include "critter/core/cpu_features.h"

#include <algorithm>
#include <string>

#include "anim/flush_denormals.h"
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
  return m == kIdentityMatrix;
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

// One SoaTransform block as sixteen Transforms' floats, the two floats after them written too
// (the last four-float store of the SSE2 transposes). A pass reads what a chunk of blocks holds
// once they are all converted: its loads then rarely wait for the stores just made.
constexpr std::size_t kSoaBlockFloats = SoaTransform::kLanes * detail::kLocalFloats;
constexpr std::size_t kSoaChunkBlocks = 8;
static_assert(SoaTransform::kLanes == 16 && sizeof(SoaTransform) == 160 * sizeof(float),
              "local_to_model_avx512_soa reads blocks of sixteen lanes, ten rows");

void soa_block_to_transforms(const SoaTransform& in, float* out) {
  const float* rows = &in.translation[0][0];
  constexpr std::size_t kLanes = SoaTransform::kLanes, kFloats = detail::kLocalFloats;
#if defined(__SSE2__)
  // Per four lanes, rows 8-9 (and two of zeros), 4-7 and 0-3 transposed to the four joints'
  // floats, in that order: the zeros land on the next joint's first two floats, written after.
  for (std::size_t lane = 0; lane < kLanes; lane += 4) {
    const float* r = rows + lane;
    float* o = out + lane * kFloats;
    __m128 a = _mm_load_ps(r + 8 * kLanes), b = _mm_load_ps(r + 9 * kLanes);
    __m128 c = _mm_setzero_ps(), d = _mm_setzero_ps();
    _MM_TRANSPOSE4_PS(a, b, c, d);
    _mm_storeu_ps(o + 8, a);
    _mm_storeu_ps(o + kFloats + 8, b);
    _mm_storeu_ps(o + 2 * kFloats + 8, c);
    _mm_storeu_ps(o + 3 * kFloats + 8, d);
    for (std::size_t row = 4;; row -= 4) {
      a = _mm_load_ps(r + row * kLanes);
      b = _mm_load_ps(r + (row + 1) * kLanes);
      c = _mm_load_ps(r + (row + 2) * kLanes);
      d = _mm_load_ps(r + (row + 3) * kLanes);
      _MM_TRANSPOSE4_PS(a, b, c, d);
      _mm_storeu_ps(o + row, a);
      _mm_storeu_ps(o + kFloats + row, b);
      _mm_storeu_ps(o + 2 * kFloats + row, c);
      _mm_storeu_ps(o + 3 * kFloats + row, d);
      if (row == 0) break;
    }
  }
#else
  for (std::size_t lane = 0; lane < kLanes; ++lane)
    for (std::size_t r = 0; r < 10; ++r) out[lane * kFloats + r] = rows[r * kLanes + lane];
#endif
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
  if (!soa_input.empty() && (soa_input.size() != soa_blocks(n) || !input.empty()))
    return job_error("soa_input", "structure-of-arrays input has " +
                                      std::to_string(soa_input.size()) + " blocks and input " +
                                      std::to_string(input.size()) + " transforms, " +
                                      std::to_string(n) + " parents need " +
                                      std::to_string(soa_blocks(n)) + " blocks and none");
  if (soa_input.empty() && input.size() != n)
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
  const bool soa = !soa_input.empty();
  if ((soa ? soa_input.size() != soa_blocks(n) || !input.empty() : input.size() != n) ||
      output.size() != n || !uncorrected || !finite_matrix(root) ||
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
  const detail::FlushDenormals no_denormals;
  using Pass = void (*)(const std::int16_t*, std::size_t, std::size_t, const float*, const float*,
                        const float*, float*);
  Pass pass = detail::local_to_model_scalar;
#if defined(__x86_64__) && defined(__GNUC__)
  if (use == LocalToModelPath::kAvx512) pass = detail::local_to_model_avx512;
  if (use == LocalToModelPath::kAvx2) pass = detail::local_to_model_avx2;
  if (use == LocalToModelPath::kSse2) pass = detail::local_to_model_sse2;
#endif
  if (!soa) {
    pass(up, 0, n, local, top, correction, model);
    return {};
  }
#if defined(__x86_64__) && defined(__GNUC__)
  if (use == LocalToModelPath::kAvx512) {
    detail::local_to_model_avx512_soa(up, n, &soa_input.data()->translation[0][0], top, correction,
                                      model);
    return {};
  }
  if (use == LocalToModelPath::kAvx2) {
    detail::local_to_model_avx2_soa(up, n, &soa_input.data()->translation[0][0], top, correction,
                                    model);
    return {};
  }
#endif
  // The SSE2 and scalar paths: kSoaChunkBlocks blocks at a time turned into Transforms, then
  // the pass over their joints.
  alignas(16) float chunk[kSoaChunkBlocks * kSoaBlockFloats + 2];
  for (std::size_t b = 0; b < soa_input.size(); b += kSoaChunkBlocks) {
    const std::size_t blocks = std::min(kSoaChunkBlocks, soa_input.size() - b);
    for (std::size_t k = 0; k < blocks; ++k)
      soa_block_to_transforms(soa_input[b + k], chunk + k * kSoaBlockFloats);
    const std::size_t first = b * SoaTransform::kLanes;
    pass(up, first, std::min(n, first + blocks * SoaTransform::kLanes), chunk, top, correction,
         model);
  }
  return {};
}

}  // namespace critter::anim
