// SPDX-License-Identifier: MIT
#include "support/config_fuzz.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace critter::test_support {
namespace {

struct Token {
  std::size_t begin = 0, end = 0;
  char kind = 0;  // 's' string, 'n' number, '{' '[' '}' ']', 'w' word, 'k' key (string then ':')
};

std::vector<Token> tokenize(std::string_view t) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < t.size()) {
    const char c = t[i];
    if (c == '"') {
      std::size_t j = i + 1;
      while (j < t.size() && t[j] != '"') j += (t[j] == '\\') ? 2 : 1;
      j = std::min(j + 1, t.size());
      std::size_t k = j;
      while (k < t.size() && (t[k] == ' ' || t[k] == '\n')) ++k;
      out.push_back({i, j, (k < t.size() && t[k] == ':') ? 'k' : 's'});
      i = j;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      std::size_t j = i + 1;
      while (j < t.size() && (std::isdigit(static_cast<unsigned char>(t[j])) || t[j] == '.' ||
                              t[j] == 'e' || t[j] == 'E' || t[j] == '-' || t[j] == '+'))
        ++j;
      out.push_back({i, j, 'n'});
      i = j;
    } else if (c == '{' || c == '[' || c == '}' || c == ']') {
      out.push_back({i, i + 1, c});
      ++i;
    } else if (std::isalpha(static_cast<unsigned char>(c))) {
      std::size_t j = i + 1;
      while (j < t.size() && std::isalpha(static_cast<unsigned char>(t[j]))) ++j;
      out.push_back({i, j, 'w'});
      i = j;
    } else if (c == '/' && i + 1 < t.size() && t[i + 1] == '/') {
      while (i < t.size() && t[i] != '\n') ++i;
    } else {
      ++i;
    }
  }
  return out;
}

}  // namespace

extern const char* const kFuzzTemplate = R"json({
  "name": "FuzzQuad", "requiredBones": ["b_Root"],
  "layers": { "Base": { "index": 0 }, "Head": { "index": 1, "boneMask": ["Head", "Neck"] },
              "Death": { "index": 2 },
              "Legs": { "index": 3, "blendMode": "additive", "boneMask": ["b_Hip"],
                        "boneMaskExclude": ["b_FootL"], "weight": null } },
})json";

extern const char* const kFuzzBaseConfig = R"json({
  "template": "fuzz_quad",
  "animations": {
    "walk": { "source": "Walk", "events": [ { "time": 0.1, "name": "Footstep", "data": "l" },
                                            { "time": 0.6, "name": "Footstep", "data": "r" } ] },
  },
  "parameters": { "Gait": "", "Clip": "" },
})json";

