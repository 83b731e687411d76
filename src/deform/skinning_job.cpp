// SPDX-License-Identifier: MIT
#include "critter/deform/skinning_job.h"

#include <cmath>
#include <cstring>
#include <string>

#include "deform/skinning_kernels.h"

namespace critter::deform {

namespace {

constexpr std::size_t kMaxPalette = 65536;

Status usage(std::string message) {
  return fail(Error::at(ErrorCode::kUsage, "SkinningJob", {}, std::move(message)));
}

bool aligned4(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % alignof(float) == 0;
}

// Checks one vertex stream: present, 4-byte aligned, stride >= element size and a multiple of 4.
Status check_stream(const char* name, const void* data, std::size_t stride, std::size_t bytes,
                    bool allow_zero_stride) {
  if (data == nullptr) return usage(std::string(name) + " is null");
  if (!aligned4(data)) return usage(std::string(name) + " is not 4-byte aligned");
  if (stride == 0 && allow_zero_stride) return {};
  if (stride < bytes) {
    return usage(std::string(name) + " stride " + std::to_string(stride) +
                 " is smaller than its element (" + std::to_string(bytes) + " bytes)");
  }
  if (stride % 4 != 0) {
    return usage(std::string(name) + " stride " + std::to_string(stride) +
                 " is not a multiple of 4");
  }
  return {};
}

// Both sides of an optional stream are set, or neither.
Status check_pair(const char* name, const void* in, const void* out) {
  if ((in == nullptr) != (out == nullptr)) {
    return usage(std::string(name) + ": input and output must both be set or both be null");
  }
  return {};
}

inline const float* at(const char* base, std::size_t stride, std::size_t i) {
  return reinterpret_cast<const float*>(base + i * stride);
}
inline float* at(char* base, std::size_t stride, std::size_t i) {
  return reinterpret_cast<float*>(base + i * stride);
}

// Writes v / |v|, or 0 when |v| is 0. The reciprocal of a correctly rounded sqrt matches what the
// SIMD kernels compute lane by lane.
inline void store_normalized(float* out, float x, float y, float z) {
  const float len2 = x * x + y * y + z * z;
  if (len2 > 0.0f) {
    const float inv = 1.0f / std::sqrt(len2);
    out[0] = x * inv;
    out[1] = y * inv;
    out[2] = z * inv;
  } else {
    out[0] = out[1] = out[2] = 0.0f;
  }
}

}  // namespace

Status SkinningJob::validate() const {
  if (palette.empty()) return usage("palette is empty");
  if (palette.size() > kMaxPalette) {
    return usage("palette has " + std::to_string(palette.size()) +
                 " matrices, more than the 65536 a 16-bit joint index can address");
  }
  if (path == SkinningPath::kAvx2 && !cpu_has_avx2_fma()) {
    return usage("path kAvx2 needs a CPU with AVX2 and FMA");
  }
  if (path == SkinningPath::kAvx512 && !cpu_has_avx512()) {
    return usage("path kAvx512 needs a CPU with AVX-512 F and DQ");
  }
  if (normal_transform != NormalTransform::kInverseTranspose &&
      normal_transform != NormalTransform::kMatrix) {
    return usage("normal_transform is not a NormalTransform");
  }
  if (auto ok = check_pair("normals", in_normals.data, out_normals.data); !ok) return ok;
  if (auto ok = check_pair("tangents", in_tangents.data, out_tangents.data); !ok) return ok;
  if (vertex_count == 0) return {};
  if (joints.data == nullptr) return usage("joints is null");
  if (reinterpret_cast<std::uintptr_t>(joints.data) % alignof(std::uint16_t) != 0) {
    return usage("joints is not 2-byte aligned");
  }
  if (joints.stride != 0 && (joints.stride < 8 || joints.stride % 2 != 0)) {
    return usage("joints stride " + std::to_string(joints.stride) +
                 " must be 0 or at least 8 and a multiple of 2");
  }
  if (auto ok = check_stream("weights", weights.data, weights.stride, 16, true); !ok) return ok;
  if (auto ok = check_stream("in_positions", in_positions.data, in_positions.stride, 12, false);
      !ok) {
    return ok;
  }
  if (auto ok = check_stream("out_positions", out_positions.data, out_positions.stride, 12, false);
      !ok) {
    return ok;
  }
  if (in_normals.data != nullptr) {
    if (auto ok = check_stream("in_normals", in_normals.data, in_normals.stride, 12, false); !ok) {
      return ok;
    }
    if (auto ok = check_stream("out_normals", out_normals.data, out_normals.stride, 12, false);
        !ok) {
      return ok;
    }
  }
  if (in_tangents.data != nullptr) {
    if (auto ok = check_stream("in_tangents", in_tangents.data, in_tangents.stride, 16, false);
        !ok) {
      return ok;
    }
    if (auto ok = check_stream("out_tangents", out_tangents.data, out_tangents.stride, 16, false);
        !ok) {
      return ok;
    }
  }
  return {};
}

Status SkinningJob::run() const {
  if (auto ok = validate(); !ok) return ok;
  if (vertex_count == 0) return {};
  detail::SkinStreams s;
  s.count = vertex_count;
  s.palette = glm::value_ptr(palette[0]);
  s.palette_last = static_cast<std::uint32_t>(palette.size() - 1);
  s.joints = reinterpret_cast<const char*>(joints.data);
  s.joints_stride = joints.stride;
  s.weights = reinterpret_cast<const char*>(weights.data);
  s.weights_stride = weights.stride;
  s.in_positions = reinterpret_cast<const char*>(in_positions.data);
  s.in_positions_stride = in_positions.stride;
  s.in_normals = reinterpret_cast<const char*>(in_normals.data);
  s.in_normals_stride = in_normals.stride;
  s.in_tangents = reinterpret_cast<const char*>(in_tangents.data);
  s.in_tangents_stride = in_tangents.stride;
  s.out_positions = reinterpret_cast<char*>(out_positions.data);
  s.out_positions_stride = out_positions.stride;
  s.out_normals = reinterpret_cast<char*>(out_normals.data);
  s.out_normals_stride = out_normals.stride;
  s.out_tangents = reinterpret_cast<char*>(out_tangents.data);
  s.out_tangents_stride = out_tangents.stride;
  s.normals_by_matrix = normal_transform == NormalTransform::kMatrix;
  s.packed = s.joints_stride == 8 && s.weights_stride == 16 && s.in_positions_stride == 12 &&
             s.out_positions_stride == 12 &&
             (s.in_normals == nullptr || (s.in_normals_stride == 12 && s.out_normals_stride == 12));

  SkinningPath kernel = path;
  if (kernel == SkinningPath::kAuto) {
    // On Zen 4 the AVX2 kernel skins 5-20 % faster than the AVX-512 one (bench_skinning).
    kernel = cpu_has_avx512() && !cpu_splits_avx512() ? SkinningPath::kAvx512
             : cpu_has_avx2_fma()                     ? SkinningPath::kAvx2
                                                      : SkinningPath::kSse2;
  }

  // The AVX2 and AVX-512 kernels read each influence's whole 64-byte matrix; when the palette
  // does not start on a cache line (a std::vector<mat4> starts 16 bytes past one), every such
  // read spans two lines. A palette of up to kMaxCopied matrices is then copied to an aligned
  // buffer first (4 KB for 64 joints).
  constexpr std::size_t kMaxCopied = 256;
  alignas(64) float aligned[kMaxCopied * 16];
  if ((kernel == SkinningPath::kAvx2 || kernel == SkinningPath::kAvx512) && vertex_count > 16 &&
      palette.size() <= kMaxCopied && reinterpret_cast<std::uintptr_t>(palette.data()) % 64 != 0) {
    std::memcpy(aligned, palette.data(), palette.size_bytes());
    s.palette = aligned;
  }

  std::size_t done = 0;
  switch (kernel) {
    case SkinningPath::kScalar:
    case SkinningPath::kAuto:
      break;
    case SkinningPath::kSse2:
      done = detail::skin_sse2(s);
      break;
    case SkinningPath::kAvx2:
      done = detail::skin_avx2(s);
      break;
    case SkinningPath::kAvx512:
      done = detail::skin_avx512(s);
      break;
  }
  detail::skin_scalar(s, done);
  return {};
}

void SkinningJob::set_positions(std::span<const vec3> in, std::span<vec3> out) {
  vertex_count = in.size();
  in_positions = {in.empty() ? nullptr : glm::value_ptr(*in.data()), sizeof(vec3)};
  out_positions = {out.empty() ? nullptr : glm::value_ptr(*out.data()), sizeof(vec3)};
}

void SkinningJob::set_normals(std::span<const vec3> in, std::span<vec3> out) {
  in_normals = {in.empty() ? nullptr : glm::value_ptr(*in.data()), sizeof(vec3)};
  out_normals = {out.empty() ? nullptr : glm::value_ptr(*out.data()), sizeof(vec3)};
}

void SkinningJob::set_tangents(std::span<const vec4> in, std::span<vec4> out) {
  in_tangents = {in.empty() ? nullptr : glm::value_ptr(*in.data()), sizeof(vec4)};
  out_tangents = {out.empty() ? nullptr : glm::value_ptr(*out.data()), sizeof(vec4)};
}

void SkinningJob::set_influences(std::span<const glm::u16vec4> j, std::span<const vec4> w) {
  joints = {j.empty() ? nullptr : &j.data()->x, sizeof(glm::u16vec4)};
  weights = {w.empty() ? nullptr : glm::value_ptr(*w.data()), sizeof(vec4)};
}

namespace detail {

void skin_scalar(const SkinStreams& s, std::size_t begin) {
  for (std::size_t v = begin; v < s.count; ++v) {
    std::uint16_t jj[4];
    std::memcpy(jj, s.joints + v * s.joints_stride, sizeof(jj));
    const float* w = at(s.weights, s.weights_stride, v);
    // Blended upper 3x4 of the palette: m[c][r] = column c, row r.
    float m[4][3] = {};
    for (int k = 0; k < 4; ++k) {
      const std::uint32_t j = jj[k] <= s.palette_last ? jj[k] : s.palette_last;
      const float* p = s.palette + std::size_t{j} * 16;
      for (int c = 0; c < 4; ++c) {
        for (int r = 0; r < 3; ++r) m[c][r] += w[k] * p[c * 4 + r];
      }
    }
    const float* a = m[0];
    const float* b = m[1];
    const float* c = m[2];

    const float* p = at(s.in_positions, s.in_positions_stride, v);
    float* op = at(s.out_positions, s.out_positions_stride, v);
    const float px = p[0], py = p[1], pz = p[2];
    op[0] = a[0] * px + b[0] * py + c[0] * pz + m[3][0];
    op[1] = a[1] * px + b[1] * py + c[1] * pz + m[3][1];
    op[2] = a[2] * px + b[2] * py + c[2] * pz + m[3][2];

    // normalize(M3 * in) into `out`: how tangents, and normals under NormalTransform::kMatrix,
    // are turned.
    const auto store_turned = [&](const float* in, float* out) {
      const float x = in[0], y = in[1], z = in[2];
      store_normalized(out, a[0] * x + b[0] * y + c[0] * z, a[1] * x + b[1] * y + c[1] * z,
                       a[2] * x + b[2] * y + c[2] * z);
    };
    if (s.in_normals != nullptr && s.normals_by_matrix) {
      store_turned(at(s.in_normals, s.in_normals_stride, v),
                   at(s.out_normals, s.out_normals_stride, v));
    } else if (s.in_normals != nullptr) {
      // Cofactor columns: b x c, c x a, a x b (= det * inverse-transpose).
      const float c0x = b[1] * c[2] - b[2] * c[1];
      const float c0y = b[2] * c[0] - b[0] * c[2];
      const float c0z = b[0] * c[1] - b[1] * c[0];
      const float c1x = c[1] * a[2] - c[2] * a[1];
      const float c1y = c[2] * a[0] - c[0] * a[2];
      const float c1z = c[0] * a[1] - c[1] * a[0];
      const float c2x = a[1] * b[2] - a[2] * b[1];
      const float c2y = a[2] * b[0] - a[0] * b[2];
      const float c2z = a[0] * b[1] - a[1] * b[0];
      const float det = a[0] * c0x + a[1] * c0y + a[2] * c0z;
      const float* n = at(s.in_normals, s.in_normals_stride, v);
      const float nx = n[0], ny = n[1], nz = n[2];
      float x = c0x * nx + c1x * ny + c2x * nz;
      float y = c0y * nx + c1y * ny + c2y * nz;
      float z = c0z * nx + c1z * ny + c2z * nz;
      if (std::signbit(det)) {
        x = -x;
        y = -y;
        z = -z;
      }
      store_normalized(at(s.out_normals, s.out_normals_stride, v), x, y, z);
    }
    if (s.in_tangents != nullptr) {
      const float* t = at(s.in_tangents, s.in_tangents_stride, v);
      const float tw = t[3];
      float* ot = at(s.out_tangents, s.out_tangents_stride, v);
      store_turned(t, ot);
      ot[3] = tw;
    }
  }
}

}  // namespace detail

}  // namespace critter::deform
