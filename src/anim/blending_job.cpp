// SPDX-License-Identifier: MIT
#include "critter/anim/blending_job.h"
#include "critter/core/cpu_features.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>

#include "anim/blend_kernels.h"
#include "anim/flush_denormals.h"
#include "anim/quat_slerp.h"
#include "anim/soa_store.h"

namespace critter::anim {

namespace {

Status job_error(std::string location, std::string message) {
  return fail(Error::at(ErrorCode::kUsage, "BlendingJob", std::move(location), std::move(message)));
}

// Built only on failure: validate() runs every frame.
std::string count_text(std::size_t got, const char* what, std::size_t want) {
  return "has " + std::to_string(got) + " " + what + ", expected 0 or " + std::to_string(want);
}

// The kernels read a Transform as ten floats.
static_assert(sizeof(Transform) == detail::kTransformFloats * sizeof(float));
static_assert(offsetof(Transform, translation) == 0);
static_assert(offsetof(Transform, rotation) == detail::kRotationOffset * sizeof(float));
static_assert(offsetof(Transform, scale) == detail::kScaleOffset * sizeof(float));

// The floats of a pose, from the first (a null pointer for an empty pose: the usual job's stack
// is built before it knows whether the pose has joints, and nothing is read through it then).
const float* floats(std::span<const Transform> pose) {
  return reinterpret_cast<const float*>(pose.data());
}

BlendingPath widest_path() {
#if defined(CRITTER_BLEND_X86)
  if (cpu_has_avx512()) return BlendingPath::kAvx512;
  if (cpu_has_avx2_fma()) return BlendingPath::kAvx2;
  return BlendingPath::kSse2;
#else
  return BlendingPath::kScalar;
#endif
}

// Joints [0, n) on `path`: blocks of its width, and what is left in the next narrower blocks,
// each the last block of its width in the pose (overlapping joints done before, which get the
// same values again), so that no block is wider than it must be. Below four joints the scalar
// kernel does them.
void blend_joints(BlendingPath path, const detail::KernelArgs& args, std::size_t n) {
#if defined(CRITTER_BLEND_X86)
  using Kernel = void (*)(const detail::KernelArgs&, std::size_t, std::size_t);
  const bool avx512 = path == BlendingPath::kAvx512;
  const Kernel by8 = avx512 ? detail::blend_joints_avx512_8 : detail::blend_joints_avx2;
  const Kernel by4 = avx512 ? detail::blend_joints_avx512_4 : detail::blend_joints_sse2;
  if (avx512 && n > 8 && n < 16 && detail::is_crossfade(args)) {
    detail::crossfade_joints_avx512_short(args, n);
    return;
  }
  if (avx512 && n >= 16) {
    const std::size_t rest = n % 16;
    if (rest > 8) {
      detail::blend_joints_avx512(args, 0, n);
      return;
    }
    detail::blend_joints_avx512(args, 0, n - rest);
    if (rest > 4) {
      by8(args, n - 8, n);
    } else if (rest > 0) {
      by4(args, n - 4, n);
    }
    return;
  }
  if ((avx512 || path == BlendingPath::kAvx2) && n >= 8) {
    const std::size_t rest = n % 8;
    if (rest > 4) {
      by8(args, 0, n);
      return;
    }
    by8(args, 0, n - rest);
    if (rest > 0) by4(args, n - 4, n);
    return;
  }
  if (path != BlendingPath::kScalar && n >= 4) {
    by4(args, 0, n);
    return;
  }
#else
  (void)path;
#endif
  detail::blend_joints_scalar(args, 0, n);
}

// At most detail::kKernelLayers layers go to the kernels at once (a stack on the stack); the
// layers beyond fold into the output in place: on the structure-of-arrays kernels, which go one
// layer at a time, or joint by joint on the scalar one for Transform arrays.
using detail::kKernelLayers;

static_assert(
    static_cast<int>(detail::KernelRotations::kSlerp) == static_cast<int>(RotationBlend::kSlerp) &&
    static_cast<int>(detail::KernelRotations::kNlerp) == static_cast<int>(RotationBlend::kNlerp) &&
    static_cast<int>(detail::KernelRotations::kLerp) == static_cast<int>(RotationBlend::kLerp));

// The kernels' structure-of-arrays geometry is SoaTransform's (blend_kernels.h includes no library
// header).
static_assert(detail::kSoaLanes == SoaTransform::kLanes);
static_assert(sizeof(SoaTransform) == detail::kSoaBlockFloats * sizeof(float));
static_assert(offsetof(SoaTransform, translation) == 0);

const float* floats(std::span<const SoaTransform> pose) {
  return reinterpret_cast<const float*>(pose.data());
}

// Joints [0, 16 · blocks) of structure-of-arrays poses on `path`. Masks and sampled sets end at
// `joints`: a last block that they do not cover goes to the kernel with copies of their last
// entries padded with zeros (no weight: the padding lanes keep the start pose).
// `per_joint`: some layer of args has a mask or a sampled set.
void blend_soa(BlendingPath path, const detail::KernelArgs& args, std::size_t joints,
               bool per_joint) {
#if defined(CRITTER_BLEND_X86)
  using Kernel = void (*)(const detail::KernelArgs&, std::size_t, std::size_t);
  const Kernel kernel = path == BlendingPath::kAvx512 ? detail::blend_soa_avx512
                        : path == BlendingPath::kAvx2 ? detail::blend_soa_avx2
                        : path == BlendingPath::kSse2 ? detail::blend_soa_sse2
                                                      : nullptr;
  if (kernel != nullptr) {
    constexpr std::size_t kLanes = detail::kSoaLanes;
    const std::size_t whole = joints / kLanes * kLanes;
    if (!per_joint || whole == joints) {
      kernel(args, 0, soa_blocks(joints) * kLanes);
      return;
    }
    if (whole > 0) kernel(args, 0, whole);
    float masks[kKernelLayers][kLanes] = {};
    std::uint8_t sampled[kKernelLayers][kLanes] = {};
    detail::KernelLayer layers[kKernelLayers];
    const std::size_t offset = whole / kLanes * detail::kSoaBlockFloats;
    for (std::size_t i = 0; i < args.layer_count; ++i) {
      const detail::KernelLayer& l = args.layers[i];
      layers[i] = l;
      layers[i].pose = l.pose + offset;
      if (l.mask != nullptr) {
        std::copy(l.mask + whole, l.mask + joints, masks[i]);
        layers[i].mask = masks[i];
      }
      if (l.sampled != nullptr) {
        std::copy(l.sampled + whole, l.sampled + joints, sampled[i]);
        layers[i].sampled = sampled[i];
      }
    }
    detail::KernelArgs tail = args;
    tail.start = args.start + offset;
    tail.out = args.out + offset;
    tail.layers = layers;
    kernel(tail, 0, kLanes);
    return;
  }
#else
  (void)path;
  (void)per_joint;
#endif
  detail::blend_soa_scalar(args, joints);
}

// A crossfade (detail::is_crossfade(args)) of structure-of-arrays poses of `joints` joints on
// `path`: the path's crossfade kernel, what blend_soa() gives (the scalar path goes through it).
// The same test as the first step of the kernels' own blend_soa (one mechanism for every caller)
// measured slower: 23 against 21 ns for one block in cache, and slower still across a crowd.
void crossfade_soa(BlendingPath path, const detail::KernelArgs& args, std::size_t joints) {
#if defined(CRITTER_BLEND_X86)
  const std::size_t lanes = soa_blocks(joints) * detail::kSoaLanes;
  switch (path) {
    case BlendingPath::kAvx512:
      return detail::crossfade_soa_avx512(args, 0, lanes);
    case BlendingPath::kAvx2:
      return detail::crossfade_soa_avx2(args, 0, lanes);
    case BlendingPath::kSse2:
      return detail::crossfade_soa_sse2(args, 0, lanes);
    default:
      break;
  }
#endif
  blend_soa(path, args, joints, false);
}

// A full-weight override of every joint replaces everything below it: the pose starts at the
// last such layer (or at rest) and the layers under it are skipped. The index after that layer;
// 0 when there is none.
std::size_t bottom_layer(std::span<const BlendingLayer> layers) {
  std::size_t bottom = 0;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const BlendingLayer& l = layers[i];
    if (l.mode == LayerBlendMode::kOverride && l.weight >= 1.0f && l.joint_weights.empty() &&
        l.sampled.empty())
      bottom = i + 1;
  }
  return bottom;
}

// Layer `l` as the kernels take it.
void to_kernel_layer(const BlendingLayer& l, bool soa, bool nlerp, detail::KernelLayer& k) {
  k.pose = soa ? floats(l.soa_pose) : floats(l.pose);
  k.mask = l.joint_weights.empty() ? nullptr : l.joint_weights.data();
  k.sampled = l.sampled.empty() ? nullptr : l.sampled.data();
  k.weight = l.weight;
  k.additive = l.mode == LayerBlendMode::kAdditive;
  k.uniform = k.mask == nullptr && k.sampled == nullptr;
  if (k.uniform && !nlerp)
    k.factors = detail::slerp_factors(k.additive ? std::min(l.weight, 1.0f) : l.weight);
}

// How many meshes `offsets` splits `weights` morph weights into: 1 when it is empty, else its size
// − 1 where it ascends from 0 to `weights`, kBadOffsets where it does not (validate()'s rule).
constexpr std::size_t kBadOffsets = std::numeric_limits<std::size_t>::max();
std::size_t mesh_count(std::span<const std::uint32_t> offsets, std::size_t weights) {
  if (offsets.empty()) return 1;
  if (offsets.front() != 0 || offsets.back() != weights) return kBadOffsets;
  for (std::size_t m = 1; m < offsets.size(); ++m)
    if (offsets[m - 1] > offsets[m]) return kBadOffsets;
  return offsets.size() - 1;
}

// One of the three rotation blends (validate()'s rule).
bool known_rotations(RotationBlend rotations) {
  return rotations == RotationBlend::kSlerp || rotations == RotationBlend::kNlerp ||
         rotations == RotationBlend::kLerp;
}

// How many entries each layer's pose must have (soa_blocks(soa_joints) blocks, or rest.size()
// transforms) where the job's own poses are in one form with matching sizes (structure-of-arrays:
// rest and output empty, soa_rest and soa_output that many blocks; Transform: soa_rest empty,
// soa_joints 0, output the rest's size); kNoSize otherwise.
constexpr std::size_t kNoSize = std::numeric_limits<std::size_t>::max();
std::size_t layer_pose_size(const BlendingJob& job) {
  const bool soa = !job.soa_output.empty();
  const std::size_t joints = soa ? job.soa_joints : job.rest.size();
  const std::size_t blocks = soa_blocks(joints);
  const bool fits =
      soa ? job.rest.empty() && job.output.empty() && job.soa_rest.size() == blocks &&
                job.soa_output.size() == blocks
          : job.soa_rest.empty() && job.soa_joints == 0 && job.output.size() == joints;
  return !fits ? kNoSize : soa ? blocks : joints;
}

// Layer `l`'s pose is in the job's form (`soa`) with `size` entries, and the other form empty.
bool layer_pose_fits(const BlendingLayer& l, bool soa, std::size_t size) {
  return soa ? l.pose.empty() && l.soa_pose.size() == size
             : l.soa_pose.empty() && l.pose.size() == size;
}

// The kernel stack of a usual job, built by usual_stack().
struct UsualStack {
  const BlendingLayer* bottom = nullptr;  // the last full-weight override of every joint, or null
  std::size_t count = 0;                  // kernel layers above it
  bool per_joint = false;                 // some kernel layer has a mask or a sampled set
};

// The jobs a frame usually builds (the automatic path, one of the rotation blends, one pose form
// with every size matching, mesh offsets and coverages well formed, finite weights, masks and
// weights either empty or full, at most kKernelLayers layers) pass these checks, and their kernel
// stack is built in the same pass over the layers: a full-weight override of every joint hides what
// lies below it, so the stack starts again there (the pose then starts at that layer), and every
// other layer with weight > 0 joins it. False for any other job, whose stack may be partly written;
// run() then validates it to name its broken rule and builds it again. Every job accepted here is
// one validate() accepts. (validate(), with its message-building paths, took about 8 % of a small
// character's two-layer blend; three passes over the layers, for the checks, the bottom layer and
// the stack, another 10 % of the greenman's.)
bool usual_stack(const BlendingJob& job, detail::KernelLayer* stack, UsualStack& out) {
  if (job.path != BlendingPath::kAuto || !known_rotations(job.rotations) ||
      job.output_weights.size() != job.default_weights.size() || job.layers.size() > kKernelLayers)
    return false;
  // The meshes' weight ranges (a Controller's stack has them).
  const std::size_t meshes = mesh_count(job.mesh_offsets, job.default_weights.size());
  if (meshes == kBadOffsets) return false;
  const bool soa = !job.soa_output.empty();
  const std::size_t joints = soa ? job.soa_joints : job.rest.size();
  const std::size_t pose_size = layer_pose_size(job);
  if (pose_size == kNoSize) return false;
  const bool nlerp = job.rotations != RotationBlend::kSlerp;
  for (const BlendingLayer& l : job.layers) {
    const bool uniform = l.joint_weights.empty() && l.sampled.empty();
    if (!(l.weight >= 0.0f && l.weight <= std::numeric_limits<float>::max()) ||
        !layer_pose_fits(l, soa, pose_size) ||
        (!uniform && ((!l.joint_weights.empty() && l.joint_weights.size() != joints) ||
                      (!l.sampled.empty() && l.sampled.size() != joints))) ||
        (!l.weights.empty() && l.weights.size() != job.default_weights.size()) ||
        (!l.morph_coverage.empty() && l.morph_coverage.size() != meshes))
      return false;
    if (l.mode == LayerBlendMode::kOverride && l.weight >= 1.0f && uniform) {
      out.bottom = &l;
      out.count = 0;
      out.per_joint = false;
    } else if (l.weight > 0.0f) {
      to_kernel_layer(l, soa, nlerp, stack[out.count++]);
      out.per_joint = out.per_joint || !uniform;
    }
  }
  return true;
}

// The commonest job, a crossfade: no morph weights anywhere (default_weights, output_weights,
// mesh_offsets and every layer's weights and coverage empty), a path this CPU runs, one of the
// rotation blends, every pose of the job's size in one form, and two layers, the first a
// full-weight override of every joint (finite weight >= 1) and the second an override of every
// joint with weight in (0, 1). True with `start` set to the first layer's pose and `layer` to the
// second as the kernels take it: the stack usual_stack() builds for the same job (the first
// layer its bottom, the second its one kernel layer), so the bits are the same. False for every
// other job, which goes the general way. Every job accepted here is one validate() accepts.
// (Checking this one shape and calling its kernel saves 7 of the 32 ns a one-block crossfade took
// through the general way, on a Zen 4 core, and the crossfade kernels of structure-of-arrays
// poses 3.5 more.)
bool crossfade_stack(const BlendingJob& job, detail::KernelLayer& layer, const float*& start) {
  if (job.layers.size() != 2 || !blending_path_available(job.path) ||
      !known_rotations(job.rotations) || !job.default_weights.empty() ||
      !job.output_weights.empty() || !job.mesh_offsets.empty())
    return false;
  const bool soa = !job.soa_output.empty();
  const std::size_t pose_size = layer_pose_size(job);
  if (pose_size == kNoSize) return false;
  const auto plain = [&](const BlendingLayer& l) {
    return l.mode == LayerBlendMode::kOverride && l.joint_weights.empty() && l.sampled.empty() &&
           l.weights.empty() && l.morph_coverage.empty() && layer_pose_fits(l, soa, pose_size);
  };
  const BlendingLayer& bottom = job.layers[0];
  const BlendingLayer& over = job.layers[1];
  if (!plain(bottom) || !plain(over) ||
      !(bottom.weight >= 1.0f && bottom.weight <= std::numeric_limits<float>::max()) ||
      !(over.weight > 0.0f && over.weight < 1.0f))
    return false;
  to_kernel_layer(over, soa, job.rotations != RotationBlend::kSlerp, layer);
  start = soa ? floats(bottom.soa_pose) : floats(bottom.pose);
  return true;
}

// The morph weights of the job (its run() says how).
void blend_morph_weights(const BlendingJob& job) {
  const std::span<float> output_weights = job.output_weights;
  const std::span<const float> default_weights = job.default_weights;
  const std::span<const std::uint32_t> mesh_offsets = job.mesh_offsets;
  std::copy(default_weights.begin(), default_weights.end(), output_weights.begin());
  if (output_weights.empty()) return;
  const std::size_t meshes = mesh_offsets.empty() ? 1 : mesh_offsets.size() - 1;
  for (const BlendingLayer& l : job.layers) {
    if (!(l.weight > 0.0f) || l.weights.empty()) continue;
    const float* in = l.weights.data();
    const float* def = default_weights.data();
    float* out = output_weights.data();
    if (l.mode == LayerBlendMode::kAdditive) {
      for (std::size_t k = 0; k < output_weights.size(); ++k) out[k] += l.weight * (in[k] - def[k]);
      continue;
    }
    const float wo = std::min(l.weight, 1.0f);
    for (std::size_t m = 0; m < meshes; ++m) {
      const float c = l.morph_coverage.empty() ? 1.0f : l.morph_coverage[m];
      if (c <= 0.0f) continue;
      const std::size_t first = mesh_offsets.empty() ? 0 : mesh_offsets[m];
      const std::size_t last = mesh_offsets.empty() ? output_weights.size() : mesh_offsets[m + 1];
      // A side of a crossfade that does not animate the mesh reads as what the layers below
      // show: the layer's value is in + (1 - c)(out - default), and lerp(out, that, wo) is the
      // update below.
      for (std::size_t k = first; k < last; ++k)
        out[k] += wo * ((in[k] - def[k]) - c * (out[k] - def[k]));
    }
  }
}

}  // namespace