// Every feature of the format in one config for the spec_example_quadruped() model: extends with
// $append/$remove (the base is written next to it as "fuzz_base.json"), IK chains with joint
// limits and a look-at, rootMotion with scale and physics, the Expression driver, onComplete
// setState, `[Param]` sources, nested groups, a bone alias chain and typed parameters.
extern const char* const kFeatureConfig = R"json({
  // every feature at once
  "extends": "fuzz_base",
  "rootBoneRotation": [10, 20, 30], "rootBoneTranslation": [0, 0.5, 0], "modelScale": 1.5,
  "boneAliases": { "Head": "b_Head_05", "Neck": "b_Neck_04", "Skull": "Head" },
  "layers": {
    "Head": { "blendCurve": "smoothstep", "weight": 0.8,
              "driver": { "type": "Expression", "properties": { "boneConfigs": [
                { "boneName": "b_Head_05", "rotationX": "[SpeedXZ] * 10", "scaleY": "1 + [Boost]",
                  "positionZ": "[Gait] == 'Jump' ? 0.1 : 0" } ] } } },
    "Death": { "driver": { "type": "Death", "properties": { "BodyDrop": 0.4 } } },
    "Legs": { "blendMode": "additive" },
  },
  "animations": {
    "idle": { "source": "Idle", "speed": "max(0.1, [Boost])", "startPhase": 0.1, "endPhase": 0.9 },
    "walk": { "speed": "[SpeedXZ] * 0.65", "loop": "[IsOnGround]",
              "events": { "$append": [ { "time": 0.9, "name": "Tail" } ],
                          "$remove": [ { "time": 0.6, "name": "Footstep", "data": "r" } ] } },
    "jump": { "source": "animation://Jump", "loop": false, "blendDuration": "[Boost] * 0.5",
              "onComplete": { "type": "setState", "state": "Gait", "value": "" },
              "onInterrupt": { "type": "trigger", "name": "JumpCut", "data": "x" },
              "rootBoneRotation": 90, "rootBoneTranslation": [0, 1, 0],
              "rootMotion": { "sourceBone": "b_Root",
                "translation": { "mode": "AddImpulse", "impulsePhase": 0.18, "velocityMask": [0, 1, 0],
                                 "impulseOverride": [0, 5, 0], "blendMethod": "SpringDamper",
                                 "impulseMethod": "Peak", "maxSpeed": 10, "maxImpulse": 30 },
                "scale": { "mode": "Override", "source": "Fixed", "value": 2, "minScale": 0.5,
                           "blendDuration": 0.1 },
                "physics": { "disableGravity": true, "clearVelocityOnExit": true } } },
    "glide": { "source": "Walk", "startPhase": 0.8, "endPhase": 0.2,
               "rootMotion": { "translation": { "mode": "Blend", "blendMethod": "SmoothDamp",
                                                "smoothTime": 0.2 } } },
    "wave": { "source": "[Clip]", "blendDuration": 0 },
  },
  "states": {
    "gait": { "layer": "Base", "rules": [
      { "condition": "IsDead", "animation": null },
      { "condition": "[Gait] == 'Jump'", "animation": "jump" },
      { "condition": "[Clip] != ''", "animation": "wave" },
      { "condition": "[IsOnGround]", "rules": [
          { "condition": "[SpeedXZ] > 3", "rules": [
              { "condition": "[Boost] > 0.5", "animation": { "source": "glide", "speed": 2 } },
              { "condition": "true", "animation": "walk" } ] },
          { "condition": "[SpeedXZ] > 0.2", "animation": "walk" },
          { "condition": "true", "animation": "idle" } ] },
      { "condition": "true", "animation": { "source": "Idle", "speed": "expr:1 + [Boost]" } } ] },
    "head": { "layer": "Head", "rules": [
      { "condition": "[Look]", "animation": "driver:Expression" },
      { "condition": "true", "animation": null } ] },
    "death": { "layer": "Death", "rules": [
      { "condition": "[DeathPhase] > 0", "animation": "driver:Death" },
      { "condition": "true", "animation": null } ] },
    "legs": { "layer": "Legs", "rules": [
      { "condition": "[Count] > 2", "animation": { "source": "Walk", "speed": "[Count] / 3" } } ] },
  },
  "parameters": { "Boost": 0.25, "Look": true, "Count": { "type": "int", "value": 1 },
                  "Fire": { "type": "trigger" }, "Aim": [0, 0, 1], "Pole": { "X": 0, "Y": 1 },
                  "FootTargetL": [0, 0, 0] },
  "ik": {
    "chains": [ { "name": "footL", "endBone": "b_FootL", "maxChainLength": 3,
                  "target": "FootTargetL", "aim": "Aim", "hint": "Aim", "algorithm": "FABRIK",
                  "enabled": "[IsOnGround]", "weight": "[Boost] * 2", "positionWeight": 0.5,
                  "aimWeight": 1, "iterations": 8, "tolerance": 0.001, "maxStepDegrees": 45,
                  "positionSmoothTime": 0.05, "aimSmoothTime": 0.1,
                  "jointLimits": [ { "bone": "b_Leg", "order": "XYZ", "min": [0, -5, -5],
                                     "max": [150, 5, 5] } ] } ],
    "lookAt": [ { "name": "look", "bones": ["Neck", "Skull"], "shares": [0.4, 0.6],
                  "yaw": "[LookAngleX]", "pitch": "[LookAngleY] * 2", "weight": "[Boost] * 4",
                  "maxYawDegrees": 65, "maxPitchDegrees": 40, "smoothTime": 0.1 } ],
  },
})json";

int fuzz_iterations() {
  if (const char* s = std::getenv("CRITTER_FUZZ_ITERATIONS")) {
    const int n = std::atoi(s);
    if (n > 0) return n;
  }
  return 250;
}

