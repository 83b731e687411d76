// SPDX-License-Identifier: MIT
#include "critter/core/strings.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace critter {
namespace {

TEST(Strings, IequalsFoldsAsciiCaseOnly) {
  EXPECT_TRUE(iequals("Head", "hEAD"));
  EXPECT_TRUE(iequals("", ""));
  EXPECT_FALSE(iequals("Head", "Heads"));
  EXPECT_FALSE(iequals("Head", "Hand"));
  // Bytes above 0x7f are compared as they are.
  EXPECT_FALSE(iequals("\xC3\x84", "\xC3\xA4"));
  EXPECT_TRUE(iequals("\xC3\x84", "\xC3\x84"));
}

TEST(Strings, AffixesIgnoreCase) {
  EXPECT_TRUE(istarts_with("LookAtDriver", "lookat"));
  EXPECT_TRUE(iends_with("LookAtDriver", "DRIVER"));
  EXPECT_FALSE(iends_with("Driver", "LookAtDriver"));
  EXPECT_FALSE(istarts_with("Look", "LookAt"));
}

TEST(Strings, EditDistanceIgnoresCase) {
  EXPECT_EQ(iedit_distance("", ""), 0u);
  EXPECT_EQ(iedit_distance("", "abc"), 3u);
  EXPECT_EQ(iedit_distance("abc", ""), 3u);
  EXPECT_EQ(iedit_distance("WalkSpeed", "walkspeed"), 0u);
  EXPECT_EQ(iedit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(iedit_distance("Speed", "Sped"), 1u);     // a deletion
  EXPECT_EQ(iedit_distance("Sped", "SPEED"), 1u);     // an insertion
  EXPECT_EQ(iedit_distance("Height", "Weight"), 1u);  // a substitution
  EXPECT_EQ(iedit_distance("ab", "ba"), 2u);          // a swap is two edits
}

TEST(Strings, ClosestNamesSuggestLikelyTypos) {
  const std::vector<std::string> names = {"SpeedXZ", "SpeedY", "Speed", "Health", "speed"};
  // Best first, ties in the order given, each name once (case-insensitive duplicates kept apart).
  EXPECT_EQ(closest_names(names, "SpedXZ"), (std::vector<std::string>{"SpeedXZ"}));
  EXPECT_EQ(closest_names(names, "SpeedX"),
            (std::vector<std::string>{"SpeedXZ", "SpeedY", "Speed"}));
  EXPECT_EQ(closest_names(names, "SpeedX", 1), (std::vector<std::string>{"SpeedXZ"}));
  EXPECT_TRUE(closest_names(names, "Mood").empty());
  EXPECT_EQ(did_you_mean(closest_names(names, "helth")), " (did you mean Health?)");
  EXPECT_EQ(did_you_mean({}), "");
  const std::string_view views[] = {"Human", "Bird"};
  EXPECT_EQ(closest_names(views, "humn"), (std::vector<std::string>{"Human"}));
}

TEST(Strings, LowerExtension) {
  EXPECT_EQ(lower_extension("Models/Wolf.DAE"), "dae");
  EXPECT_EQ(lower_extension("a\\b\\c.Glb"), "glb");
  EXPECT_EQ(lower_extension("a.d/b"), "");
  EXPECT_EQ(lower_extension(".hidden"), "");
  EXPECT_EQ(lower_extension("x.tar.GZ"), "gz");
  EXPECT_EQ(to_lower("AbC-1"), "abc-1");
}

TEST(Strings, QuotingForMessages) {
  EXPECT_EQ(in_quotes("Walk"), "'Walk'");
  EXPECT_EQ(in_quotes(std::string(70, 'a')), "'" + std::string(70, 'a') + "'");
  EXPECT_EQ(in_quotes(std::string(70, 'a'), 64), "'" + std::string(64, 'a') + "...'");
  EXPECT_EQ(in_quotes("abcdef", 3), "'abc...'");
  const std::vector<std::string> names{"Head", "Neck"};
  EXPECT_EQ(quoted_list(names), "'Head', 'Neck'");
  EXPECT_EQ(quoted_list({}), "");
}

}  // namespace
}  // namespace critter