bool blending_path_available(BlendingPath path) {
  switch (path) {
    case BlendingPath::kAuto:
    case BlendingPath::kScalar:
      return true;
#if defined(CRITTER_BLEND_X86)
    case BlendingPath::kSse2:
      return true;
    case BlendingPath::kAvx2:
      return cpu_has_avx2_fma();
    case BlendingPath::kAvx512:
      return cpu_has_avx512();
#endif
    default:
      return false;
  }
}

Status make_additive_delta(std::span<const Transform> pose, std::span<const Transform> reference,
                           std::span<Transform> out) {
  if (reference.size() != pose.size() || out.size() != pose.size())
    return fail(Error::at(ErrorCode::kUsage, "make_additive_delta", "sizes",
                          "pose has " + std::to_string(pose.size()) + " transforms, reference " +
                              std::to_string(reference.size()) + ", output " +
                              std::to_string(out.size()) + "; all must match"));
  for (std::size_t j = 0; j < pose.size(); ++j) {
    const Transform p = pose[j];
    const Transform& r = reference[j];
    Transform d;
    d.translation = p.translation - r.translation;
    d.rotation = detail::normalize_or(glm::conjugate(r.rotation) * p.rotation,
                                      quat_xyzw(0.0f, 0.0f, 0.0f, 1.0f));
    for (int c = 0; c < 3; ++c) d.scale[c] = r.scale[c] == 0.0f ? 1.0f : p.scale[c] / r.scale[c];
    out[j] = d;
  }
  return {};
}