// Values a token may be swapped for: hostile numbers, NaN-ish strings, other types, deep
// nesting, long strings and expressions that fail at run time.
std::string hostile_json_value(std::mt19937& rng) {
  static const char* const kValues[] = {"1e999",
                                        "-1e999",
                                        "\"1e999\"",
                                        "\"NaN\"",
                                        "\"nan\"",
                                        "\"inf\"",
                                        "-0",
                                        "1e-45",
                                        "-1",
                                        "1000000000",
                                        "-2147483649",
                                        "9223372036854775808",
                                        "1e308",
                                        "0",
                                        "0.5",
                                        "2",
                                        "null",
                                        "true",
                                        "false",
                                        "[]",
                                        "{}",
                                        "[1, 2]",
                                        "[1, 2, 3]",
                                        "[1, 2, 3, 4]",
                                        "{\"x\": 1}",
                                        "\"\"",
                                        "\"true\"",
                                        "\"[Boost]\"",
                                        "\"[Boost] / 0\"",
                                        "\"[Gait] + 1\"",
                                        "\"[Nope] * 1e38 * 1e38\"",
                                        "\"expr:\"",
                                        "\"[\"",
                                        "\"[Aim]\"",
                                        "\"[Gait]\"",
                                        "\"[Clip]\"",
                                        "\"driver:Expression\"",
                                        "\"driver:LookAt\"",
                                        "\"file:nowhere.glb#X\"",
                                        "\"animation://Jump\"",
                                        "\"Idle\"",
                                        "\"walk\"",
                                        "\"jump\"",
                                        "\"b_Root\"",
                                        "\"Head\"",
                                        "\"trigger\"",
                                        "\"setState\"",
                                        "\"sqrt(-1)\"",
                                        "\"log(0)\"",
                                        "\"1 / 0\"",
                                        "\"[SpeedXZ] > 0.2 and [Boost]\""};
  const std::size_t n = sizeof(kValues) / sizeof(kValues[0]);
  std::uniform_int_distribution<std::size_t> pick(0, n + 3);
  const std::size_t k = pick(rng);
  if (k < n) return kValues[k];
  if (k == n) {  // deep nesting
    const int depth = std::uniform_int_distribution<int>(50, 5000)(rng);
    return std::string(static_cast<std::size_t>(depth), '[') +
           std::string(static_cast<std::size_t>(depth), ']');
  }
  if (k == n + 1) {
    const int depth = std::uniform_int_distribution<int>(50, 3000)(rng);
    std::string s;
    for (int i = 0; i < depth; ++i) s += "{\"a\": ";
    s += "1";
    for (int i = 0; i < depth; ++i) s += "}";
    return s;
  }
  if (k == n + 2) {  // a very long string (a name, a clip, an expression)
    const int len = std::uniform_int_distribution<int>(100, 20000)(rng);
    return "\"" + std::string(static_cast<std::size_t>(len), 'A') + "\"";
  }
  // A long expression: nesting and operators.
  const int depth = std::uniform_int_distribution<int>(10, 2000)(rng);
  return "\"" + std::string(static_cast<std::size_t>(depth), '(') + "[Boost]" +
         std::string(static_cast<std::size_t>(depth), ')') + "\"";
}

std::string mutate_config(const std::string& seed, std::mt19937& rng) {
  std::string t = seed;
  const int rounds = std::uniform_int_distribution<int>(1, 4)(rng);
  for (int r = 0; r < rounds && !t.empty(); ++r) {
    std::uniform_int_distribution<std::size_t> pos(0, t.size() - 1);
    const int op = std::uniform_int_distribution<int>(0, 9)(rng);
    switch (op) {
      case 0:  // byte flip
        t[pos(rng)] ^= static_cast<char>(1 << std::uniform_int_distribution<int>(0, 7)(rng));
        break;
      case 1:  // byte insert
        t.insert(pos(rng), 1, static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng)));
        break;
      case 2:  // byte delete
        t.erase(pos(rng), 1);
        break;
      default: {  // token-level
        const std::vector<Token> tokens = tokenize(t);
        if (tokens.empty()) break;
        const Token& tok =
            tokens[std::uniform_int_distribution<std::size_t>(0, tokens.size() - 1)(rng)];
        const std::string text = t.substr(tok.begin, tok.end - tok.begin);
        if (tok.kind == 'k' && op <= 4) {
          // A duplicate key in another case, before the original.
          std::string upper = text;
          for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
          if (upper == text) upper[1] = static_cast<char>(std::tolower(upper[1]));
          t.insert(tok.begin, upper + ": " + hostile_json_value(rng) + ", ");
        } else if (tok.kind == 'k') {
          // A very long key (a long name).
          t.replace(
              tok.begin, tok.end - tok.begin,
              "\"" + std::string(std::uniform_int_distribution<std::size_t>(64, 5000)(rng), 'k') +
                  "\"");
        } else if (tok.kind == '[' || tok.kind == '{' || tok.kind == ']' || tok.kind == '}') {
          static const char kSwap[] = {'[', '{', ']', '}'};
          t[tok.begin] = kSwap[std::uniform_int_distribution<int>(0, 3)(rng)];
        } else {
          t.replace(tok.begin, tok.end - tok.begin, hostile_json_value(rng));
        }
        break;
      }
    }
  }
  return t;
}

}  // namespace critter::test_support
