// SPDX-License-Identifier: MIT
// The finite-key check of Clip::from_parts (every baked clip runs it as it loads): a NaN or an
// infinity anywhere among the key times or values is refused, wherever it falls against the
// vector paths' steps, and every finite float (the largest, denormals, negative zero) passes.
// The AVX2 and AVX-512 paths equal a scalar maximum on random bits of every length up to 100;
// so do their copying forms (the .crit reader's one pass), and the compact clips' key-frame
// count (falls counted over a whole array) equals a scalar count.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <span>
#include <vector>

#include "asset/clip_load_simd.h"
#include "core/finite_floats.h"
#include "critter/asset/clip.h"
#include "critter/asset/model.h"
#include "critter/asset/synthetic_character.h"
#include "critter/core/cpu_features.h"

namespace critter {
namespace {

TEST(ClipKeyChecks, ANonFiniteKeyAnywhereIsRefused) {
  auto model = build_model(make_synthetic_character());
  ASSERT_TRUE(model.has_value()) << model.error().to_string();
  const ClipParts good = model->clips()[0].parts();
  const int joints = model->skeleton().joint_count();
  ASSERT_TRUE(Clip::from_parts(good, joints, {}).has_value());
  const float bad[] = {
      std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN(),
      std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
      std::bit_cast<float>(0x7f800001u)};  // a signalling NaN
  for (const bool in_times : {false, true}) {
    const std::size_t n = in_times ? good.times.size() : good.values.size();
    ASSERT_GT(n, 40u);
    for (const std::size_t at : {std::size_t{0}, std::size_t{15}, std::size_t{16}, std::size_t{31},
                                 n / 2, n - 33, n - 9, n - 1}) {
      for (const float value : bad) {
        ClipParts p = good;
        (in_times ? p.times.data() : p.values.data())[at] = value;
        auto clip = Clip::from_parts(std::move(p), joints, {}, "x.crit");
        ASSERT_FALSE(clip.has_value()) << (in_times ? "time " : "value ") << at;
        EXPECT_EQ(clip.error().code, ErrorCode::kInvalid);
        EXPECT_NE(clip.error().to_string().find("not finite"), std::string::npos)
            << clip.error().to_string();
      }
    }
  }
  // Extreme finite values are keys like any other.
  ClipParts p = good;
  p.values[3] = std::numeric_limits<float>::max();
  p.values[p.values.size() - 1] = -std::numeric_limits<float>::max();
  p.values[40] = std::numeric_limits<float>::denorm_min();
  p.values[41] = -0.0f;
  EXPECT_TRUE(Clip::from_parts(std::move(p), joints, {}).has_value());
}

TEST(ClipKeyChecks, TheFirstNonFiniteFloatIsFoundWhereverItIs) {
  std::vector<float> v(70, 1.5f);
  EXPECT_TRUE(all_finite_floats(v));
  EXPECT_EQ(first_non_finite(v), v.size());
  for (const std::size_t at : {0u, 31u, 32u, 63u, 69u}) {
    for (const float bad :
         {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::quiet_NaN()}) {
      std::vector<float> w = v;
      w[at] = bad;
      if (at < 69) w[69] = bad;  // a later one does not hide the first
      EXPECT_FALSE(all_finite_floats(w));
      EXPECT_EQ(first_non_finite(w), at);
    }
  }
}

// The .crit reader's one pass (copy_finite_floats, through whichever path this CPU takes and the
// scalar tail): every float copied bit for bit, and a NaN or an infinity found at any position.
TEST(ClipKeyChecks, CopyFiniteFloatsCopiesEveryFloatAndFindsANonFiniteOneAnywhere) {
  std::vector<float> v(100);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = 0.5f * static_cast<float>(i) - 20.0f;
  for (std::size_t n = 0; n <= v.size(); ++n) {
    std::vector<float> out(n + 1, 7.0f);
    EXPECT_TRUE(copy_finite_floats(std::span<const float>(v).first(n), out.data())) << n;
    EXPECT_EQ(std::memcmp(out.data(), v.data(), n * sizeof(float)), 0) << n;
    EXPECT_EQ(out[n], 7.0f) << "nothing past the floats is written, n " << n;
    for (std::size_t at = 0; at < n; ++at) {
      std::vector<float> w(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n));
      w[at] = at % 2 == 0 ? std::numeric_limits<float>::infinity()
                          : -std::numeric_limits<float>::quiet_NaN();
      EXPECT_FALSE(copy_finite_floats(w, out.data())) << "n " << n << " at " << at;
    }
  }
}

// Floats kept as pairs of 16-bit words at an odd word (compact clips' float keys): a NaN or an
// infinity in any of them is found, finite extremes pass.
TEST(ClipKeyChecks, FloatsStoredAsWordPairsAreCheckedAtAnyEvenAddress) {
  std::vector<std::uint16_t> words(1 + 2 * 40);
  const auto put = [&](std::size_t i, float f) { std::memcpy(&words[1 + 2 * i], &f, sizeof f); };
  for (std::size_t i = 0; i < 40; ++i) put(i, 0.25f * static_cast<float>(i) - 3.0f);
  put(7, std::numeric_limits<float>::max());
  put(8, -std::numeric_limits<float>::denorm_min());
  EXPECT_TRUE(all_finite_float_words(words.data() + 1, 40));
  for (const std::size_t at : {0u, 17u, 39u}) {
    for (const float bad :
         {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::quiet_NaN()}) {
      std::vector<std::uint16_t> saved = words;
      put(at, bad);
      EXPECT_FALSE(all_finite_float_words(words.data() + 1, 40)) << at;
      EXPECT_TRUE(all_finite_float_words(words.data() + 1, at)) << "only the floats asked for";
      words = saved;
    }
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
TEST(ClipKeyChecks, VectorPathsEqualTheScalarMaximum) {
  std::mt19937 rng(7);
  std::vector<float> v(100);
  for (int round = 0; round < 50; ++round) {
    for (float& f : v) f = std::bit_cast<float>(static_cast<std::uint32_t>(rng()) >> (rng() % 9));
    for (std::size_t n = 0; n <= v.size(); ++n) {
      using Path = std::uint32_t (*)(const float*, std::size_t, std::size_t&);
      const std::pair<bool, Path> paths[] = {{cpu_has_avx2_fma(), detail::max_magnitude_avx2},
                                             {cpu_has_avx512(), detail::max_magnitude_avx512}};
      for (const auto& [available, path] : paths) {
        if (!available) continue;
        std::size_t done = n + 1;
        const std::uint32_t most = path(v.data(), n, done);
        ASSERT_LE(done, n);
        ASSERT_GT(done + 32, n);  // at most one step is left to the caller
        std::uint32_t expected = 0;
        for (std::size_t i = 0; i < done; ++i)
          expected = std::max(expected, std::bit_cast<std::uint32_t>(v[i]) & 0x7fffffffu);
        EXPECT_EQ(most, expected) << "n " << n;
      }
    }
  }
}

TEST(ClipKeyChecks, CopyingPathsCopyEveryFloatAndEqualTheScalarMaximum) {
  std::mt19937 rng(11);
  std::vector<float> v(100), out(100);
  for (int round = 0; round < 50; ++round) {
    for (float& f : v) f = std::bit_cast<float>(static_cast<std::uint32_t>(rng()) >> (rng() % 9));
    for (std::size_t n = 0; n <= v.size(); ++n) {
      using Path = std::uint32_t (*)(const float*, float*, std::size_t, std::size_t&);
      const std::pair<bool, Path> paths[] = {{cpu_has_avx2_fma(), detail::copy_max_magnitude_avx2},
                                             {cpu_has_avx512(), detail::copy_max_magnitude_avx512}};
      for (const auto& [available, path] : paths) {
        if (!available) continue;
        std::fill(out.begin(), out.end(), -1.0f);
        std::size_t done = n + 1;
        const std::uint32_t most = path(v.data(), out.data(), n, done);
        ASSERT_LE(done, n);
        ASSERT_GT(done + 32, n);
        std::uint32_t expected = 0;
        for (std::size_t i = 0; i < done; ++i)
          expected = std::max(expected, std::bit_cast<std::uint32_t>(v[i]) & 0x7fffffffu);
        EXPECT_EQ(most, expected) << "n " << n;
        // The floats it covered are copied bit for bit, nothing after them is written.
        EXPECT_EQ(std::memcmp(out.data(), v.data(), done * sizeof(float)), 0) << "n " << n;
        for (std::size_t i = done; i < out.size(); ++i) ASSERT_EQ(out[i], -1.0f) << "n " << n;
      }
    }
  }
}

TEST(ClipKeyChecks, CountingPathsEqualAScalarCountOfFalls) {
  std::mt19937 rng(5);
  std::vector<std::uint16_t> frames(200);
  for (int round = 0; round < 40; ++round) {
    // Mostly rising runs, with falls, equal neighbours and the extremes of the range.
    std::uint16_t at = 0;
    for (std::uint16_t& f : frames) {
      const unsigned pick = rng() % 16;
      at = pick == 0   ? static_cast<std::uint16_t>(rng())
           : pick == 1 ? at
           : pick == 2 ? std::uint16_t{65535}
                       : static_cast<std::uint16_t>(at + 1 + rng() % 3);
      f = at;
    }
    for (std::size_t n = 0; n <= frames.size(); ++n) {
      using Path = std::size_t (*)(const std::uint16_t*, std::size_t, std::size_t&);
      const std::pair<bool, Path> paths[] = {
          {cpu_has_avx2_fma(), detail::count_not_increasing_avx2},
          {cpu_has_avx512(), detail::count_not_increasing_avx512}};
      for (const auto& [available, path] : paths) {
        if (!available) continue;
        std::size_t done = n + 7;
        const std::size_t count = path(frames.data(), n, done);
        ASSERT_GE(done, 1u);
        ASSERT_LE(done, std::max<std::size_t>(n, 1));
        ASSERT_GT(done + 32, n);
        std::size_t expected = 0;
        for (std::size_t k = 1; k < done; ++k) expected += frames[k] <= frames[k - 1] ? 1 : 0;
        EXPECT_EQ(count, expected) << "n " << n;
      }
    }
  }
  // Longer than the AVX2 path's 16-bit lane counters hold before they are emptied: every frame
  // equal to the one before it counts.
  const std::vector<std::uint16_t> flat(70001, 9);
  for (const auto path : {detail::count_not_increasing_avx2, detail::count_not_increasing_avx512}) {
    if (path == detail::count_not_increasing_avx2 ? !cpu_has_avx2_fma() : !cpu_has_avx512())
      continue;
    std::size_t done = 0;
    const std::size_t count = path(flat.data(), flat.size(), done);
    EXPECT_EQ(count, done - 1);
    EXPECT_GT(done + 32, flat.size());
  }
}
#endif

}  // namespace
}  // namespace critter
