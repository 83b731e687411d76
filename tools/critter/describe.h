// SPDX-License-Identifier: MIT
// Human-readable and JSON descriptions of a loaded Model, shared by `critter info` and
// `critter demo` (and any later command that reports on a model).
#pragma once

#include <iosfwd>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"

namespace critter::cli {

// The model as JSON. Stable keys (scripts rely on them; add keys, never rename or remove):
//   file       the path given (null for a model built in code), format, name
//   bones      every skeleton joint in skeleton (parents-first) order:
//              {index: source index in the file or -1, name, parent: bone position or -1}
//   meshes     {name, bone, skin, morph_targets: count, morph_names, default_weights,
//               parts: [{vertices, indices, topology, attributes: ["POSITION", ...],
//                        material: index or -1, material_name: name or null}]}
//   skins      {name, joints: joint count, skeleton_root: bone position or -1}
//   animations {name, duration: seconds, channels: track count, interpolations: ["LINEAR", ...]}
//   materials  {name, base_color: [r,g,b,a], base_color_texture: image or -1, alpha_mode,
//               double_sided, unlit}
//   images     {name, uri, mime_type, storage: "embedded"|"external"|"missing", bytes, path}
//   bounds     {min: [x,y,z], max: [x,y,z]} (both null for a model without geometry)
//   warnings   {code: "warning", file, location: JSON pointer, byte offset or element (may be
//               empty), message}, the parts of Warning::to_string()
// Keys come in the order above. Floats are written with the shortest decimal text that reads back
// to the same float.
// One error or warning as every --json output writes it (info's and check's "warnings", check's
// "errors"): {"code", "file", "location", "message"}; `code` is "warning" for a warning and the
// ErrorCode's name ("invalid", "parse", ...) for an error; `location` a byte offset, JSON pointer
// or element, "" when none is known.
nlohmann::ordered_json diagnostic_json(std::string_view code, std::string_view file,
                                       std::string_view location, std::string_view message);

nlohmann::ordered_json describe_json(const Model& model, std::string_view file,
                                     std::span<const Warning> warnings);

// The same facts as indented text for people: the bone tree (one bone per line, indented by depth,
// with its position in the skeleton), meshes and parts, skins, morph targets, animations,
// materials, images, bounds and warnings. `file` empty means built in code.
void describe_text(const Model& model, std::string_view file, std::span<const Warning> warnings,
                   std::ostream& out);

// Number formatting shared by every command's output. Text: 6 significant digits, magnitudes
// under 1e-6 as 0. JSON: the float's shortest round-trip decimal (null when not finite).
std::string format_number(float v);
std::string format_vec(const vec3& v);
nlohmann::json json_number(float v);
nlohmann::json json_vec(const vec3& v);

}  // namespace critter::cli
