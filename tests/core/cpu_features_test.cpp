// SPDX-License-Identifier: MIT
#include "critter/core/cpu_features.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace critter {
namespace {

// The first "key : value" line of /proc/cpuinfo with this key; empty where there is none.
std::string cpuinfo_value(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string k = line.substr(0, colon);
    while (!k.empty() && (k.back() == ' ' || k.back() == '\t')) k.pop_back();
    if (k != key) continue;
    std::string v = line.substr(colon + 1);
    while (!v.empty() && v.front() == ' ') v.erase(v.begin());
    return v;
  }
  return {};
}

TEST(CpuFeatures, Avx512ImpliesAvx2) {
  if (cpu_has_avx512()) {
    EXPECT_TRUE(cpu_has_avx2_fma());
  }
}

// Zen 4 is told apart by the vendor and family that the kernel reads from the same CPUID leaves:
// the two readings must agree (on Linux; elsewhere only that a CPU without AVX-512 is never
// reported as splitting it).
TEST(CpuFeatures, SplitAvx512IsExactlyAnAmdFamily19hCoreWithAvx512) {
  if (!cpu_has_avx512()) {
    EXPECT_FALSE(cpu_splits_avx512());
    return;
  }
#if defined(__linux__)
  const std::string vendor = cpuinfo_value("vendor_id");
  const std::string family = cpuinfo_value("cpu family");
  ASSERT_FALSE(vendor.empty() || family.empty()) << "/proc/cpuinfo names no vendor or family";
  EXPECT_EQ(cpu_splits_avx512(), vendor == "AuthenticAMD" && family == "25")
      << "vendor " << vendor << ", family " << family;
#endif
}

}  // namespace
}  // namespace critter