Status BlendingJob::validate() const {
  if (!blending_path_available(path))
    return job_error("path", "this CPU cannot run the chosen blending path");
  if (!known_rotations(rotations))
    return job_error("rotations", "rotations must be kSlerp, kNlerp or kLerp");
  const bool soa = !soa_output.empty();
  if (const detail::FormProblem p = detail::soa_form_problem(soa, !soa_rest.empty(), soa_joints,
                                                             !rest.empty(), !output.empty());
      p.location != nullptr)
    return job_error(p.location, p.message);
  const std::size_t joints = soa ? soa_joints : rest.size();
  const std::size_t blocks = soa_blocks(joints);
  if (soa && soa_rest.size() != blocks)
    return job_error("soa_rest", "rest pose has " + std::to_string(soa_rest.size()) + " blocks, " +
                                     std::to_string(joints) + " joints need " +
                                     std::to_string(blocks));
  if (soa && soa_output.size() != blocks)
    return job_error("soa_output", "output has " + std::to_string(soa_output.size()) + " blocks, " +
                                       std::to_string(joints) + " joints need " +
                                       std::to_string(blocks));
  if (output.size() != rest.size())
    return job_error("output", "output has " + std::to_string(output.size()) +
                                   " transforms, rest pose has " + std::to_string(joints));
  if (output_weights.size() != default_weights.size())
    return job_error("output_weights",
                     "output weights have " + std::to_string(output_weights.size()) +
                         " entries, default weights " + std::to_string(default_weights.size()));
  const std::size_t meshes = mesh_count(mesh_offsets, default_weights.size());
  if (meshes == kBadOffsets)
    return job_error("mesh_offsets", "mesh offsets must ascend from 0 to the default weight count");
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const BlendingLayer& l = layers[i];
    const auto where = [&](const char* field) {
      return "layers/" + std::to_string(i) + "/" + field;
    };
    if (!std::isfinite(l.weight) || l.weight < 0.0f)
      return job_error(where("weight"), "layer weight must be finite and >= 0");
    if (soa && (!l.pose.empty() || l.soa_pose.size() != blocks))
      return job_error(where(l.pose.empty() ? "soa_pose" : "pose"),
                       "layer pose has " + std::to_string(l.pose.size()) + " transforms and " +
                           std::to_string(l.soa_pose.size()) + " blocks, the job needs 0 and " +
                           std::to_string(blocks));
    if (!soa && (l.pose.size() != joints || !l.soa_pose.empty()))
      return job_error(where(l.pose.size() != joints ? "pose" : "soa_pose"),
                       "layer pose has " + std::to_string(l.pose.size()) + " transforms and " +
                           std::to_string(l.soa_pose.size()) + " blocks, rest pose has " +
                           std::to_string(joints) + " transforms");
    if (!l.joint_weights.empty() && l.joint_weights.size() != joints)
      return job_error(where("joint_weights"),
                       "layer mask " + count_text(l.joint_weights.size(), "entries", joints));
    if (!l.sampled.empty() && l.sampled.size() != joints)
      return job_error(where("sampled"),
                       "layer sampled set " + count_text(l.sampled.size(), "entries", joints));
    if (!l.weights.empty() && l.weights.size() != default_weights.size())
      return job_error(where("weights"), "layer " + count_text(l.weights.size(), "morph weights",
                                                               default_weights.size()));
    if (!l.morph_coverage.empty() && l.morph_coverage.size() != meshes)
      return job_error(where("morph_coverage"),
                       "layer coverage " + count_text(l.morph_coverage.size(), "meshes", meshes));
  }
  return {};
}

