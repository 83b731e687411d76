// SPDX-License-Identifier: MIT
// Skeleton: joint names, parents and rest pose of a model, stored parents-first so that
// local-to-model is one forward pass (DESIGN.md convention 3). Immutable once built.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "critter/core/error.h"
#include "critter/core/transform.h"

namespace critter {

// Editable joint as importers fill it. `parent` indexes RawSkeleton::joints (-1 for a root) and
// may come after the child: the builder sorts. `source_index` is the joint's index in the source
// file (glTF node index), kept for tools that report by file index; -1 when none.
struct RawJoint {
  std::string name;
  std::int32_t parent = -1;
  Transform rest;
  std::int32_t source_index = -1;
};

struct RawSkeleton {
  std::vector<RawJoint> joints;
};

class Skeleton {
 public:
  // Joint indices are int16_t: at most 32767 joints.
  static constexpr int kMaxJoints = 32767;

  int joint_count() const { return static_cast<int>(parents_.size()); }
  // Per joint, parents-first: parents()[i] < i, or -1 for a root.
  std::span<const std::int16_t> parents() const { return parents_; }
  std::span<const std::string> names() const { return names_; }
  // Rest (bind-time local) transform of each joint.
  std::span<const Transform> rest_pose() const { return rest_; }
  // Index of each joint in the source file (glTF node index), -1 when unknown.
  std::span<const std::int32_t> source_indices() const { return source_; }

  // Joint index by name: an exact (case-sensitive) match first, then a case-insensitive one;
  // -1 when none. Linear in the joint count: resolve names once, never per frame.
  int find(std::string_view name) const;

  // A skeleton from its arrays as stored (for readers of the baked format), kept bit for bit:
  // equal sizes, parents[i] < i or -1, finite rest transforms. An ErrorCode::kInvalid error at
  // `path` ("joints/<i>") otherwise.
  static Result<Skeleton> from_parts(std::vector<std::int16_t> parents,
                                     std::vector<std::string> names, std::vector<Transform> rest,
                                     std::vector<std::int32_t> source_indices,
                                     std::string_view path = {});

 private:
  friend Result<Skeleton> build_skeleton(const RawSkeleton&, std::vector<int>*, std::string_view);
  std::vector<std::int16_t> parents_;
  std::vector<std::string> names_;
  std::vector<Transform> rest_;
  std::vector<std::int32_t> source_;
};

// Validates `raw` and builds a parents-first Skeleton. Rules: at most kMaxJoints joints; each
// parent is -1 or a valid index other than the joint itself; no cycles; finite rest transforms
// with a non-zero rotation (rotations are normalised). On success, `remap` (when given) receives
// for each raw index the built index. `path` names the source in errors.
Result<Skeleton> build_skeleton(const RawSkeleton& raw, std::vector<int>* remap = nullptr,
                                std::string_view path = {});

}  // namespace critter
