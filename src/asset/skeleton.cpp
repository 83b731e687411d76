// SPDX-License-Identifier: MIT
#include "critter/asset/skeleton.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "critter/core/math.h"
#include "critter/core/strings.h"

namespace critter {

namespace {

std::string joint_location(const RawSkeleton& raw, std::size_t i) {
  return "/joints/" + std::to_string(i) + " ('" + raw.joints[i].name + "')";
}

}  // namespace

int Skeleton::find(std::string_view name) const {
  for (std::size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name) return static_cast<int>(i);
  for (std::size_t i = 0; i < names_.size(); ++i)
    if (iequals(names_[i], name)) return static_cast<int>(i);
  return -1;
}

Result<Skeleton> build_skeleton(const RawSkeleton& raw, std::vector<int>* remap,
                                std::string_view path) {
  const std::size_t n = raw.joints.size();
  const std::string file(path);
  if (n > static_cast<std::size_t>(Skeleton::kMaxJoints)) {
    return fail(Error::at(ErrorCode::kLimit, file, "/joints",
                          "skeleton has " + std::to_string(n) + " joints, at most " +
                              std::to_string(Skeleton::kMaxJoints) + " are supported"));
  }
  for (std::size_t i = 0; i < n; ++i) {
    const RawJoint& j = raw.joints[i];
    if (j.parent < -1 || j.parent >= static_cast<std::int32_t>(n)) {
      return fail(Error::at(ErrorCode::kOutOfRange, file, joint_location(raw, i),
                            "parent " + std::to_string(j.parent) + " is not a joint index (" +
                                std::to_string(n) + " joints)"));
    }
    if (j.parent == static_cast<std::int32_t>(i)) {
      return fail(
          Error::at(ErrorCode::kInvalid, file, joint_location(raw, i), "joint is its own parent"));
    }
    if (!all_finite(j.rest.translation) || !all_finite(j.rest.rotation) ||
        !all_finite(j.rest.scale)) {
      return fail(Error::at(ErrorCode::kInvalid, file, joint_location(raw, i),
                            "rest transform has a non-finite component"));
    }
    if (quat q = j.rest.rotation; !normalize_in_place(q)) {
      return fail(Error::at(ErrorCode::kInvalid, file, joint_location(raw, i),
                            "rest rotation is a zero quaternion"));
    }
  }

  // Depth of every joint, iteratively; a walk longer than n steps means a cycle.
  std::vector<int> depth(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t steps = 0;
    std::int32_t k = static_cast<std::int32_t>(i);
    while (k >= 0 && depth[static_cast<std::size_t>(k)] < 0) {
      k = raw.joints[static_cast<std::size_t>(k)].parent;
      if (++steps > n) {
        return fail(Error::at(ErrorCode::kInvalid, file, joint_location(raw, i),
                              "the parent chain of this joint forms a cycle"));
      }
    }
    // Unwind: assign depths from the known ancestor down.
    int base = k >= 0 ? depth[static_cast<std::size_t>(k)] : -1;
    std::vector<std::int32_t> chain;
    for (std::int32_t c = static_cast<std::int32_t>(i); c != k;
         c = raw.joints[static_cast<std::size_t>(c)].parent)
      chain.push_back(c);
    for (auto it = chain.rbegin(); it != chain.rend(); ++it)
      depth[static_cast<std::size_t>(*it)] = ++base;
  }

  // Parents-first order: stable sort by depth keeps siblings (and already sorted input) in order.
  std::vector<int> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return depth[static_cast<std::size_t>(a)] < depth[static_cast<std::size_t>(b)];
  });
  // Already parents-first input keeps its order exactly (importers' indices stay valid).
  bool sorted = true;
  for (std::size_t i = 0; i < n && sorted; ++i)
    sorted = raw.joints[i].parent < static_cast<std::int32_t>(i);
  if (sorted)
    for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<int>(i);

  std::vector<int> new_index(n);
  for (std::size_t i = 0; i < n; ++i)
    new_index[static_cast<std::size_t>(order[i])] = static_cast<int>(i);

  Skeleton s;
  s.parents_.resize(n);
  s.names_.resize(n);
  s.rest_.resize(n);
  s.source_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const RawJoint& j = raw.joints[static_cast<std::size_t>(order[i])];
    s.parents_[i] = static_cast<std::int16_t>(
        j.parent < 0 ? -1 : new_index[static_cast<std::size_t>(j.parent)]);
    s.names_[i] = j.name;
    s.rest_[i] = j.rest;
    normalize_in_place(s.rest_[i].rotation);  // cannot fail: checked above
    s.source_[i] = j.source_index;
  }
  if (remap) *remap = std::move(new_index);
  return s;
}

Result<Skeleton> Skeleton::from_parts(std::vector<std::int16_t> parents,
                                      std::vector<std::string> names, std::vector<Transform> rest,
                                      std::vector<std::int32_t> source_indices,
                                      std::string_view path) {
  const std::string file(path);
  if (parents.size() > static_cast<std::size_t>(kMaxJoints) || names.size() != parents.size() ||
      rest.size() != parents.size() || source_indices.size() != parents.size())
    return fail(Error::at(ErrorCode::kInvalid, file, "joints", "joint arrays differ in size"));
  for (std::size_t j = 0; j < parents.size(); ++j) {
    const Transform& t = rest[j];
    if (parents[j] < -1 || parents[j] >= static_cast<std::int64_t>(j) ||
        !all_finite(t.translation) || !all_finite(t.rotation) || !all_finite(t.scale))
      return fail(Error::at(ErrorCode::kInvalid, file, "joints/" + std::to_string(j),
                            "parent after the joint or rest transform not finite"));
  }
  Skeleton s;
  s.parents_ = std::move(parents);
  s.names_ = std::move(names);
  s.rest_ = std::move(rest);
  s.source_ = std::move(source_indices);
  return s;
}

}  // namespace critter