Status BlendingJob::run() const {
  const bool soa = !soa_output.empty();
  static const BlendingPath widest = widest_path();
  detail::KernelLayer stack[kKernelLayers];
  detail::KernelArgs args;
  args.layers = stack;
  args.rotations = static_cast<detail::KernelRotations>(rotations);
  args.out =
      soa ? reinterpret_cast<float*>(soa_output.data()) : reinterpret_cast<float*>(output.data());
  const BlendingPath use = path == BlendingPath::kAuto ? widest : path;
  if (crossfade_stack(*this, stack[0], args.start)) {
    const detail::FlushDenormals no_denormals;
    args.layer_count = 1;
    if (soa) {
      crossfade_soa(use, args, soa_joints);
    } else {
      blend_joints(use, args, output.size());
    }
    return {};
  }
  UsualStack first;
  const bool usual = usual_stack(*this, stack, first);
  if (!usual) {
    if (auto ok = validate(); !ok) return ok;
  }
  if (!output.empty() || soa) {
    const detail::FlushDenormals no_denormals;
    // Layers from index i go to the kernels, at most kKernelLayers at a time (the usual job has
    // its stack already).
    std::size_t i = layers.size();
    if (!usual) {
      first = {};
      const std::size_t bottom = bottom_layer(layers);
      if (bottom > 0) first.bottom = &layers[bottom - 1];
      i = bottom;
    }
    bool start_call = true;
    do {
      bool per_joint = first.per_joint;
      args.layer_count = first.count;
      for (; i < layers.size() && args.layer_count < kKernelLayers; ++i) {
        const BlendingLayer& l = layers[i];
        if (!(l.weight > 0.0f)) continue;
        detail::KernelLayer& k = stack[args.layer_count++];
        to_kernel_layer(l, soa, args.rotations != detail::KernelRotations::kSlerp, k);
        per_joint = per_joint || !k.uniform;
      }
      first = {first.bottom};
      if (start_call) {
        // The output from the bottom layer (or rest) and the stack above it.
        const std::span<const SoaTransform> soa_start =
            first.bottom != nullptr ? first.bottom->soa_pose : soa_rest;
        const std::span<const Transform> start =
            first.bottom != nullptr ? first.bottom->pose : rest;
        if (args.layer_count == 0 && soa) {
          std::copy(soa_start.begin(), soa_start.end(), soa_output.begin());
        } else if (args.layer_count == 0) {
          std::copy(start.begin(), start.end(), output.begin());
        } else if (soa) {
          args.start = floats(soa_start);
          blend_soa(use, args, soa_joints, per_joint);
        } else {
          args.start = floats(start);
          blend_joints(use, args, output.size());
        }
      } else if (args.layer_count > 0) {
        // The output is the start now: the structure-of-arrays kernels and the scalar ones read
        // each joint before they write it.
        args.start = args.out;
        if (soa) {
          blend_soa(use, args, soa_joints, per_joint);
        } else {
          detail::blend_joints_scalar(args, 0, output.size());
        }
      }
      start_call = false;
    } while (i < layers.size());
  }
  blend_morph_weights(*this);
  return {};
}

}  // namespace critter::anim
