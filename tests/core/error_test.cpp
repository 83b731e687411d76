// SPDX-License-Identifier: MIT
#include "critter/core/error.h"

#include <gtest/gtest.h>

#include "critter/core/diagnostics.h"

namespace critter {
namespace {

TEST(Error, ToStringNamesFileLocationAndMessage) {
  const Error e = Error::at(ErrorCode::kOutOfRange, "m.gltf", "/accessors/7/count", "too many");
  EXPECT_EQ(e.to_string(), "m.gltf:/accessors/7/count: too many");
  const Error o = Error::at_offset(ErrorCode::kParse, "m.glb", 20, "chunk past end");
  EXPECT_EQ(o.to_string(), "m.glb:byte 20: chunk past end");
  EXPECT_EQ(to_string(ErrorCode::kLimit), "limit");
}

TEST(Error, ResultCarriesTheError) {
  Result<int> r = fail(Error::at(ErrorCode::kIo, "x", "", "cannot open"));
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().to_string(), "x: cannot open");
}

TEST(Diagnostics, CollectsWarningsInOrder) {
  Diagnostics d;
  EXPECT_TRUE(d.empty());
  d.warn("a.gltf", "/images/0", "missing file");
  d.warn("a.gltf", "", "second");
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d.items()[0].to_string(), "a.gltf:/images/0: warning: missing file");
  EXPECT_EQ(d.items()[1].message, "second");
}

TEST(JsonPointerToken, EscapesTildeThenSlash) {
  EXPECT_EQ(json_pointer_token("gait"), "gait");
  EXPECT_EQ(json_pointer_token("a/b"), "a~1b");
  EXPECT_EQ(json_pointer_token("m~n"), "m~0n");
  // "~1" written in a name is a tilde and a one, not an escaped slash.
  EXPECT_EQ(json_pointer_token("~1/"), "~01~1");
  EXPECT_EQ(json_pointer_token(""), "");
}

}  // namespace
}  // namespace critter
