// SPDX-License-Identifier: MIT
// Encoder side of specs/insomniac-model.md, written independently of the reader so that the
// round-trip tests compare two readings of the spec.
#include "support/insomniac_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <map>

#include <glm/gtc/packing.hpp>

namespace critter::testing {

namespace {

constexpr std::uint32_t kDat1 = 0x44415431u;
constexpr std::uint32_t kModelType = 0x98906B9Fu;

enum Tag : std::uint32_t {
  kBuilt = 0x283D0383u,
  kMaterial = 0x3250BB80u,
  kSubset = 0x78D9CBDEu,
  kLook = 0x06EB7EFCu,
  kLookBuilt = 0x811902D7u,
  kIndex = 0x0859863Du,
  kStdVert = 0xA98BE69Bu,
  kUv1 = 0x6B855EEDu,
  kColor = 0x5CBA9DE9u,
  kTexVert = 0x16F3BA18u,
  kJoint = 0x15DF9D3Bu,
  kBindPose = 0xDCC88A19u,
  kSkinBatch = 0xC61B1FF5u,
  kSkinData = 0xDCA379A2u,
  kSkinRemap = 0x5240C82Bu,
  kGpuSkin = 0xCCBAFF15u,
  kMorphInfo = 0x380A5744u,
  kMorphData = 0x5E709570u,
  kMorphIndices = 0xA600C108u,
  kLocator = 0x9F614FABu,
};

using Bytes = std::vector<std::uint8_t>;

void put8(Bytes& b, std::size_t at, std::uint8_t v) {
  if (b.size() < at + 1) b.resize(at + 1);
  b[at] = v;
}
void put16(Bytes& b, std::size_t at, std::uint16_t v) {
  put8(b, at, static_cast<std::uint8_t>(v));
  put8(b, at + 1, static_cast<std::uint8_t>(v >> 8));
}
void put32(Bytes& b, std::size_t at, std::uint32_t v) {
  put16(b, at, static_cast<std::uint16_t>(v));
  put16(b, at + 2, static_cast<std::uint16_t>(v >> 16));
}
void put64(Bytes& b, std::size_t at, std::uint64_t v) {
  put32(b, at, static_cast<std::uint32_t>(v));
  put32(b, at + 4, static_cast<std::uint32_t>(v >> 32));
}
void putf(Bytes& b, std::size_t at, float v) {
  put32(b, at, std::bit_cast<std::uint32_t>(v));
}
void pad_to(Bytes& b, std::size_t align) {
  while (b.size() % align) b.push_back(0);
}

std::int16_t quantize16(float v) {
  const float r = std::round(v);
  return static_cast<std::int16_t>(std::clamp(r, -32768.0f, 32767.0f));
}

// Equal-area projection of a unit vector: two 10-bit codes and the z sign.
void lambert_codes(vec3 n, std::uint32_t& a, std::uint32_t& b, bool& z_positive) {
  constexpr float kSqrt2 = 1.41421356237f;
  constexpr float kQ = 2.0f * kSqrt2 / 1023.0f;
  n = glm::normalize(n);
  z_positive = n.z >= 0.0f;
  const float az = std::min(1.0f, std::abs(n.z));
  const float s = 2.0f * (1.0f - az);
  const float w = std::sqrt(std::max(0.0f, 1.0f - s / 4.0f));
  float x = 0.0f, y = 0.0f;
  if (w > 0.0f) {
    x = n.x / w;
    y = n.y / w;
  }
  a = static_cast<std::uint32_t>(std::lround((x + kSqrt2) / kQ)) & 0x3FFu;
  b = static_cast<std::uint32_t>(std::lround((y + kSqrt2) / kQ)) & 0x3FFu;
}

// String pool whose offsets are patched once the DAT1 string block position is known.
struct Strings {
  Bytes pool;
  struct Fix {
    std::size_t section;
    std::size_t at;
    int width;
    std::uint32_t offset;
  };
  std::vector<Fix> fixes;
  std::uint32_t add(const std::string& s) {
    const auto at = static_cast<std::uint32_t>(pool.size());
    pool.insert(pool.end(), s.begin(), s.end());
    pool.push_back(0);
    return at;
  }
  void ref(std::size_t section, std::size_t at, int width, const std::string& s) {
    fixes.push_back({section, at, width, add(s)});
  }
};

struct Out {
  std::vector<std::pair<std::uint32_t, Bytes>> sections;
  std::size_t add(std::uint32_t tag, Bytes b) {
    sections.emplace_back(tag, std::move(b));
    return sections.size() - 1;
  }
  Bytes& at(std::size_t i) { return sections[i].second; }
};

struct Influences {
  std::vector<std::pair<std::uint16_t, float>> list;  // model joint, weight; sorted, non-zero
};

Influences influences_of(const RawModel& model, const Mesh& mesh, const VertexStreams& s,
                         std::size_t v) {
  Influences out;
  const Skin& skin = model.skins[static_cast<std::size_t>(mesh.skin)];
  for (int k = 0; k < 4; ++k) {
    if (s.weights[v][k] <= 0.0f) continue;
    const auto joint = static_cast<std::uint16_t>(skin.joints[s.joints[v][k]]);
    auto it = std::find_if(out.list.begin(), out.list.end(),
                           [&](const auto& p) { return p.first == joint; });
    if (it != out.list.end())
      it->second += s.weights[v][k];
    else
      out.list.emplace_back(joint, s.weights[v][k]);
  }
  std::stable_sort(out.list.begin(), out.list.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

}  // namespace

const InsomniacWrittenSection& InsomniacWrittenFile::section(std::uint32_t tag) const {
  for (const auto& s : sections)
    if (s.tag == tag) return s;
  ADD_FAILURE() << "no section " << std::hex << tag;
  static InsomniacWrittenSection none;
  return none;
}

std::uint32_t test_insomniac_crc32(std::string_view bytes) {
  std::uint32_t crc = 0xEDB88320u;
  for (char ch : bytes) {
    crc ^= static_cast<std::uint8_t>(ch);
    for (int k = 0; k < 8; ++k) crc = (crc & 1u) ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
  }
  return crc;
}

std::uint32_t test_encode_insomniac_normal(const vec3& n) {
  std::uint32_t a = 0, b = 0;
  bool zpos = true;
  lambert_codes(n, a, b, zpos);
  return a | (b << 10) | (zpos ? 0x80000000u : 0u);
}

std::vector<std::uint16_t> test_delta_encode(const std::vector<std::uint16_t>& values) {
  std::vector<std::uint16_t> out(values.size());
  std::uint16_t prev = 0;
  for (std::size_t k = 0; k < values.size(); ++k) {
    out[k] = static_cast<std::uint16_t>(values[k] - prev);
    prev = values[k];
  }
  return out;
}

InsomniacWrittenFile write_insomniac_model(const RawModel& model,
                                           const InsomniacWriteOptions& opt) {
  const bool so = opt.game == InsomniacTestGame::kSo;
  const bool msmr_rules = opt.game == InsomniacTestGame::kMsmr ||
                          opt.game == InsomniacTestGame::kMm ||
                          opt.game == InsomniacTestGame::kCc9d;
  Out out;
  Strings strings;

  // Flatten parts into subsets.
  struct Sub {
    const Mesh* mesh;
    const MeshPart* part;
    std::uint32_t vertex_start, index_start;
  };
  std::vector<Sub> subs;
  std::uint32_t vtotal = 0, itotal = 0;
  for (const Mesh& mesh : model.meshes)
    for (const MeshPart& part : mesh.parts) {
      subs.push_back({&mesh, &part, vtotal, itotal});
      vtotal += static_cast<std::uint32_t>(part.vertex_count());
      itotal += static_cast<std::uint32_t>(part.indices.size());
    }

  // Built.
  {
    Bytes b(so ? 72 : 120, 0);
    if (!so) {
      putf(b, 0x2C, opt.position_scale);
      put32(b, 0x30, opt.uv_shift);
      put32(b, 0x64, itotal);
      put32(b, 0x68, vtotal);
    }
    out.add(kBuilt, std::move(b));
  }
  // Materials.
  if (!model.materials.empty()) {
    const std::size_t n = model.materials.size();
    Bytes b(32 * n, 0);
    const std::size_t idx = out.sections.size();
    for (std::size_t i = 0; i < n; ++i) {
      const std::string& name = model.materials[i].name;
      const std::string path =
          i < opt.material_paths.size() ? opt.material_paths[i] : "materials/" + name + ".material";
      if (so) {
        strings.ref(idx, 32 * i, 4, path);
        strings.ref(idx, 32 * i + 4, 4, name);
      } else {
        strings.ref(idx, 16 * i, 8, path);
        strings.ref(idx, 16 * i + 8, 8, name);
        std::string lower = name;
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        put64(b, 16 * n + 16 * i, 0x8000000000000000ull | i);
        put32(b, 16 * n + 16 * i + 8, test_insomniac_crc32(lower));
      }
    }
    out.add(kMaterial, std::move(b));
  }

  // Skin batches and data, per skinned subset.
  Bytes batches, skin_data, remap, gpu(8 * std::size_t{vtotal}, 0);
  std::vector<std::pair<std::uint16_t, std::uint16_t>> sub_batches(subs.size(), {0, 0});
  bool any_skin = false;
  for (std::size_t si = 0; si < subs.size(); ++si) {
    const Sub& sub = subs[si];
    const VertexStreams& s = sub.part->streams;
    if (sub.mesh->skin < 0 || s.joints.empty()) continue;
    any_skin = true;
    const std::uint32_t vc = static_cast<std::uint32_t>(s.positions.size());
    sub_batches[si].first = static_cast<std::uint16_t>(batches.size() / 16);
    for (std::uint32_t first = 0; first < vc; first += opt.batch_vertices) {
      const std::uint32_t n = std::min(opt.batch_vertices, vc - first);
      std::vector<Influences> infl(n);
      for (std::uint32_t v = 0; v < n; ++v) infl[v] = influences_of(model, *sub.mesh, s, first + v);
      std::vector<std::uint16_t> table;
      const auto local_of = [&](std::uint16_t joint) -> std::uint8_t {
        if (!opt.remap_tables) return static_cast<std::uint8_t>(joint);
        auto it = std::find(table.begin(), table.end(), joint);
        return static_cast<std::uint8_t>(it - table.begin());
      };
      if (opt.remap_tables) {
        for (const auto& in : infl)
          for (const auto& p : in.list)
            if (std::find(table.begin(), table.end(), p.first) == table.end())
              table.push_back(p.first);
        // A reversed table so that local ids differ from model joints.
        std::reverse(table.begin(), table.end());
      }
      const std::size_t rec = batches.size();
      put32(batches, rec, static_cast<std::uint32_t>(skin_data.size()));
      put32(batches, rec + 4, opt.remap_tables ? static_cast<std::uint32_t>(remap.size()) : 0);
      put16(batches, rec + 8, static_cast<std::uint16_t>(table.size()));
      put16(batches, rec + 10, 0x4000);
      put16(batches, rec + 12, static_cast<std::uint16_t>(n));
      put16(batches, rec + 14, static_cast<std::uint16_t>(first));
      for (std::uint16_t j : table) put16(remap, remap.size(), j);
      for (std::uint32_t g0 = 0; g0 < n; g0 += 16) {
        const std::uint32_t gn = std::min<std::uint32_t>(16, n - g0);
        std::size_t k = 1;
        for (std::uint32_t v = g0; v < g0 + gn; ++v) k = std::max(k, infl[v].list.size());
        skin_data.push_back(static_cast<std::uint8_t>(k - 1));
        for (std::uint32_t v = g0; v < g0 + gn; ++v) {
          const auto& list = infl[v].list;
          if (k == 1) {
            skin_data.push_back(local_of(list.empty() ? 0 : list[0].first));
            continue;
          }
          // weight[0] = 256 - sum(others); one real bone -> (255, +1 on the same joint).
          const std::uint8_t j0 = local_of(list.empty() ? 0 : list[0].first);
          std::vector<std::pair<std::uint8_t, int>> pairs(1, {j0, 0});
          int others = 0;
          for (std::size_t q = 1; q < list.size(); ++q) {
            const int w = static_cast<int>(std::lround(list[q].second * 256.0f));
            pairs.emplace_back(local_of(list[q].first), w);
            others += w;
          }
          if (others == 0) {
            pairs.resize(1);
            pairs.emplace_back(j0, 1);
            others = 1;
          }
          pairs[0].second = 256 - others;
          while (pairs.size() < k) pairs.emplace_back(pairs.back().first, 0);
          for (const auto& p : pairs) {
            skin_data.push_back(p.first);
            skin_data.push_back(static_cast<std::uint8_t>(p.second));
          }
        }
      }
      if (opt.gpu_skin) {
        for (std::uint32_t v = 0; v < n; ++v) {
          const auto& list = infl[v].list;
          if (list.empty()) continue;
          const std::size_t at = 8 * (std::size_t{sub.vertex_start} + first + v);
          int rest = 255;
          for (std::size_t q = 0; q < 4; ++q) {
            const bool real = q < list.size();
            const std::uint8_t j = local_of(real ? list[q].first : list[0].first);
            int w = 0;
            if (real) w = q == 0 ? 0 : static_cast<int>(std::lround(list[q].second * 255.0f));
            if (q > 0) rest -= w;
            gpu[at + q] = j;
            gpu[at + 4 + q] = static_cast<std::uint8_t>(w);
          }
          gpu[at + 4] = static_cast<std::uint8_t>(rest);
        }
      }
      ++sub_batches[si].second;
    }
  }

  // Subsets.
  {
    Bytes b(64 * subs.size(), 0);
    for (std::size_t si = 0; si < subs.size(); ++si) {
      const Sub& sub = subs[si];
      const std::size_t r = 64 * si;
      const bool skinned = sub.mesh->skin >= 0 && !sub.part->streams.joints.empty();
      std::uint16_t flags = opt.local_indices ? 0x10 : 0;
      if (skinned) flags |= 0x1;
      if (skinned && opt.gpu_skin) flags |= 0x100;
      const auto vc = static_cast<std::uint32_t>(sub.part->vertex_count());
      const auto ic = static_cast<std::uint32_t>(sub.part->indices.size());
      const auto mat = static_cast<std::uint16_t>(std::max(0, sub.part->material));
      if (so) {
        put32(b, r + 0x10, sub.vertex_start);
        put32(b, r + 0x14, sub.index_start);
        put32(b, r + 0x18, ic);
        put16(b, r + 0x1C, static_cast<std::uint16_t>(vc));
        put16(b, r + 0x20, flags);
        put16(b, r + 0x22, mat);
        put16(b, r + 0x24, sub_batches[si].first);
        put16(b, r + 0x26, sub_batches[si].second);
      } else {
        put32(b, r + 0x14, sub.vertex_start);
        put32(b, r + 0x18, sub.index_start);
        put32(b, r + 0x1C, ic);
        put32(b, r + 0x20, vc);
        put16(b, r + 0x24, flags);
        put16(b, r + 0x26, mat);
        put16(b, r + 0x28, sub_batches[si].first);
        put16(b, r + 0x2A, sub_batches[si].second);
      }
      put32(b, r + 0x38, sub.vertex_start);
    }
    out.add(kSubset, std::move(b));
  }
  // Looks.
  {
    const std::size_t slots = so ? 4 : 8;
    auto looks = opt.looks;
    if (looks.empty()) looks.push_back({{0, static_cast<std::uint16_t>(subs.size())}});
    Bytes b(4 * slots * looks.size(), 0);
    for (std::size_t i = 0; i < looks.size(); ++i)
      for (std::size_t k = 0; k < looks[i].size() && k < slots; ++k) {
        put16(b, 4 * slots * i + 4 * k, looks[i][k].first);
        put16(b, 4 * slots * i + 4 * k + 2, looks[i][k].second);
      }
    out.add(kLook, std::move(b));
    if (!so && !opt.look_names.empty()) {
      Bytes lb(80 * looks.size() + 8, 0);
      const std::size_t idx = out.sections.size();
      for (std::size_t i = 0; i < looks.size() && i < opt.look_names.size(); ++i) {
        const std::string& name = opt.look_names[i];
        std::string lower = name;
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        put32(lb, 80 * i + 64, 1);
        put32(lb, 80 * i + 68, test_insomniac_crc32(name));
        put32(lb, 80 * i + 72, test_insomniac_crc32(lower));
        strings.ref(idx, 80 * i + 76, 4, name);
      }
      put32(lb, 0, static_cast<std::uint32_t>(80 * looks.size()));
      out.add(kLookBuilt, std::move(lb));
    }
  }
  // Skeleton.
  const std::size_t jn = model.skeleton.joints.size();
  if (jn > 0) {
    Bytes b(16 * jn, 0);
    const std::size_t idx = out.sections.size();
    std::vector<std::uint16_t> subtree(jn, 0);
    for (std::size_t i = jn; i-- > 0;) {
      const int p = model.skeleton.joints[i].parent;
      if (p >= 0) subtree[static_cast<std::size_t>(p)] += subtree[i] + 1;
    }
    for (std::size_t i = 0; i < jn; ++i) {
      const RawJoint& j = model.skeleton.joints[i];
      put16(b, 16 * i, static_cast<std::uint16_t>(static_cast<std::int16_t>(j.parent)));
      put16(b, 16 * i + 2, static_cast<std::uint16_t>(i));
      put16(b, 16 * i + 4, subtree[i]);
      put32(b, 16 * i + 8, test_insomniac_crc32(j.name));
      strings.ref(idx, 16 * i + 12, 4, j.name);
    }
    out.add(kJoint, std::move(b));

    std::vector<mat4> world(jn);
    for (std::size_t i = 0; i < jn; ++i) {
      const RawJoint& j = model.skeleton.joints[i];
      world[i] = (j.parent < 0 ? mat4(1.0f) : world[static_cast<std::size_t>(j.parent)]) *
                 j.rest.to_matrix();
    }
    const std::size_t part_b = (48 * jn + 63) / 64 * 64;
    Bytes bp(part_b + 64 * jn, 0);
    for (std::size_t i = 0; i < jn; ++i) {
      const Transform& t = model.skeleton.joints[i].rest;
      const float a[12] = {t.scale.x,       t.scale.y,       t.scale.z,       0.0f,
                           t.rotation.x,    t.rotation.y,    t.rotation.z,    t.rotation.w,
                           t.translation.x, t.translation.y, t.translation.z, 0.0f};
      for (int k = 0; k < 12; ++k) putf(bp, 48 * i + 4 * static_cast<std::size_t>(k), a[k]);
      mat4 ib = glm::inverse(world[i]);
      if (!model.skins.empty())
        for (std::size_t q = 0; q < model.skins[0].joints.size(); ++q)
          if (static_cast<std::size_t>(model.skins[0].joints[q]) == i &&
              q < model.skins[0].inverse_bind.size())
            ib = model.skins[0].inverse_bind[q];
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
          putf(bp, part_b + 64 * i + 4 * static_cast<std::size_t>(4 * c + r), ib[c][r]);
    }
    out.add(kBindPose, std::move(bp));
  }
  if (!opt.locators.empty()) {
    Bytes b(64 * opt.locators.size(), 0);
    const std::size_t idx = out.sections.size();
    for (std::size_t i = 0; i < opt.locators.size(); ++i) {
      const auto& l = opt.locators[i];
      put32(b, 64 * i, test_insomniac_crc32(l.name));
      strings.ref(idx, 64 * i + 4, 4, l.name);
      put32(b, 64 * i + 8, static_cast<std::uint32_t>(l.joint));
      const mat4 m = l.local.to_matrix();
      for (int row = 0; row < 4; ++row)
        for (int c = 0; c < 3; ++c)
          putf(b, 64 * i + 16 + 4 * static_cast<std::size_t>(row * 3 + c), m[row][c]);
    }
    out.add(kLocator, std::move(b));
  }
  if (any_skin) {
    out.add(kSkinBatch, batches);
    out.add(kSkinData, skin_data);
    if (!remap.empty()) out.add(kSkinRemap, remap);
    if (opt.gpu_skin) out.add(kGpuSkin, gpu);
  }

  // Morphs: mesh targets grouped by name across subsets.
  {
    struct Use {
      std::size_t subset;
      std::size_t target;
    };
    std::vector<std::string> names;
    std::map<std::string, std::vector<Use>> uses;
    for (std::size_t si = 0; si < subs.size(); ++si) {
      const Mesh& mesh = *subs[si].mesh;
      for (std::size_t t = 0; t < subs[si].part->morphs.target_count(); ++t) {
        const std::string name =
            t < mesh.morph_names.size() ? mesh.morph_names[t] : "target" + std::to_string(t);
        if (!uses.count(name)) names.push_back(name);
        uses[name].push_back({si, t});
      }
    }
    if (!names.empty()) {
      Bytes info(24, 0), data, ids;
      const std::size_t info_idx = out.sections.size();
      put16(info, 8, static_cast<std::uint16_t>(names.size()));
      put32(info, 12, 24);
      put32(info, 16, static_cast<std::uint32_t>(24 + 8 * names.size()));
      put32(info, 20, 2);
      info.resize(24 + 8 * names.size());
      for (std::size_t mi = 0; mi < names.size(); ++mi) {
        const auto& list = uses[names[mi]];
        const std::uint32_t bits = opt.morph_bits;
        const float qmax = static_cast<float>((1u << bits) - 1);
        bool with_normals = false;
        float pmin = 0, pmax = 0, nmin = 0, nmax = 0;
        bool first = true;
        for (const Use& u : list) {
          const MorphTarget& t = subs[u.subset].part->morphs.targets[u.target];
          if (!t.normals.empty())
            for (const vec3& n : t.normals)
              if (n != vec3(0.0f)) with_normals = true;
          for (std::size_t v = 0; v < t.positions.size(); ++v) {
            const vec3 p = t.positions[v];
            const vec3 n = t.normals.empty() ? vec3(0.0f) : t.normals[v];
            if (p == vec3(0.0f) && n == vec3(0.0f)) continue;
            for (int c = 0; c < 3; ++c) {
              pmin = first ? p[c] : std::min(pmin, p[c]);
              pmax = first ? p[c] : std::max(pmax, p[c]);
              nmin = first ? n[c] : std::min(nmin, n[c]);
              nmax = first ? n[c] : std::max(nmax, n[c]);
              first = false;
            }
          }
        }
        const float pscale = (pmax - pmin) / qmax, nscale = (nmax - nmin) / qmax;
        const std::uint8_t elements = with_normals ? 2 : 1;
        pad_to(info, 16);
        const std::size_t h = info.size();
        put32(info, 24 + 8 * mi, test_insomniac_crc32(names[mi]));
        put32(info, 24 + 8 * mi + 4, static_cast<std::uint32_t>(h));
        info.resize(h + 0x30, 0);
        put32(info, h, test_insomniac_crc32(names[mi]));
        strings.ref(info_idx, h + 4, 4, names[mi]);
        pad_to(data, 4);
        const std::size_t data0 = data.size(), ids0 = ids.size();
        put32(info, h + 8, static_cast<std::uint32_t>(data0));
        put32(info, h + 12, static_cast<std::uint32_t>(ids0));
        put8(info, h + 0x10, elements);
        put8(info, h + 0x11, static_cast<std::uint8_t>(3 * bits));
        put8(info, h + 0x12, static_cast<std::uint8_t>(bits));
        putf(info, h + 0x14, pscale);
        putf(info, h + 0x18, pmin);
        putf(info, h + 0x1C, nscale);
        putf(info, h + 0x20, nmin);
        const std::size_t sc = list.size();
        put16(info, h + 0x24, static_cast<std::uint16_t>(sc));
        const std::size_t arr = h + 0x30;
        const std::size_t p_data = (arr + sc + 3) / 4 * 4;
        const std::size_t p_counts = p_data + 8 * sc;
        const std::size_t p_pages = (p_counts + 2 * sc + 3) / 4 * 4;
        const std::size_t tables = (p_pages + 2 * sc + 3) / 4 * 4;
        info.resize(tables, 0);
        std::size_t entries = 0;
        for (std::size_t k = 0; k < sc; ++k) {
          const Use& u = list[k];
          const MorphTarget& t = subs[u.subset].part->morphs.targets[u.target];
          put8(info, arr + k, static_cast<std::uint8_t>(u.subset));
          put32(info, p_data + 4 * k, static_cast<std::uint32_t>(data.size() - data0));
          put32(info, p_data + 4 * sc + 4 * k, static_cast<std::uint32_t>(ids.size() - ids0));
          put16(info, p_pages + 2 * k, static_cast<std::uint16_t>(entries));
          std::vector<std::uint32_t> changed;
          for (std::size_t v = 0; v < t.positions.size(); ++v) {
            const vec3 n = t.normals.empty() ? vec3(0.0f) : t.normals[v];
            if (t.positions[v] != vec3(0.0f) || n != vec3(0.0f))
              changed.push_back(static_cast<std::uint32_t>(v));
          }
          put16(info, p_counts + 2 * k, static_cast<std::uint16_t>(changed.size()));
          std::size_t c0 = 0;
          for (std::uint32_t page = 0; c0 < changed.size(); ++page) {
            const std::uint32_t lo = page * 0xA00, hi = lo + 0xA00;
            std::size_t c1 = c0;
            while (c1 < changed.size() && changed[c1] < hi) ++c1;
            // Runs of consecutive ids, at most 32 long (32 is written as 0).
            std::uint32_t runs = 0, cur = lo;
            for (std::size_t q = c0; q < c1;) {
              std::size_t e = q + 1;
              while (e < c1 && changed[e] == changed[e - 1] + 1 && e - q < 32) ++e;
              const auto read = static_cast<std::uint32_t>(e - q);
              put16(ids, ids.size(), static_cast<std::uint16_t>(changed[q] - cur));
              put16(ids, ids.size(), static_cast<std::uint16_t>(read == 32 ? 0 : read));
              cur = changed[q] + read;
              ++runs;
              q = e;
            }
            const std::size_t entry = info.size();
            put16(info, entry, static_cast<std::uint16_t>(c1 - c0));
            put32(info, entry + 2, runs);
            ++entries;
            // MSB-first bit stream of quantised deltas.
            std::vector<bool> bitsv;
            const auto emit = [&](float value, float lo_v, float scale) {
              const std::uint32_t q =
                  scale > 0.0f ? static_cast<std::uint32_t>(std::lround((value - lo_v) / scale))
                               : 0u;
              for (int bb = static_cast<int>(bits) - 1; bb >= 0; --bb)
                bitsv.push_back((q >> bb) & 1u);
            };
            for (std::size_t q = c0; q < c1; ++q) {
              const vec3 p = t.positions[changed[q]];
              for (int c = 0; c < 3; ++c) emit(p[c], pmin, pscale);
              if (elements == 2) {
                const vec3 n = t.normals.empty() ? vec3(0.0f) : t.normals[changed[q]];
                for (int c = 0; c < 3; ++c) emit(n[c], nmin, nscale);
              }
            }
            Bytes page_bytes((bitsv.size() + 7) / 8, 0);
            for (std::size_t bb = 0; bb < bitsv.size(); ++bb)
              if (bitsv[bb]) page_bytes[bb / 8] |= static_cast<std::uint8_t>(0x80u >> (bb % 8));
            data.insert(data.end(), page_bytes.begin(), page_bytes.end());
            pad_to(data, 4);
            c0 = c1;
          }
        }
        put16(info, h + 0x26, static_cast<std::uint16_t>(info.size() - arr));
        put32(info, h + 0x28, static_cast<std::uint32_t>(data.size() - data0));
        put32(info, h + 0x2C, static_cast<std::uint32_t>(ids.size() - ids0));
      }
      put32(info, 4, static_cast<std::uint32_t>(data.size() + ids.size()));
      out.add(kMorphInfo, std::move(info));
      out.add(kMorphData, std::move(data));
      out.add(kMorphIndices, std::move(ids));
    }
  }
  for (const auto& [tag, bytes] : opt.extra_sections) out.add(tag, bytes);

  // Index buffer.
  {
    std::vector<std::uint16_t> values;
    for (const Sub& sub : subs) {
      const auto& idx = sub.part->indices;
      for (std::size_t t = 0; t + 2 < idx.size(); t += 3)
        for (int c = 0; c < 3; ++c) {
          const std::uint32_t local = idx[t + static_cast<std::size_t>(opt.clockwise ? 2 - c : c)];
          values.push_back(
              static_cast<std::uint16_t>(opt.local_indices ? local : local + sub.vertex_start));
        }
    }
    if (msmr_rules) values = test_delta_encode(values);
    Bytes b;
    for (std::uint16_t v : values) put16(b, b.size(), v);
    out.add(kIndex, std::move(b));
  }
  // Per-vertex lanes.
  std::vector<std::uint32_t> ln(vtotal);
  std::vector<std::int16_t> lx(vtotal), ly(vtotal), lz(vtotal), lw(vtotal), lu(vtotal), lv(vtotal);
  bool any_uv1 = false, any_color = false;
  const float uv0_scale = static_cast<float>(1u << (opt.uv_shift & 0xFu)) / 16384.0f;
  const float uv1_scale = static_cast<float>(1u << ((opt.uv_shift >> 4) & 0xFu)) / 16384.0f;
  Bytes uv1(4 * std::size_t{vtotal}, 0), col(4 * std::size_t{vtotal}, 0),
      tex((opt.so_four_halves ? 8 : 4) * std::size_t{vtotal}, 0);
  for (const Sub& sub : subs) {
    const VertexStreams& s = sub.part->streams;
    for (std::size_t k = 0; k < s.positions.size(); ++k) {
      const std::size_t g = sub.vertex_start + k;
      const vec3 p = s.positions[k] / opt.position_scale;
      lx[g] = quantize16(p.x);
      ly[g] = quantize16(p.y);
      lz[g] = quantize16(p.z);
      const vec3 n = s.normals.empty() ? vec3(0, 0, 1) : s.normals[k];
      std::uint32_t word = test_encode_insomniac_normal(n);
      vec4 t = s.tangents.empty() ? vec4(0.0f) : s.tangents[k];
      if (s.tangents.empty()) {
        const vec3 a = std::abs(n.z) < 0.9f ? vec3(0, 0, 1) : vec3(1, 0, 0);
        t = vec4(glm::normalize(glm::cross(a, n)), 1.0f);
      }
      std::uint32_t ta = 0, tb = 0;
      bool tz = true;
      lambert_codes(vec3(t), ta, tb, tz);
      word |= (ta << 20) | (tz ? 0x40000000u : 0u);
      std::int32_t w = static_cast<std::int32_t>(0x7C00u | tb);
      if (t.w > 0.0f) w = -w;  // W < 0 <=> glTF tangent w = +1
      ln[g] = word;
      lw[g] = static_cast<std::int16_t>(w);
      if (opt.no_tangent_frames) {
        ln[g] = 0x7FF80200u;
        lw[g] = 0x7E;
      }
      const vec2 uv = s.uv0.empty() ? vec2(0.0f) : s.uv0[k];
      if (!so) {
        lu[g] = quantize16(uv.x / uv0_scale);
        lv[g] = quantize16(uv.y / uv0_scale);
      } else {
        const std::size_t stride = opt.so_four_halves ? 8 : 4;
        put16(tex, stride * g, glm::packHalf1x16(uv.x));
        put16(tex, stride * g + 2, glm::packHalf1x16(uv.y));
        if (opt.so_four_halves) {
          put16(tex, stride * g + 4, glm::packHalf1x16(0.5f));
          put16(tex, stride * g + 6, glm::packHalf1x16(-0.5f));
        }
      }
      if (!s.uv1.empty()) {
        any_uv1 = true;
        put16(uv1, 4 * g, static_cast<std::uint16_t>(quantize16(s.uv1[k].x / uv1_scale)));
        put16(uv1, 4 * g + 2, static_cast<std::uint16_t>(quantize16(s.uv1[k].y / uv1_scale)));
      }
      if (!s.colors.empty()) {
        any_color = true;
        for (int c = 0; c < 4; ++c)
          col[4 * g + static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(
              std::lround(std::clamp(s.colors[k][c], 0.0f, 1.0f) * 255.0f));
      }
    }
  }
  if (any_uv1) out.add(kUv1, std::move(uv1));
  if (any_color) out.add(kColor, std::move(col));
  if (so) out.add(kTexVert, std::move(tex));
  {
    Bytes b(16 * std::size_t{vtotal}, 0);
    if (msmr_rules) {
      for (std::size_t c0 = 0; c0 < vtotal; c0 += 0x8000) {
        const std::size_t n = std::min<std::size_t>(0x8000, vtotal - c0);
        const std::size_t at = 16 * c0;
        std::uint32_t pn = 0;
        std::uint16_t prev[6] = {0, 0, 0, 0, 0, 0};
        for (std::size_t k = 0; k < n; ++k) {
          const std::size_t g = c0 + k;
          put32(b, at + 4 * k, ln[g] ^ pn);
          pn = ln[g];
          const std::int16_t lanes[6] = {lx[g], ly[g], lz[g], lw[g], lu[g], lv[g]};
          for (std::size_t l = 0; l < 6; ++l) {
            const auto v = static_cast<std::uint16_t>(lanes[l]);
            put16(b, at + (4 + 2 * l) * n + 2 * k, static_cast<std::uint16_t>(v ^ prev[l]));
            prev[l] = v;
          }
        }
      }
    } else {
      for (std::size_t g = 0; g < vtotal; ++g) {
        put16(b, 16 * g, static_cast<std::uint16_t>(lx[g]));
        put16(b, 16 * g + 2, static_cast<std::uint16_t>(ly[g]));
        put16(b, 16 * g + 4, static_cast<std::uint16_t>(lz[g]));
        put16(b, 16 * g + 6, static_cast<std::uint16_t>(lw[g]));
        put32(b, 16 * g + 8, ln[g]);
        put16(b, 16 * g + 12, static_cast<std::uint16_t>(lu[g]));
        put16(b, 16 * g + 14, static_cast<std::uint16_t>(lv[g]));
      }
    }
    out.add(kStdVert, std::move(b));
  }

  // DAT1 assembly: header, table sorted by tag, strings, 16-aligned payloads in order.
  const std::size_t sc = out.sections.size();
  const std::size_t strings_at = 16 + 12 * sc;
  for (const auto& f : strings.fixes) {
    Bytes& b = out.at(f.section);
    const std::uint64_t off = strings_at + f.offset;
    if (f.width == 8)
      put64(b, f.at, off);
    else
      put32(b, f.at, static_cast<std::uint32_t>(off));
  }
  Bytes dat1(strings_at, 0);
  dat1.insert(dat1.end(), strings.pool.begin(), strings.pool.end());
  std::vector<std::uint64_t> offsets(sc);
  for (std::size_t i = 0; i < sc; ++i) {
    pad_to(dat1, 16);
    offsets[i] = dat1.size();
    dat1.insert(dat1.end(), out.sections[i].second.begin(), out.sections[i].second.end());
  }
  put32(dat1, 0, kDat1);
  put32(dat1, 4, kModelType);
  put32(dat1, 8, static_cast<std::uint32_t>(dat1.size()));
  put16(dat1, 12, static_cast<std::uint16_t>(sc));
  put16(dat1, 14, 0);
  std::vector<std::size_t> order(sc);
  for (std::size_t i = 0; i < sc; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return out.sections[a].first < out.sections[b].first;
  });

  InsomniacWrittenFile file;
  file.dat1_offset = opt.bare_dat1 ? 0 : 36;
  std::uint64_t index_offset = 0;
  for (std::size_t e = 0; e < sc; ++e) {
    const std::size_t i = order[e];
    put32(dat1, 16 + 12 * e, out.sections[i].first);
    put32(dat1, 16 + 12 * e + 4, static_cast<std::uint32_t>(offsets[i]));
    put32(dat1, 16 + 12 * e + 8, static_cast<std::uint32_t>(out.sections[i].second.size()));
    file.sections.push_back({out.sections[i].first, file.dat1_offset + offsets[i],
                             out.sections[i].second.size(), file.dat1_offset + 16 + 12 * e});
    if (out.sections[i].first == kIndex) index_offset = offsets[i];
  }
  if (!opt.bare_dat1) {
    Bytes header(36, 0);
    std::uint32_t magic = 0x98906B9Fu;
    switch (opt.game) {
      case InsomniacTestGame::kMsmr:
        magic = 0x98906B9Fu;
        break;
      case InsomniacTestGame::kMm:
        magic = 0xDB40514Cu;
        break;
      case InsomniacTestGame::kRcra:
        magic = 0x9D2C0FA9u;
        break;
      case InsomniacTestGame::kSo:
        magic = 0x6AE15C79u;
        break;
      case InsomniacTestGame::kCc9d:
        magic = 0xCC9DAFF8u;
        break;
    }
    put32(header, 0, magic);
    if (so) {
      put32(header, 4, static_cast<std::uint32_t>(dat1.size()));
    } else {
      put32(header, 4, static_cast<std::uint32_t>(index_offset));
      put32(header, 8, static_cast<std::uint32_t>(dat1.size() - index_offset));
    }
    file.bytes = std::move(header);
  }
  file.bytes.insert(file.bytes.end(), dat1.begin(), dat1.end());
  return file;
}

}  // namespace critter::testing
