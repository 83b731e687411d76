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

// Zen 4 is told apart by its vendor and family, which the library reads through the compiler's
// CPU builtins and Linux shows in /proc/cpuinfo: the two readings must agree.
TEST(CpuFeatures, SplitAvx512IsExactlyAnAmdFamily19hCoreWithAvx512) {
  const std::string vendor = cpuinfo_value("vendor_id");
  const std::string family = cpuinfo_value("cpu family");
  ASSERT_FALSE(vendor.empty() || family.empty()) << "/proc/cpuinfo names no vendor or family";
  EXPECT_EQ(cpu_splits_avx512(), cpu_has_avx512() && vendor == "AuthenticAMD" && family == "25")
      << "vendor " << vendor << ", family " << family;
}

}  // namespace
}  // namespace critter
