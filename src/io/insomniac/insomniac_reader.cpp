// SPDX-License-Identifier: MIT
// Insomniac .model reader (specs/insomniac-model.md). One pass over the DAT1 container: the
// section table is validated first, then each section the model needs is parsed with every
// offset and count checked against the section before it is used or allocated for.
#include "critter/io/insomniac/insomniac_reader.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>

#include <glm/gtc/packing.hpp>

namespace critter::io {

namespace {

constexpr std::uint32_t kTagBuilt = 0x283D0383u;
constexpr std::uint32_t kTagMaterial = 0x3250BB80u;
constexpr std::uint32_t kTagSubset = 0x78D9CBDEu;
constexpr std::uint32_t kTagLook = 0x06EB7EFCu;
constexpr std::uint32_t kTagLookBuilt = 0x811902D7u;
constexpr std::uint32_t kTagIndex = 0x0859863Du;
constexpr std::uint32_t kTagStdVert = 0xA98BE69Bu;
constexpr std::uint32_t kTagUv1 = 0x6B855EEDu;
constexpr std::uint32_t kTagColor = 0x5CBA9DE9u;
constexpr std::uint32_t kTagTexVert = 0x16F3BA18u;
constexpr std::uint32_t kTagJoint = 0x15DF9D3Bu;
constexpr std::uint32_t kTagBindPose = 0xDCC88A19u;
constexpr std::uint32_t kTagSkinBatch = 0xC61B1FF5u;
constexpr std::uint32_t kTagSkinData = 0xDCA379A2u;
constexpr std::uint32_t kTagSkinRemap = 0x5240C82Bu;
constexpr std::uint32_t kTagGpuSkin = 0xCCBAFF15u;
constexpr std::uint32_t kTagMorphInfo = 0x380A5744u;
constexpr std::uint32_t kTagMorphData = 0x5E709570u;
constexpr std::uint32_t kTagMorphIndices = 0xA600C108u;
constexpr std::uint32_t kTagLocator = 0x9F614FABu;

constexpr std::uint32_t kTagsInterpreted[] = {
    kTagBuilt,   kTagMaterial,  kTagSubset,    kTagLook,         kTagLookBuilt,
    kTagIndex,   kTagStdVert,   kTagUv1,       kTagColor,        kTagTexVert,
    kTagJoint,   kTagBindPose,  kTagSkinBatch, kTagSkinData,     kTagSkinRemap,
    kTagGpuSkin, kTagMorphInfo, kTagMorphData, kTagMorphIndices, kTagLocator};

constexpr std::uint16_t kFlagSkinned = 0x0001;
constexpr std::uint16_t kFlagLocalIndices = 0x0010;
constexpr std::uint16_t kFlagGpuSkin = 0x0100;
constexpr std::uint64_t kXorChunkVertices = 0x8000;
constexpr std::uint32_t kMorphPageVertices = 0xA00;
constexpr std::uint32_t kNoFrameNormal = 0x7FF80200u;
constexpr std::int16_t kNoFrameW = 0x7E;
constexpr float kDefaultPositionScale = 1.0f / 4096.0f;

std::string hex32(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", v);
  return buf;
}

std::string num(std::uint64_t v) {
  return std::to_string(v);
}

std::uint64_t align4(std::uint64_t v) {
  return (v + 3) & ~std::uint64_t{3};
}

std::string stem_of(std::string_view path) {
  return std::filesystem::path(std::string(path)).stem().string();
}

// A section as found in the table; `off` counts from the DAT1 start.
struct Sec {
  std::uint32_t tag = 0;
  std::uint64_t off = 0;
  std::uint64_t size = 0;
  std::uint64_t entry = 0;  // DAT1 offset of its table entry
};

struct Subset {
  std::uint32_t vertex_start = 0;
  std::uint32_t index_start = 0;
  std::uint32_t index_count = 0;
  std::uint32_t vertex_count = 0;
  std::uint16_t flags = 0;
  std::uint16_t material = 0;
  std::uint16_t first_batch = 0;
  std::uint16_t batch_count = 0;  // low byte of the field
  std::uint32_t first_weight = 0;
  std::uint64_t record = 0;  // DAT1 offset of the record
};

// Decoded Std Vert lanes, one entry per global vertex.
struct Verts {
  std::vector<std::uint32_t> n;
  std::vector<std::int16_t> x, y, z, w, u, v;
};

struct SkinBatch {
  std::uint32_t data_offset = 0;
  std::uint32_t remap_offset = 0;
  std::uint16_t remap_count = 0;
  std::uint16_t vertex_count = 0;
  std::uint16_t first_vertex = 0;
  std::uint64_t record = 0;
};

struct MorphSubset {
  std::uint8_t subset = 0;
  std::uint64_t data = 0;  // into Morph Data
  std::uint64_t ids = 0;   // into Morph Indices
  std::uint16_t changed = 0;
  std::uint64_t pages = 0;  // into Morph Info
};

struct Morph {
  std::uint32_t hash = 0;
  std::string name;
  std::uint8_t elements = 1;
  std::uint8_t bits = 0;
  float pos_scale = 0, pos_bias = 0, nrm_scale = 0, nrm_bias = 0;
  std::uint64_t pages_end = 0;  // end of this morph's page tables, into Morph Info
  std::uint64_t header = 0;     // into Morph Info
  std::vector<MorphSubset> subsets;
};

struct Influence {
  std::uint16_t joint;
  float weight;
};

class Parser {
 public:
  Parser(std::span<const std::uint8_t> file, std::string path, const InsomniacOptions& options,
         Diagnostics* diag, InsomniacInfo& info)
      : file_(file), path_(std::move(path)), opt_(options), diag_(diag), info_(info) {}

  Result<RawModel> run();

 private:
  // --- located errors and warnings --------------------------------------------------------------
  std::unexpected<Error> fail_at(ErrorCode code, std::uint64_t file_off, std::string msg) const {
    return fail(Error::at_offset(code, path_, file_off, std::move(msg)));
  }
  // `rel` counts from the section start.
  std::unexpected<Error> fail_sec(ErrorCode code, const Sec& s, std::uint64_t rel,
                                  std::string msg) const {
    return fail_at(code, base_ + s.off + rel, sec_label(s.tag) + ": " + std::move(msg));
  }
  static std::string sec_label(std::uint32_t tag) {
    const std::string_view name = insomniac_section_name(tag);
    return "section " + hex32(tag) + (name.empty() ? "" : " (" + std::string(name) + ")");
  }
  void warn(std::string location, std::string msg) {
    if (diag_) diag_->warn(path_, std::move(location), std::move(msg));
  }
  void decide(std::string msg) {
    info_.decisions.push_back(msg);
    warn({}, std::move(msg));
  }

  // --- bounded reads (DAT1-relative; callers check bounds first) -------------------------------
  std::uint8_t u8(std::uint64_t o) const { return dat1_[o]; }
  std::uint16_t u16(std::uint64_t o) const {
    return static_cast<std::uint16_t>(dat1_[o] | (dat1_[o + 1] << 8));
  }
  std::int16_t i16(std::uint64_t o) const { return static_cast<std::int16_t>(u16(o)); }
  std::uint32_t u32(std::uint64_t o) const {
    return static_cast<std::uint32_t>(u16(o)) | (static_cast<std::uint32_t>(u16(o + 2)) << 16);
  }
  std::uint64_t u64(std::uint64_t o) const {
    return static_cast<std::uint64_t>(u32(o)) | (static_cast<std::uint64_t>(u32(o + 4)) << 32);
  }
  float f32(std::uint64_t o) const { return std::bit_cast<float>(u32(o)); }
  std::uint32_t file_u32(std::uint64_t o) const {
    return static_cast<std::uint32_t>(file_[o]) | (static_cast<std::uint32_t>(file_[o + 1]) << 8) |
           (static_cast<std::uint32_t>(file_[o + 2]) << 16) |
           (static_cast<std::uint32_t>(file_[o + 3]) << 24);
  }

  // Fails unless [rel, rel + n) lies inside section s.
  Status need(const Sec& s, std::uint64_t rel, std::uint64_t n, std::string_view what) const {
    if (rel > s.size || n > s.size - rel)
      return fail_sec(ErrorCode::kParse, s, std::min(rel, s.size),
                      std::string(what) + " needs " + num(n) + " bytes at +" + num(rel) +
                          ", section has " + num(s.size));
    return {};
  }
  const Sec* find(std::uint32_t tag) const {
    for (const Sec& s : secs_)
      if (s.tag == tag) return &s;
    return nullptr;
  }
  // A NUL-terminated string at a DAT1 offset; `field` (DAT1 offset of the reference) locates
  // errors. Offset 0 means "no string".
  Result<std::string> str(std::uint64_t off, const Sec& s, std::uint64_t field_rel) const;

  Status parse_container();
  Status parse_built();
  Status parse_subsets();
  Status parse_indices();
  Status choose_family();
  Status check_indices(const std::vector<std::uint16_t>& decoded, bool report);
  Status parse_looks();
  Status parse_materials(RawModel& out);
  Status parse_vertices();
  Status parse_skeleton(RawModel& out);
  Status parse_locators(RawModel& out);
  Status parse_morphs();
  Status build_meshes(RawModel& out);
  Status decode_skin(std::size_t subset_index, MeshPart& part);
  Status decode_morphs(std::size_t subset_index, Mesh& mesh, MeshPart& part);

  std::span<const std::uint8_t> file_;
  std::string path_;
  const InsomniacOptions& opt_;
  Diagnostics* diag_;
  InsomniacInfo& info_;

  std::uint64_t base_ = 0;  // file offset of DAT1
  std::span<const std::uint8_t> dat1_;
  std::vector<Sec> secs_;
  InsomniacFamily family_ = InsomniacFamily::kMsmr;
  bool family_known_ = true;

  float pos_scale_ = kDefaultPositionScale;
  vec3 pos_offset_{0.0f};
  float uv0_scale_ = 1.0f / 16384.0f;
  float uv1_scale_ = 1.0f / 16384.0f;
  std::vector<Subset> subsets_;
  std::vector<std::uint16_t> raw_indices_;
  std::vector<std::uint16_t> indices_;
  Verts verts_;
  std::uint64_t vertex_total_ = 0;
  std::uint32_t joint_count_ = 0;
  std::vector<std::uint32_t> selected_;
  std::vector<Morph> morphs_;
  std::uint64_t reversed_subsets_ = 0;
  std::uint64_t skin_dropped_vertices_ = 0;
  float skin_largest_dropped_ = 0.0f;
  bool remap_fallback_warned_ = false;
};

Result<std::string> Parser::str(std::uint64_t off, const Sec& s, std::uint64_t field_rel) const {
  if (off == 0) return std::string();
  if (off >= dat1_.size())
    return fail_sec(ErrorCode::kOutOfRange, s, field_rel,
                    "string offset " + num(off) + " is outside the DAT1 block (" +
                        num(dat1_.size()) + " bytes)");
  const auto* begin = dat1_.data() + off;
  const auto* nul = static_cast<const std::uint8_t*>(std::memchr(begin, 0, dat1_.size() - off));
  if (!nul)
    return fail_sec(ErrorCode::kParse, s, field_rel,
                    "string at DAT1 offset " + num(off) + " has no terminating NUL");
  return std::string(reinterpret_cast<const char*>(begin), static_cast<std::size_t>(nul - begin));
}

Status Parser::parse_container() {
  if (file_.size() < 4)
    return fail_at(ErrorCode::kParse, 0,
                   "file is " + num(file_.size()) + " bytes, too short for a .model file");
  const std::uint32_t magic = file_u32(0);
  const auto compressed_at = [&](std::uint64_t start) -> std::optional<std::uint64_t> {
    for (std::uint64_t k = 1; k <= 3; ++k)
      if (start + k + 4 <= file_.size() && file_u32(start + k) == kDat1Magic) return start;
    return std::nullopt;
  };
  InsomniacGame game = InsomniacGame::kUnknown;
  switch (magic) {
    case kInsomniacMagicMsmr:
      game = InsomniacGame::kMsmr;
      break;
    case kInsomniacMagicMm:
      game = InsomniacGame::kMm;
      break;
    case kInsomniacMagicRcra:
      game = InsomniacGame::kRcra;
      break;
    case kInsomniacMagicCc9d:
      game = InsomniacGame::kCc9d;
      break;
    case kInsomniacMagicSo:
      game = InsomniacGame::kSo;
      break;
    default:
      break;
  }
  if (magic == kDat1Magic) {
    base_ = 0;
    info_.outer_header = false;
    game = opt_.game;
    family_known_ = game != InsomniacGame::kUnknown;
  } else if (game != InsomniacGame::kUnknown) {
    if (file_.size() < kInsomniacHeaderSize + 4)
      return fail_at(ErrorCode::kParse, 0,
                     "file is " + num(file_.size()) + " bytes; the " + hex32(magic) +
                         " header needs 36 bytes and a DAT1 block after it");
    base_ = kInsomniacHeaderSize;
    info_.outer_header = true;
    info_.outer_magic = magic;
  } else if (file_.size() >= kInsomniacHeaderSize + 4 &&
             file_u32(kInsomniacHeaderSize) == kDat1Magic) {
    base_ = kInsomniacHeaderSize;
    info_.outer_header = true;
    info_.outer_magic = magic;
    warn("byte 0", "unknown outer magic " + hex32(magic) + "; DAT1 found at byte 36, MSMR rules");
  } else if (compressed_at(0)) {
    return fail_at(ErrorCode::kUnsupported, 0, "compressed DAT1 not supported");
  } else {
    return fail_at(ErrorCode::kParse, 0,
                   "not an Insomniac .model file (magic " + hex32(magic) + ")");
  }
  if (info_.outer_header && file_u32(base_) != kDat1Magic) {
    if (compressed_at(base_))
      return fail_at(ErrorCode::kUnsupported, base_, "compressed DAT1 not supported");
    return fail_at(ErrorCode::kParse, base_,
                   "expected DAT1 magic 0x44415431, found " + hex32(file_u32(base_)));
  }
  info_.game = game;
  switch (game) {
    case InsomniacGame::kRcra:
      family_ = InsomniacFamily::kRcra;
      break;
    case InsomniacGame::kSo:
      family_ = InsomniacFamily::kSo;
      break;
    default:
      family_ = InsomniacFamily::kMsmr;
      break;
  }
  if (game == InsomniacGame::kCc9d)
    decide("outer magic 0xCC9DAFF8 (game unknown) read with MSMR rules (open question 9)");

  // DAT1 header.
  const std::uint64_t avail = file_.size() - base_;
  if (avail < 16)
    return fail_at(ErrorCode::kParse, base_,
                   "DAT1 header needs 16 bytes, " + num(avail) + " remain in the file");
  info_.dat1_offset = base_;
  info_.dat1_type = file_u32(base_ + 4);
  const std::uint64_t total = file_u32(base_ + 8);
  if (total < 16)
    return fail_at(ErrorCode::kInvalid, base_ + 8,
                   "DAT1 size " + num(total) + " is smaller than its 16-byte header");
  if (total > avail)
    return fail_at(ErrorCode::kParse, base_ + 8,
                   "DAT1 size " + num(total) + " runs past the end of the file (" + num(avail) +
                       " bytes after byte " + num(base_) + ")");
  info_.dat1_size = total;
  dat1_ = file_.subspan(static_cast<std::size_t>(base_), static_cast<std::size_t>(total));
  if (info_.dat1_type != kInsomniacMagicMsmr && family_ != InsomniacFamily::kSo)
    warn("byte " + num(base_ + 4),
         "DAT1 asset type " + hex32(info_.dat1_type) + " is not the model type 0x98906B9F");

  const std::uint64_t section_count = u16(12);
  const std::uint64_t unknown_count = u16(14);
  const std::uint64_t tables_end = 16 + 12 * section_count + 8 * unknown_count;
  if (tables_end > total)
    return fail_at(ErrorCode::kParse, base_ + 12,
                   "section table (" + num(section_count) + " sections, " + num(unknown_count) +
                       " unknown entries) needs " + num(tables_end) + " bytes, DAT1 has " +
                       num(total));
  secs_.reserve(static_cast<std::size_t>(section_count));
  for (std::uint64_t i = 0; i < section_count; ++i) {
    const std::uint64_t e = 16 + 12 * i;
    Sec s{u32(e), u32(e + 4), u32(e + 8), e};
    if (s.off < tables_end)
      return fail_at(ErrorCode::kInvalid, base_ + e,
                     sec_label(s.tag) + ": offset " + num(s.off) +
                         " overlaps the section table (ends at DAT1 offset " + num(tables_end) +
                         ")");
    if (s.off + s.size > total)
      return fail_at(ErrorCode::kOutOfRange, base_ + e,
                     sec_label(s.tag) + ": offset " + num(s.off) + " + size " + num(s.size) +
                         " runs past the DAT1 end (" + num(total) + " bytes)");
    if (find(s.tag))
      return fail_at(ErrorCode::kInvalid, base_ + e,
                     sec_label(s.tag) + ": the tag appears twice in the section table");
    secs_.push_back(s);
  }
  for (std::uint64_t i = 0; i < unknown_count; ++i) {
    std::array<std::uint8_t, 8> raw{};
    std::memcpy(raw.data(), dat1_.data() + 16 + 12 * section_count + 8 * i, 8);
    info_.unknown_entries.push_back(raw);
  }
  // Payloads must not overlap one another.
  std::vector<const Sec*> by_off;
  for (const Sec& s : secs_)
    if (s.size > 0) by_off.push_back(&s);
  std::sort(by_off.begin(), by_off.end(),
            [](const Sec* a, const Sec* b) { return a->off < b->off; });
  for (std::size_t i = 1; i < by_off.size(); ++i)
    if (by_off[i - 1]->off + by_off[i - 1]->size > by_off[i]->off)
      return fail_at(ErrorCode::kInvalid, base_ + by_off[i]->entry,
                     sec_label(by_off[i]->tag) + ": payload at DAT1 offset " + num(by_off[i]->off) +
                         " overlaps " + sec_label(by_off[i - 1]->tag) + " (DAT1 offsets " +
                         num(by_off[i - 1]->off) + ".." +
                         num(by_off[i - 1]->off + by_off[i - 1]->size) + ")");

  for (const Sec& s : secs_) {
    InsomniacSection rec;
    rec.tag = s.tag;
    rec.name = insomniac_section_name(s.tag);
    rec.offset = base_ + s.off;
    rec.size = s.size;
    rec.interpreted = std::find(std::begin(kTagsInterpreted), std::end(kTagsInterpreted), s.tag) !=
                      std::end(kTagsInterpreted);
    if (family_ != InsomniacFamily::kSo && s.tag == kTagTexVert) rec.interpreted = false;
    info_.sections.push_back(rec);
  }
  return {};
}

Status Parser::parse_built() {
  info_.position_scale = pos_scale_;
  const Sec* s = find(kTagBuilt);
  std::uint32_t uv_shift = 0;
  if (family_ == InsomniacFamily::kSo) {
    if (s && s->size != 72)
      warn("byte " + num(base_ + s->off),
           sec_label(kTagBuilt) + ": SO Built is " + num(s->size) + " bytes, expected 72");
    decide("Sunset Overdrive: position scale 1/4096 (Built layout unknown, open question 10)");
  } else if (!s) {
    warn({}, "no Model Built section: position scale 1/4096, UV scale 1/16384");
  } else {
    if (auto r = need(*s, 0, 120, "Model Built"); !r) return r;
    const float scale = f32(s->off + 0x2C);
    if (std::isfinite(scale) && scale > 0.0f) {
      pos_scale_ = scale;
    } else {
      warn("byte " + num(base_ + s->off + 0x2C),
           sec_label(kTagBuilt) + ": position scale is not a positive number; using 1/4096");
    }
    pos_offset_ = vec3(f32(s->off + 0x1C), f32(s->off + 0x20), f32(s->off + 0x24));
    if (!all_finite(pos_offset_)) pos_offset_ = vec3(0.0f);
    uv_shift = u32(s->off + 0x30);
    if (pos_offset_ != vec3(0.0f))
      decide(std::string("Built position offset (@0x1C) ") +
             (opt_.apply_position_offset ? "added to" : "not added to") +
             " positions (open question 2, option apply_position_offset)");
  }
  uv0_scale_ = static_cast<float>(1u << (uv_shift & 0xFu)) / 16384.0f;
  uv1_scale_ = static_cast<float>(1u << ((uv_shift >> 4) & 0xFu)) / 16384.0f;
  if (opt_.uv0_scale > 0.0f) uv0_scale_ = opt_.uv0_scale;
  if (opt_.uv1_scale > 0.0f) uv1_scale_ = opt_.uv1_scale;
  info_.position_scale = pos_scale_;
  info_.uv0_scale = uv0_scale_;
  info_.uv1_scale = uv1_scale_;
  return {};
}

Status Parser::parse_subsets() {
  const Sec* s = find(kTagSubset);
  if (!s) return {};
  if (s->size % 64 != 0)
    return fail_sec(ErrorCode::kInvalid, *s, 0,
                    "size " + num(s->size) + " is not a multiple of the 64-byte subset record");
  const std::uint64_t n = s->size / 64;
  subsets_.reserve(static_cast<std::size_t>(n));
  const bool so = family_ == InsomniacFamily::kSo;
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t r = s->off + 64 * i;
    Subset m;
    m.record = r;
    if (so) {
      m.vertex_start = u32(r + 0x10);
      m.index_start = u32(r + 0x14);
      m.index_count = u32(r + 0x18);
      m.vertex_count = u16(r + 0x1C);
      m.flags = u16(r + 0x20);
      m.material = u16(r + 0x22);
      m.first_batch = u16(r + 0x24);
      m.batch_count = u16(r + 0x26) & 0xFFu;
    } else {
      m.vertex_start = u32(r + 0x14);
      m.index_start = u32(r + 0x18);
      m.index_count = u32(r + 0x1C);
      m.vertex_count = u32(r + 0x20);
      if (m.vertex_count > 0xFFFFu) {
        decide("subset " + num(i) + ": vertex count " + hex32(m.vertex_count) +
               " has high bits set; using the low 16 bits (open question 6)");
        m.vertex_count &= 0xFFFFu;
      }
      m.flags = u16(r + 0x24);
      m.material = u16(r + 0x26);
      m.first_batch = u16(r + 0x28);
      m.batch_count = u16(r + 0x2A) & 0xFFu;
    }
    m.first_weight = u32(r + 0x38);
    subsets_.push_back(m);
  }
  info_.subset_count = static_cast<std::uint32_t>(n);
  return {};
}

Status Parser::parse_indices() {
  const Sec* vs = find(kTagStdVert);
  if (vs) {
    if (vs->size % 16 != 0)
      return fail_sec(ErrorCode::kInvalid, *vs, 0,
                      "size " + num(vs->size) + " is not a multiple of the 16-byte vertex");
    vertex_total_ = vs->size / 16;
  }
  info_.vertex_count = vertex_total_;
  const Sec* s = find(kTagIndex);
  if (!s) return {};
  if (s->size % 2 != 0)
    return fail_sec(ErrorCode::kInvalid, *s, 0, "size " + num(s->size) + " is odd (u16 indices)");
  raw_indices_.resize(static_cast<std::size_t>(s->size / 2));
  for (std::size_t k = 0; k < raw_indices_.size(); ++k) raw_indices_[k] = u16(s->off + 2 * k);
  info_.index_count = raw_indices_.size();
  return {};
}

// Checks every subset's ranges and indices under one index encoding. With `report` false it only
// answers yes/no (used to pick the encoding of headerless files).
Status Parser::check_indices(const std::vector<std::uint16_t>& decoded, bool report) {
  const Sec* is = find(kTagIndex);
  const Sec* ss = find(kTagSubset);
  for (std::size_t i = 0; i < subsets_.size(); ++i) {
    const Subset& m = subsets_[i];
    const std::uint64_t rel = m.record - (ss ? ss->off : 0);
    if (std::uint64_t{m.vertex_start} + m.vertex_count > vertex_total_)
      return fail_sec(ErrorCode::kOutOfRange, *ss, rel,
                      "subset " + num(i) + " vertices " + num(m.vertex_start) + ".." +
                          num(std::uint64_t{m.vertex_start} + m.vertex_count) +
                          " run past the vertex count " + num(vertex_total_));
    if (std::uint64_t{m.index_start} + m.index_count > decoded.size())
      return fail_sec(ErrorCode::kOutOfRange, *ss, rel,
                      "subset " + num(i) + " indices " + num(m.index_start) + ".." +
                          num(std::uint64_t{m.index_start} + m.index_count) +
                          " run past the index count " + num(decoded.size()));
    if (m.index_count % 3 != 0)
      return fail_sec(
          ErrorCode::kInvalid, *ss, rel,
          "subset " + num(i) + " index count " + num(m.index_count) + " is not a multiple of 3");
    const std::uint64_t sub = (m.flags & kFlagLocalIndices) ? 0 : m.vertex_start;
    for (std::uint64_t k = 0; k < m.index_count; ++k) {
      const std::uint64_t at = std::uint64_t{m.index_start} + k;
      const std::uint64_t v = decoded[static_cast<std::size_t>(at)];
      if (v < sub || v - sub >= m.vertex_count) {
        if (!report) return fail_at(ErrorCode::kInvalid, 0, {});
        return fail_sec(ErrorCode::kOutOfRange, *is, 2 * at,
                        "index " + num(v) + " of subset " + num(i) + " triangle " + num(k / 3) +
                            " is outside the subset's " + num(m.vertex_count) + " vertices" +
                            (sub ? " (global indices from " + num(sub) + ")" : ""));
      }
    }
  }
  return {};
}

Status Parser::choose_family() {
  std::vector<std::uint16_t> delta = raw_indices_;
  insomniac_delta_decode(delta);
  if (family_known_) {
    const bool msmr = family_ == InsomniacFamily::kMsmr;
    if (msmr && info_.game == InsomniacGame::kCc9d && !check_indices(delta, false) &&
        check_indices(raw_indices_, false)) {
      family_ = InsomniacFamily::kRcra;
      decide("0xCC9DAFF8 file: indices only valid under RCRA rules; read with RCRA rules");
    }
    indices_ = family_ == InsomniacFamily::kMsmr ? std::move(delta) : raw_indices_;
    info_.family = family_;
    return check_indices(indices_, true);
  }
  const bool msmr_ok = check_indices(delta, false).has_value();
  const bool rcra_ok = check_indices(raw_indices_, false).has_value();
  if (msmr_ok == rcra_ok)
    return fail_at(ErrorCode::kInvalid, base_,
                   std::string("headerless DAT1: the indices are ") +
                       (msmr_ok ? "valid" : "invalid") +
                       " under both MSMR (delta) and RCRA (plain) encodings; pass a game hint "
                       "(msmr, mm, rcra or so)");
  family_ = msmr_ok ? InsomniacFamily::kMsmr : InsomniacFamily::kRcra;
  info_.game = msmr_ok ? InsomniacGame::kMsmr : InsomniacGame::kRcra;
  indices_ = msmr_ok ? std::move(delta) : raw_indices_;
  info_.family = family_;
  decide(std::string("headerless DAT1: ") + (msmr_ok ? "MSMR (delta)" : "RCRA (plain)") +
         " index encoding is the one that fits every subset; read with those rules");
  return {};
}

Status Parser::parse_looks() {
  const bool so = family_ == InsomniacFamily::kSo;
  const std::uint64_t slots = so ? 4 : 8;
  const Sec* s = find(kTagLook);
  if (!s) {
    InsomniacLook look{"Default", std::vector<InsomniacLodRange>(slots)};
    look.lods[0] = {0, static_cast<std::uint16_t>(std::min<std::size_t>(subsets_.size(), 0xFFFF))};
    info_.looks.push_back(look);
    if (!subsets_.empty()) warn({}, "no Model Look section: look 0 LOD 0 is every subset");
    return {};
  }
  const std::uint64_t stride = slots * 4;
  if (s->size % stride != 0)
    return fail_sec(
        ErrorCode::kInvalid, *s, 0,
        "size " + num(s->size) + " is not a multiple of the " + num(stride) + "-byte look record");
  const Sec* lb = so ? nullptr : find(kTagLookBuilt);
  const std::uint64_t n = s->size / stride;
  for (std::uint64_t i = 0; i < n; ++i) {
    InsomniacLook look;
    look.lods.resize(slots);
    for (std::uint64_t k = 0; k < slots; ++k) {
      const std::uint64_t rel = i * stride + 4 * k;
      InsomniacLodRange r{u16(s->off + rel), u16(s->off + rel + 2)};
      if (std::uint64_t{r.first} + r.count > subsets_.size())
        return fail_sec(ErrorCode::kOutOfRange, *s, rel,
                        "look " + num(i) + " LOD " + num(k) + " subsets " + num(r.first) + ".." +
                            num(std::uint64_t{r.first} + r.count) + " run past the " +
                            num(subsets_.size()) + " subsets");
      look.lods[k] = r;
    }
    if (lb && (i + 1) * 80 <= lb->size) {
      auto name = str(u32(lb->off + i * 80 + 76), *lb, i * 80 + 76);
      if (!name) return fail(name.error());
      look.name = *name;
    }
    if (look.name.empty()) look.name = i == 0 ? "Default" : "Look " + num(i);
    info_.looks.push_back(std::move(look));
  }
  return {};
}

Status Parser::parse_materials(RawModel& out) {
  const Sec* s = find(kTagMaterial);
  if (!s) return {};
  if (s->size % 32 != 0)
    return fail_sec(ErrorCode::kInvalid, *s, 0,
                    "size " + num(s->size) + " is not a multiple of the 32-byte material entry");
  const std::uint64_t n = s->size / 32;
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint64_t path_off = 0, name_off = 0, path_rel = 0, name_rel = 0;
    if (family_ == InsomniacFamily::kSo) {
      path_rel = 32 * i;
      name_rel = 32 * i + 4;
      path_off = u32(s->off + path_rel);
      name_off = u32(s->off + name_rel);
    } else {
      path_rel = 16 * i;
      name_rel = 16 * i + 8;
      path_off = u64(s->off + path_rel);
      name_off = u64(s->off + name_rel);
    }
    auto mpath = str(path_off, *s, path_rel);
    if (!mpath) return fail(mpath.error());
    auto name = str(name_off, *s, name_rel);
    if (!name) return fail(name.error());
    Material m;
    m.name = name->empty() ? (i < 10 ? "material0" : "material") + num(i) : *name;
    out.materials.push_back(m);
    info_.materials.push_back({m.name, *mpath});
  }
  return {};
}

Status Parser::parse_vertices() {
  const Sec* s = find(kTagStdVert);
  if (!s) return {};
  const std::size_t n = static_cast<std::size_t>(vertex_total_);
  verts_.n.resize(n);
  verts_.x.resize(n);
  verts_.y.resize(n);
  verts_.z.resize(n);
  verts_.w.resize(n);
  verts_.u.resize(n);
  verts_.v.resize(n);
  if (family_ == InsomniacFamily::kMsmr) {
    // Planar chunks of at most 0x8000 vertices, every lane XOR-delta coded from 0 per chunk.
    for (std::uint64_t c0 = 0; c0 < n; c0 += kXorChunkVertices) {
      const std::uint64_t cn = std::min<std::uint64_t>(kXorChunkVertices, n - c0);
      const std::uint64_t at = s->off + 16 * c0;
      std::uint32_t an = 0;
      std::uint16_t ax = 0, ay = 0, az = 0, aw = 0, au = 0, av = 0;
      for (std::uint64_t k = 0; k < cn; ++k) {
        const std::size_t g = static_cast<std::size_t>(c0 + k);
        an ^= u32(at + 4 * k);
        ax ^= u16(at + 4 * cn + 2 * k);
        ay ^= u16(at + 6 * cn + 2 * k);
        az ^= u16(at + 8 * cn + 2 * k);
        aw ^= u16(at + 10 * cn + 2 * k);
        au ^= u16(at + 12 * cn + 2 * k);
        av ^= u16(at + 14 * cn + 2 * k);
        verts_.n[g] = an;
        verts_.x[g] = static_cast<std::int16_t>(ax);
        verts_.y[g] = static_cast<std::int16_t>(ay);
        verts_.z[g] = static_cast<std::int16_t>(az);
        verts_.w[g] = static_cast<std::int16_t>(aw);
        verts_.u[g] = static_cast<std::int16_t>(au);
        verts_.v[g] = static_cast<std::int16_t>(av);
      }
    }
  } else {
    for (std::size_t g = 0; g < n; ++g) {
      const std::uint64_t at = s->off + 16 * g;
      verts_.x[g] = i16(at);
      verts_.y[g] = i16(at + 2);
      verts_.z[g] = i16(at + 4);
      verts_.w[g] = i16(at + 6);
      verts_.n[g] = u32(at + 8);
      verts_.u[g] = i16(at + 12);
      verts_.v[g] = i16(at + 14);
    }
  }
  if (const Sec* b = find(kTagBuilt); b && family_ != InsomniacFamily::kSo && b->size >= 120) {
    const std::uint32_t declared = u32(b->off + 0x68);
    if (declared != vertex_total_)
      warn("byte " + num(base_ + b->off + 0x68),
           sec_label(kTagBuilt) + ": vertex count " + num(declared) + " differs from Std Vert's " +
               num(vertex_total_) + "; the section size wins");
  }
  return {};
}

Status Parser::parse_skeleton(RawModel& out) {
  const Sec* s = find(kTagJoint);
  if (!s) return {};
  if (s->size % 16 != 0)
    return fail_sec(ErrorCode::kInvalid, *s, 0,
                    "size " + num(s->size) + " is not a multiple of the 16-byte joint record");
  const std::uint64_t n = s->size / 16;
  if (n > static_cast<std::uint64_t>(Skeleton::kMaxJoints))
    return fail_sec(ErrorCode::kLimit, *s, 0,
                    num(n) + " joints, critter accepts at most " + num(Skeleton::kMaxJoints));
  joint_count_ = static_cast<std::uint32_t>(n);
  info_.joint_count = joint_count_;
  out.skeleton.joints.resize(static_cast<std::size_t>(n));
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::int16_t parent = i16(s->off + 16 * i);
    if (parent < -1 || (parent >= 0 && static_cast<std::uint64_t>(parent) >= i))
      return fail_sec(ErrorCode::kInvalid, *s, 16 * i,
                      "joint " + num(i) + " has parent " + std::to_string(parent) +
                          "; parents must come before their children");
    auto name = str(u32(s->off + 16 * i + 12), *s, 16 * i + 12);
    if (!name) return fail(name.error());
    RawJoint& j = out.skeleton.joints[static_cast<std::size_t>(i)];
    j.name = name->empty() ? "joint_" + num(i) : *name;
    j.parent = parent;
    j.source_index = static_cast<std::int32_t>(i);
  }

  Skin skin;
  skin.name = "skin";
  skin.joints.resize(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < n; ++i) skin.joints[i] = static_cast<std::int16_t>(i);

  const Sec* b = find(kTagBindPose);
  if (!b) {
    warn({}, "no Model Bind Pose section: identity rest pose and inverse bind matrices");
    skin.inverse_bind.assign(static_cast<std::size_t>(n), mat4(1.0f));
    out.skins.push_back(std::move(skin));
    return {};
  }
  const std::uint64_t part_b = (48 * n + 63) / 64 * 64;
  if (auto r = need(*b, 0, 48 * n, "bind pose part A (48 bytes per joint)"); !r) return r;
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t a = b->off + 48 * i;
    Transform t;
    t.scale = vec3(f32(a), f32(a + 4), f32(a + 8));
    t.rotation = quat_xyzw(f32(a + 16), f32(a + 20), f32(a + 24), f32(a + 28));
    t.translation = vec3(f32(a + 32), f32(a + 36), f32(a + 40));
    if (!all_finite(t.scale) || !all_finite(t.rotation) || !all_finite(t.translation) ||
        glm::dot(t.rotation, t.rotation) < 1e-12f)
      return fail_sec(ErrorCode::kInvalid, *b, 48 * i,
                      "joint " + num(i) + " bind transform is not finite or has a zero rotation");
    t.rotation = glm::normalize(t.rotation);
    out.skeleton.joints[static_cast<std::size_t>(i)].rest = t;
  }
  // Model-space bind matrices from part A, to check part B and to stand in for it.
  std::vector<mat4> model(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < n; ++i) {
    const RawJoint& j = out.skeleton.joints[i];
    const mat4 local = j.rest.to_matrix();
    model[i] = j.parent < 0 ? local : model[static_cast<std::size_t>(j.parent)] * local;
  }
  bool have_b = part_b + 64 * n <= b->size;
  if (have_b) {
    bool all_zero = true;
    skin.inverse_bind.resize(static_cast<std::size_t>(n));
    for (std::uint64_t i = 0; i < n; ++i) {
      float m[16];
      for (int k = 0; k < 16; ++k) {
        m[k] = f32(b->off + part_b + 64 * i + 4 * static_cast<std::uint64_t>(k));
        if (m[k] != 0.0f) all_zero = false;
      }
      const mat4 ib = glm::make_mat4(m);
      if (!all_finite(ib))
        return fail_sec(ErrorCode::kInvalid, *b, part_b + 64 * i,
                        "joint " + num(i) + " inverse bind matrix is not finite");
      skin.inverse_bind[static_cast<std::size_t>(i)] = ib;
    }
    if (all_zero) {
      have_b = false;
      warn("byte " + num(base_ + b->off + part_b),
           sec_label(kTagBindPose) + ": part B is all zero; inverse binds computed from part A");
    }
  } else {
    warn("byte " + num(base_ + b->off),
         sec_label(kTagBindPose) + ": no part B; inverse binds computed from part A");
  }
  if (!have_b) {
    skin.inverse_bind.resize(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < n; ++i) skin.inverse_bind[i] = glm::inverse(model[i]);
  } else {
    float worst = 0.0f;
    for (std::size_t i = 0; i < n; ++i) {
      const mat4 expect = glm::inverse(model[i]);
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
          worst = std::max(worst, std::abs(expect[c][r] - skin.inverse_bind[i][c][r]));
    }
    if (worst > 1e-3f)
      decide("bind pose part B differs from the inverse of part A's model-space bind by " +
             std::to_string(worst) + " (open question 4); part B is used");
  }
  out.skins.push_back(std::move(skin));
  return {};
}

Status Parser::parse_locators(RawModel& out) {
  const Sec* s = find(kTagLocator);
  if (!s) return {};
  if (s->size % 64 != 0)
    return fail_sec(ErrorCode::kInvalid, *s, 0,
                    "size " + num(s->size) + " is not a multiple of the 64-byte locator");
  const std::uint64_t n = s->size / 64;
  if (out.skeleton.joints.size() + n > static_cast<std::uint64_t>(Skeleton::kMaxJoints))
    return fail_sec(ErrorCode::kLimit, *s, 0,
                    num(n) + " locators and " + num(out.skeleton.joints.size()) +
                        " joints exceed critter's " + num(Skeleton::kMaxJoints) + " joints");
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t r = s->off + 64 * i;
    auto name = str(u32(r + 4), *s, 64 * i + 4);
    if (!name) return fail(name.error());
    const std::int32_t joint = static_cast<std::int32_t>(u32(r + 8));
    if (joint < -1 || (joint >= 0 && static_cast<std::uint32_t>(joint) >= joint_count_))
      return fail_sec(ErrorCode::kOutOfRange, *s, 64 * i + 8,
                      "locator " + num(i) + " is attached to joint " + std::to_string(joint) +
                          ", model has " + num(joint_count_) + " joints");
    // Rows 0..2 are basis axes in row-vector convention: they are the columns of the
    // column-vector matrix.
    mat4 m(1.0f);
    for (int row = 0; row < 4; ++row)
      for (int c = 0; c < 3; ++c)
        m[row][c] = f32(r + 16 + 4 * static_cast<std::uint64_t>(row * 3 + c));
    if (!all_finite(m))
      return fail_sec(ErrorCode::kInvalid, *s, 64 * i + 16,
                      "locator " + num(i) + " transform is not finite");
    RawJoint j;
    j.name = name->empty() ? "locator_" + num(i) : *name;
    j.parent = joint;
    j.rest = Transform::from_matrix(m);
    out.skeleton.joints.push_back(std::move(j));
  }
  info_.locator_count = static_cast<std::uint32_t>(n);
  return {};
}

Status Parser::parse_morphs() {
  const Sec* info = find(kTagMorphInfo);
  const Sec* data = find(kTagMorphData);
  const Sec* ids = find(kTagMorphIndices);
  if (!info && !data && !ids) return {};
  if (!info || !data || !ids) {
    warn({}, "morph sections incomplete (Info, Data and Indices are all needed); no morphs");
    return {};
  }
  const Sec& s = *info;
  if (auto r = need(s, 0, 24, "morph info header"); !r) return r;
  const std::uint64_t count = u16(s.off + 8);
  const std::uint64_t table = u32(s.off + 12);
  if (auto r = need(s, table, 8 * count, "morph table"); !r) return r;
  morphs_.reserve(static_cast<std::size_t>(count));
  for (std::uint64_t i = 0; i < count; ++i) {
    Morph m;
    m.hash = u32(s.off + table + 8 * i);
    const std::uint64_t h = u32(s.off + table + 8 * i + 4);
    m.header = h;
    if (auto r = need(s, h, 0x30, "morph header"); !r) return r;
    const std::uint64_t a = s.off + h;
    const std::uint64_t name_off = u32(a + 4);
    if (name_off != 0 && name_off < dat1_.size() &&
        std::memchr(dat1_.data() + name_off, 0, dat1_.size() - name_off))
      m.name = reinterpret_cast<const char*>(dat1_.data() + name_off);
    if (m.name.empty()) {
      char buf[24];
      std::snprintf(buf, sizeof buf, "morph_%08x", m.hash);
      m.name = buf;
    }
    const std::uint64_t data_off = u32(a + 8);
    const std::uint64_t ids_off = u32(a + 12);
    m.elements = u8(a + 0x10);
    const std::uint8_t bits_per_element = u8(a + 0x11);
    m.bits = u8(a + 0x12);
    if (m.elements != 1 && m.elements != 2)
      return fail_sec(
          ErrorCode::kInvalid, s, h + 0x10,
          "morph " + num(i) + " element count " + num(m.elements) + " (expected 1 or 2)");
    if (m.bits == 0 || m.bits > 24 || bits_per_element != 3 * m.bits)
      return fail_sec(ErrorCode::kInvalid, s, h + 0x11,
                      "morph " + num(i) + " has " + num(bits_per_element) +
                          " bits per element and " + num(m.bits) +
                          " bits per component (expected 3 x 1..24)");
    m.pos_scale = f32(a + 0x14);
    m.pos_bias = f32(a + 0x18);
    m.nrm_scale = f32(a + 0x1C);
    m.nrm_bias = f32(a + 0x20);
    if (!std::isfinite(m.pos_scale) || !std::isfinite(m.pos_bias) || !std::isfinite(m.nrm_scale) ||
        !std::isfinite(m.nrm_bias))
      return fail_sec(ErrorCode::kInvalid, s, h + 0x14,
                      "morph " + num(i) + " scale or bias is not finite");
    const std::uint64_t sc = u16(a + 0x24);
    const std::uint64_t info_len = u16(a + 0x26);
    const std::uint64_t arr = h + 0x30;
    const std::uint64_t p_data = align4(arr + sc);
    const std::uint64_t p_counts = p_data + 8 * sc;
    const std::uint64_t p_pages = align4(p_counts + 2 * sc);
    const std::uint64_t tables = align4(p_pages + 2 * sc);
    m.pages_end = arr + info_len;
    if (auto r = need(s, arr, tables - arr, "morph subset arrays"); !r) return r;
    if (m.pages_end < tables || m.pages_end > s.size)
      return fail_sec(ErrorCode::kParse, s, h + 0x26,
                      "morph " + num(i) + " subset info length " + num(info_len) +
                          " does not cover its arrays or runs past the section");
    for (std::uint64_t k = 0; k < sc; ++k) {
      MorphSubset ms;
      ms.subset = u8(s.off + arr + k);
      if (ms.subset >= subsets_.size())
        return fail_sec(ErrorCode::kOutOfRange, s, arr + k,
                        "morph " + num(i) + " refers to subset " + num(ms.subset) + ", model has " +
                            num(subsets_.size()));
      for (const MorphSubset& prev : m.subsets)
        if (prev.subset == ms.subset)
          return fail_sec(ErrorCode::kInvalid, s, arr + k,
                          "morph " + num(i) + " lists subset " + num(ms.subset) + " twice");
      ms.data = data_off + u32(s.off + p_data + 4 * k);
      ms.ids = ids_off + u32(s.off + p_data + 4 * sc + 4 * k);
      ms.changed = u16(s.off + p_counts + 2 * k);
      ms.pages = tables + 6 * std::uint64_t{u16(s.off + p_pages + 2 * k)};
      if (ms.changed > subsets_[ms.subset].vertex_count)
        return fail_sec(ErrorCode::kOutOfRange, s, p_counts + 2 * k,
                        "morph " + num(i) + " changes " + num(ms.changed) + " vertices of subset " +
                            num(ms.subset) + ", which has " +
                            num(subsets_[ms.subset].vertex_count));
      m.subsets.push_back(ms);
    }
    morphs_.push_back(std::move(m));
  }
  info_.morph_count = static_cast<std::uint32_t>(count);
  return {};
}

Status Parser::decode_morphs(std::size_t subset_index, Mesh& mesh, MeshPart& part) {
  if (morphs_.empty()) return {};
  const Sec& info = *find(kTagMorphInfo);
  const Sec& data = *find(kTagMorphData);
  const Sec& ids = *find(kTagMorphIndices);
  const std::uint32_t vc = subsets_[subset_index].vertex_count;
  std::vector<std::uint32_t> vid;
  for (std::size_t mi = 0; mi < morphs_.size(); ++mi) {
    const Morph& m = morphs_[mi];
    const MorphSubset* ms = nullptr;
    for (const MorphSubset& cand : m.subsets)
      if (cand.subset == subset_index) ms = &cand;
    if (!ms) continue;
    MorphTarget target;
    target.positions.assign(vc, vec3(0.0f));
    if (m.elements >= 2) target.normals.assign(vc, vec3(0.0f));
    std::uint64_t data_pos = ms->data;
    std::uint64_t ids_pos = ms->ids;
    std::uint64_t entry = ms->pages;
    std::uint32_t done = 0;
    const std::string who = "morph " + num(mi) + " subset " + num(subset_index);
    for (std::uint32_t page = 0; done < ms->changed; ++page) {
      if (entry + 6 > m.pages_end)
        return fail_sec(ErrorCode::kParse, info, std::min(entry, info.size),
                        who + ": page tables end after " + num(done) + " of " + num(ms->changed) +
                            " changed vertices");
      const std::uint32_t pcount = u16(info.off + entry);
      const std::uint64_t runs = u32(info.off + entry + 2);
      entry += 6;
      if (done + pcount > ms->changed)
        return fail_sec(ErrorCode::kInvalid, info, entry - 6,
                        who + ": page " + num(page) + " has " + num(pcount) + " vertices, only " +
                            num(ms->changed - done) + " remain");
      // Vertex ids of this page.
      vid.clear();
      if (auto r = need(ids, ids_pos, 4 * runs, "morph vertex runs of " + who); !r) return r;
      std::uint64_t cur = std::uint64_t{page} * kMorphPageVertices;
      for (std::uint64_t k = 0; k < runs; ++k) {
        const std::uint64_t at = ids_pos + 4 * k;
        const std::uint32_t skip = u16(ids.off + at);
        std::uint32_t read = u16(ids.off + at + 2);
        if (read == 0) read = 32;
        cur += skip;
        if (vid.size() + read > pcount)
          return fail_sec(ErrorCode::kInvalid, ids, at,
                          who + ": page " + num(page) + " runs give more than its " + num(pcount) +
                              " vertices");
        if (cur + read > vc)
          return fail_sec(ErrorCode::kOutOfRange, ids, at,
                          who + ": vertex id " + num(cur + read - 1) + " is outside the subset's " +
                              num(vc) + " vertices");
        for (std::uint32_t q = 0; q < read; ++q) vid.push_back(static_cast<std::uint32_t>(cur + q));
        cur += read;
      }
      if (vid.size() != pcount)
        return fail_sec(ErrorCode::kInvalid, ids, ids_pos,
                        who + ": page " + num(page) + " has " + num(vid.size()) + " ids for " +
                            num(pcount) + " deltas");
      ids_pos += 4 * runs;
      // Deltas: one MSB-first bit stream per page, then align to 4 bytes.
      const std::uint64_t bits = std::uint64_t{m.elements} * 3 * m.bits * pcount;
      const std::uint64_t bytes = (bits + 7) / 8;
      if (auto r = need(data, data_pos, bytes, "morph deltas of " + who); !r) return r;
      std::uint64_t bitpos = 0;
      const std::uint64_t base = data.off + data_pos;
      const auto next = [&]() {
        std::uint32_t v = 0;
        for (std::uint32_t b = 0; b < m.bits; ++b, ++bitpos) {
          const std::uint8_t byte = u8(base + bitpos / 8);
          v = (v << 1) | ((byte >> (7 - bitpos % 8)) & 1u);
        }
        return static_cast<float>(v);
      };
      for (std::uint32_t q = 0; q < pcount; ++q) {
        vec3 dp;
        dp.x = next() * m.pos_scale + m.pos_bias;
        dp.y = next() * m.pos_scale + m.pos_bias;
        dp.z = next() * m.pos_scale + m.pos_bias;
        target.positions[vid[q]] = dp;
        if (m.elements >= 2) {
          vec3 dn;
          dn.x = next() * m.nrm_scale + m.nrm_bias;
          dn.y = next() * m.nrm_scale + m.nrm_bias;
          dn.z = next() * m.nrm_scale + m.nrm_bias;
          target.normals[vid[q]] = dn;
        }
      }
      data_pos = align4(data_pos + bytes);
      done += pcount;
      if (page > 0xFFFF) return fail_sec(ErrorCode::kLimit, info, entry, who + ": too many pages");
    }
    part.morphs.targets.push_back(std::move(target));
    mesh.morph_names.push_back(m.name);
  }
  mesh.default_weights.assign(part.morphs.targets.size(), 0.0f);
  return {};
}

Status Parser::decode_skin(std::size_t subset_index, MeshPart& part) {
  const Subset& m = subsets_[subset_index];
  const bool batched = (m.flags & kFlagSkinned) != 0;
  const bool gpu = (m.flags & kFlagGpuSkin) != 0;
  if (!batched && !gpu) return {};
  const Sec* ss = find(kTagSubset);
  if (joint_count_ == 0) {
    warn("byte " + num(base_ + m.record),
         "subset " + num(subset_index) + " is skinned but the model has no joints; left static");
    return {};
  }
  const std::uint32_t vc = m.vertex_count;
  std::vector<std::vector<Influence>> infl(vc);
  std::vector<std::int32_t> batch_of(vc, -1);
  std::vector<SkinBatch> batches;
  const Sec* remap = find(kTagSkinRemap);
  const std::string who = "subset " + num(subset_index);

  // Maps a batch-local joint id to a model joint (§9.2, §15 item 3).
  const auto map_joint = [&](const SkinBatch& b, std::uint32_t local, const Sec& where,
                             std::uint64_t rel) -> Result<std::uint16_t> {
    std::uint64_t joint = 0;
    if (b.remap_count > 0) {
      if (local >= b.remap_count)
        return fail_sec(ErrorCode::kOutOfRange, where, rel,
                        who + ": local joint " + num(local) + " is past the batch's " +
                            num(b.remap_count) + "-entry joint remap");
      if (!remap)
        return fail_sec(
            ErrorCode::kParse, where, rel,
            who + ": batch uses a joint remap but there is no Skin Joint Remap section");
      const std::uint64_t at = std::uint64_t{b.remap_offset} + 2 * std::uint64_t{local};
      if (auto r = need(*remap, at, 2, "joint remap entry"); !r) return fail(r.error());
      joint = u16(remap->off + at);
    } else {
      joint = std::uint64_t{b.remap_offset} + local;
      if (joint >= joint_count_ && local < joint_count_) {
        if (!remap_fallback_warned_) {
          remap_fallback_warned_ = true;
          decide("skin batch joint base " + num(b.remap_offset) +
                 " + local id is past the joint count; using the local id (open question 3)");
        }
        joint = local;
      }
    }
    if (joint >= joint_count_)
      return fail_sec(ErrorCode::kOutOfRange, where, rel,
                      who + ": skin joint " + num(joint) + " does not exist (" + num(joint_count_) +
                          " joints)");
    return static_cast<std::uint16_t>(joint);
  };

  if (m.batch_count > 0 || batched) {
    const Sec* bs = find(kTagSkinBatch);
    const Sec* ds = find(kTagSkinData);
    if (batched && (!bs || !ds))
      return fail_at(ErrorCode::kParse, base_ + m.record,
                     sec_label(kTagSubset) + ": " + who +
                         " is skinned but Skin Batch or Skin Data is missing");
    if (bs && bs->size % 16 != 0)
      return fail_sec(ErrorCode::kInvalid, *bs, 0,
                      "size " + num(bs->size) + " is not a multiple of the 16-byte batch");
    const std::uint64_t nb = bs ? bs->size / 16 : 0;
    if (std::uint64_t{m.first_batch} + m.batch_count > nb)
      return fail_sec(ErrorCode::kOutOfRange, *ss, m.record - ss->off + 0x28,
                      who + " skin batches " + num(m.first_batch) + ".." +
                          num(std::uint64_t{m.first_batch} + m.batch_count) + " run past the " +
                          num(nb) + " batches");
    for (std::uint32_t bi = 0; bi < m.batch_count; ++bi) {
      const std::uint64_t rel = 16 * (std::uint64_t{m.first_batch} + bi);
      const std::uint64_t r = bs->off + rel;
      SkinBatch b{u32(r), u32(r + 4), u16(r + 8), u16(r + 12), u16(r + 14), rel};
      if (std::uint64_t{b.first_vertex} + b.vertex_count > vc)
        return fail_sec(ErrorCode::kOutOfRange, *bs, rel,
                        who + " batch " + num(bi) + " vertices " + num(b.first_vertex) + ".." +
                            num(std::uint64_t{b.first_vertex} + b.vertex_count) +
                            " run past the subset's " + num(vc) + " vertices");
      for (std::uint32_t v = 0; v < b.vertex_count; ++v)
        batch_of[b.first_vertex + v] = static_cast<std::int32_t>(batches.size());
      batches.push_back(b);
      if (!batched || gpu) continue;
      // Groups of up to 16 vertices sharing one influence count.
      std::uint64_t pos = b.data_offset;
      for (std::uint32_t done = 0; done < b.vertex_count;) {
        if (auto e = need(*ds, pos, 1, "skin group header"); !e) return e;
        const std::uint32_t k = std::uint32_t{u8(ds->off + pos)} + 1;
        ++pos;
        const std::uint32_t group = std::min<std::uint32_t>(16, b.vertex_count - done);
        const std::uint64_t per = k == 1 ? 1 : 2 * std::uint64_t{k};
        if (auto e = need(*ds, pos, per * group, "skin group of " + num(group) + " vertices"); !e)
          return e;
        for (std::uint32_t g = 0; g < group; ++g, ++done) {
          auto& list = infl[b.first_vertex + done];
          list.clear();
          for (std::uint32_t q = 0; q < k; ++q) {
            const std::uint64_t at = pos + (k == 1 ? 0 : 2 * std::uint64_t{q});
            const std::uint32_t local = u8(ds->off + at);
            const float w = k == 1 ? 1.0f : static_cast<float>(u8(ds->off + at + 1)) / 256.0f;
            if (w <= 0.0f) continue;
            auto joint = map_joint(b, local, *ds, at);
            if (!joint) return fail(joint.error());
            auto it = std::find_if(list.begin(), list.end(),
                                   [&](const Influence& x) { return x.joint == *joint; });
            if (it != list.end())
              it->weight += w;
            else
              list.push_back({*joint, w});
          }
          pos += per;
        }
      }
    }
  }
  if (gpu) {
    const Sec* gs = find(kTagGpuSkin);
    if (!gs)
      return fail_at(ErrorCode::kParse, base_ + m.record,
                     sec_label(kTagSubset) + ": " + who +
                         " uses GPU skin (flag 0x100) but there is no GPU Skin section");
    if (auto e = need(*gs, 8 * std::uint64_t{m.first_weight}, 8 * std::uint64_t{vc},
                      "GPU skin entries of " + who);
        !e)
      return e;
    for (std::uint32_t v = 0; v < vc; ++v) {
      const std::uint64_t at = 8 * (std::uint64_t{m.first_weight} + v);
      auto& list = infl[v];
      list.clear();
      float sum = 0.0f;
      for (int q = 0; q < 4; ++q) sum += static_cast<float>(u8(gs->off + at + 4 + q));
      for (std::uint64_t q = 0; q < 4; ++q) {
        const float w = static_cast<float>(u8(gs->off + at + 4 + q));
        if (w <= 0.0f) continue;
        const std::uint32_t id = u8(gs->off + at + q);
        std::uint16_t joint = 0;
        if (batch_of[v] >= 0) {
          auto j = map_joint(batches[static_cast<std::size_t>(batch_of[v])], id, *gs, at + q);
          if (!j) return fail(j.error());
          joint = *j;
        } else if (id < joint_count_) {
          joint = static_cast<std::uint16_t>(id);
        } else {
          return fail_sec(ErrorCode::kOutOfRange, *gs, at + q,
                          who + ": GPU skin joint " + num(id) + " does not exist (" +
                              num(joint_count_) + " joints)");
        }
        auto it = std::find_if(list.begin(), list.end(),
                               [&](const Influence& x) { return x.joint == joint; });
        if (it != list.end())
          it->weight += w / sum;
        else
          list.push_back({joint, w / sum});
      }
    }
  }
  // Keep the 4 largest influences and renormalise (§9.4).
  part.streams.joints.assign(vc, glm::u16vec4(0));
  part.streams.weights.assign(vc, vec4(0.0f));
  for (std::uint32_t v = 0; v < vc; ++v) {
    auto& list = infl[v];
    std::stable_sort(list.begin(), list.end(),
                     [](const Influence& a, const Influence& b) { return a.weight > b.weight; });
    if (list.size() > 4) {
      ++skin_dropped_vertices_;
      skin_largest_dropped_ = std::max(skin_largest_dropped_, list[4].weight);
      list.resize(4);
    }
    float sum = 0.0f;
    for (const Influence& x : list) sum += x.weight;
    for (std::size_t q = 0; q < list.size(); ++q) {
      part.streams.joints[v][static_cast<int>(q)] = list[q].joint;
      part.streams.weights[v][static_cast<int>(q)] = sum > 0.0f ? list[q].weight / sum : 0.0f;
    }
  }
  return {};
}

Status Parser::build_meshes(RawModel& out) {
  // Selection (§6.4).
  if (opt_.look < 0 || static_cast<std::size_t>(opt_.look) >= info_.looks.size())
    return fail(Error::at(ErrorCode::kOutOfRange, path_, "look " + std::to_string(opt_.look),
                          "look " + std::to_string(opt_.look) + " does not exist (" +
                              num(info_.looks.size()) + " looks)"));
  const InsomniacLook& look = info_.looks[static_cast<std::size_t>(opt_.look)];
  if (opt_.lod < 0 || static_cast<std::size_t>(opt_.lod) >= look.lods.size())
    return fail(Error::at(ErrorCode::kOutOfRange, path_, "lod " + std::to_string(opt_.lod),
                          "LOD " + std::to_string(opt_.lod) + " does not exist (" +
                              num(look.lods.size()) + " LOD slots per look)"));
  const InsomniacLodRange range = look.lods[static_cast<std::size_t>(opt_.lod)];
  if (range.count == 0 && !subsets_.empty())
    return fail(Error::at(ErrorCode::kOutOfRange, path_, "lod " + std::to_string(opt_.lod),
                          "look " + std::to_string(opt_.look) + " ('" + look.name +
                              "') has no LOD " + std::to_string(opt_.lod)));
  for (std::uint32_t i = range.first; i < std::uint32_t{range.first} + range.count; ++i)
    selected_.push_back(i);
  info_.loaded_subsets = selected_;

  // Output budget, checked before anything per vertex is allocated.
  std::uint64_t cost = 0;
  for (std::uint32_t si : selected_) {
    const Subset& m = subsets_[si];
    std::uint64_t targets = 0;
    for (const Morph& mo : morphs_)
      for (const MorphSubset& ms : mo.subsets)
        if (ms.subset == si) ++targets;
    cost += std::uint64_t{m.vertex_count} * (128 + 24 * targets) + 4 * std::uint64_t{m.index_count};
  }
  const std::uint64_t budget =
      kInsomniacDecodeBudgetBase + kInsomniacDecodeBudgetFactor * file_.size();
  if (cost > budget)
    return fail_at(ErrorCode::kLimit, base_,
                   "decoding look " + std::to_string(opt_.look) + " LOD " +
                       std::to_string(opt_.lod) + " would produce " + num(cost) +
                       " bytes, more than the " + num(budget) + "-byte budget for this file");

  const Sec* uv1 = find(kTagUv1);
  const Sec* col = find(kTagColor);
  const Sec* tex = family_ == InsomniacFamily::kSo ? find(kTagTexVert) : nullptr;
  const Sec* ss = find(kTagSubset);
  const std::uint64_t tex_stride = tex && tex->size == 8 * vertex_total_ ? 8 : 4;

  for (std::uint32_t si : selected_) {
    const Subset& m = subsets_[si];
    if (m.vertex_count == 0) {
      warn("byte " + num(base_ + m.record), "subset " + num(si) + " has no vertices; skipped");
      continue;
    }
    if (!out.materials.empty() || m.material != 0) {
      if (m.material >= out.materials.size())
        return fail_sec(ErrorCode::kOutOfRange, *ss,
                        m.record - ss->off + (family_ == InsomniacFamily::kSo ? 0x22 : 0x26),
                        "subset " + num(si) + " uses material " + num(m.material) + ", model has " +
                            num(out.materials.size()));
    }
    Mesh mesh;
    char name[16];
    std::snprintf(name, sizeof name, "sm%02u", si);
    mesh.name = name;
    MeshPart part;
    part.material = out.materials.empty() ? -1 : m.material;
    const std::size_t vc = m.vertex_count;
    VertexStreams& st = part.streams;
    st.positions.resize(vc);
    st.normals.resize(vc);
    st.uv0.resize(vc);
    bool any_frame = false;
    for (std::size_t k = 0; k < vc; ++k) {
      const std::size_t g = m.vertex_start + k;
      vec3 p(verts_.x[g], verts_.y[g], verts_.z[g]);
      p *= pos_scale_;
      if (opt_.apply_position_offset) p += pos_offset_;
      st.positions[k] = p;
      st.normals[k] = insomniac_decode_normal(verts_.n[g]);
      if (!(verts_.n[g] == kNoFrameNormal && verts_.w[g] == kNoFrameW)) any_frame = true;
      st.uv0[k] = vec2(verts_.u[g], verts_.v[g]) * uv0_scale_;
    }
    if (any_frame) {
      st.tangents.resize(vc);
      for (std::size_t k = 0; k < vc; ++k) {
        const std::size_t g = m.vertex_start + k;
        if (verts_.n[g] == kNoFrameNormal && verts_.w[g] == kNoFrameW) {
          const vec3 n = st.normals[k];
          const vec3 t = std::abs(n.x) < 0.9f ? vec3(1, 0, 0) : vec3(0, 1, 0);
          st.tangents[k] = vec4(glm::normalize(t - n * glm::dot(n, t)), 1.0f);
          continue;
        }
        float w = verts_.w[g] < 0 ? 1.0f : -1.0f;
        if (opt_.flip_tangent_w) w = -w;
        st.tangents[k] = vec4(insomniac_decode_tangent(verts_.n[g], verts_.w[g]), w);
      }
    }
    if (family_ == InsomniacFamily::kSo) {
      if (tex) {
        if (auto e = need(*tex, tex_stride * (std::uint64_t{m.vertex_start} + vc), 0,
                          "SO texture coordinates of subset " + num(si));
            !e)
          return e;
        for (std::size_t k = 0; k < vc; ++k) {
          const std::uint64_t at = tex->off + tex_stride * (m.vertex_start + k);
          st.uv0[k] = vec2(glm::unpackHalf1x16(u16(at)), glm::unpackHalf1x16(u16(at + 2)));
        }
      } else {
        st.uv0.clear();
      }
    }
    if (uv1) {
      if (auto e =
              need(*uv1, 4 * (std::uint64_t{m.vertex_start} + vc), 0, "UV1 of subset " + num(si));
          !e)
        return e;
      st.uv1.resize(vc);
      for (std::size_t k = 0; k < vc; ++k) {
        const std::uint64_t at = uv1->off + 4 * (m.vertex_start + k);
        st.uv1[k] = vec2(i16(at), i16(at + 2)) * uv1_scale_;
      }
    }
    if (col) {
      if (auto e = need(*col, 4 * (std::uint64_t{m.vertex_start} + vc), 0,
                        "colours of subset " + num(si));
          !e)
        return e;
      st.colors.resize(vc);
      for (std::size_t k = 0; k < vc; ++k) {
        const std::uint64_t at = col->off + 4 * (m.vertex_start + k);
        st.colors[k] = vec4(u8(at), u8(at + 1), u8(at + 2), u8(at + 3)) / 255.0f;
      }
    }
    // Triangles, made local, then oriented (§15 item 7).
    part.indices.resize(m.index_count);
    const std::uint32_t sub = (m.flags & kFlagLocalIndices) ? 0 : m.vertex_start;
    for (std::size_t k = 0; k < m.index_count; ++k)
      part.indices[k] = indices_[m.index_start + k] - sub;
    bool reverse = opt_.winding == InsomniacWinding::kReversed;
    if (opt_.winding == InsomniacWinding::kAuto) {
      std::size_t agree = 0;
      const std::size_t tris = m.index_count / 3;
      for (std::size_t t = 0; t < tris; ++t) {
        const std::uint32_t a = part.indices[3 * t], b = part.indices[3 * t + 1],
                            c = part.indices[3 * t + 2];
        const vec3 face =
            glm::cross(st.positions[b] - st.positions[a], st.positions[c] - st.positions[a]);
        const vec3 nsum = st.normals[a] + st.normals[b] + st.normals[c];
        if (glm::dot(face, nsum) > 0.0f) ++agree;
      }
      reverse = !(2 * agree > tris);
    }
    if (reverse) {
      ++reversed_subsets_;
      for (std::size_t t = 0; t + 2 < part.indices.size(); t += 3)
        std::swap(part.indices[t], part.indices[t + 2]);
    }
    if (auto e = decode_skin(si, part); !e) return e;
    if (!part.streams.joints.empty()) mesh.skin = 0;
    if (auto e = decode_morphs(si, mesh, part); !e) return e;
    mesh.parts.push_back(std::move(part));
    out.meshes.push_back(std::move(mesh));
  }
  if (opt_.winding == InsomniacWinding::kAuto && !selected_.empty())
    decide("winding auto: " + num(reversed_subsets_) + " of " + num(selected_.size()) +
           " subsets reversed to counter-clockwise (open question 7, option winding)");
  if (skin_dropped_vertices_ > 0)
    warn({}, num(skin_dropped_vertices_) +
                 " vertices have more than 4 skin influences; kept the 4 largest (largest dropped "
                 "weight " +
                 std::to_string(skin_largest_dropped_) + ")");
  return {};
}

Result<RawModel> Parser::run() {
  RawModel out;
  out.format = "insomniac";
  out.source_path = path_;
  out.name = stem_of(path_);
  if (auto r = parse_container(); !r) return fail(r.error());
  if (auto r = parse_built(); !r) return fail(r.error());
  if (auto r = parse_subsets(); !r) return fail(r.error());
  if (auto r = parse_indices(); !r) return fail(r.error());
  if (auto r = choose_family(); !r) return fail(r.error());
  if (family_ != InsomniacFamily::kSo && (info_.game == InsomniacGame::kRcra) &&
      opt_.uv0_scale <= 0.0f)
    decide("RCRA UV0 scaled by the Built UV shift, " + std::to_string(uv0_scale_) +
           " (open question 1, option uv0_scale)");
  if (auto r = parse_looks(); !r) return fail(r.error());
  if (auto r = parse_materials(out); !r) return fail(r.error());
  if (auto r = parse_vertices(); !r) return fail(r.error());
  if (auto r = parse_skeleton(out); !r) return fail(r.error());
  if (auto r = parse_locators(out); !r) return fail(r.error());
  if (auto r = parse_morphs(); !r) return fail(r.error());
  if (auto r = build_meshes(out); !r) return fail(r.error());
  for (const InsomniacSection& s : info_.sections)
    if (!s.interpreted)
      warn("byte " + num(s.offset),
           sec_label(s.tag) + ", " + num(s.size) + " bytes: not interpreted, kept raw");
  return out;
}

Result<std::vector<std::uint8_t>> read_file(std::string_view path, std::uint64_t max_bytes) {
  std::error_code ec;
  const std::filesystem::path p(std::string{path});
  const auto size = std::filesystem::file_size(p, ec);
  if (ec)
    return fail(
        Error::at(ErrorCode::kIo, std::string(path), {}, "cannot read file: " + ec.message()));
  if (size > max_bytes)
    return fail(Error::at(
        ErrorCode::kLimit, std::string(path), {},
        "file is " + num(size) + " bytes, more than the " + num(max_bytes) + "-byte limit"));
  std::ifstream in(p, std::ios::binary);
  if (!in) return fail(Error::at(ErrorCode::kIo, std::string(path), {}, "cannot open file"));
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size));
  if (!in && size > 0) return fail(Error::at(ErrorCode::kIo, std::string(path), {}, "short read"));
  return bytes;
}

}  // namespace

Result<RawModel> read_insomniac_raw_memory(std::span<const std::uint8_t> bytes,
                                           std::string_view path_for_errors,
                                           const InsomniacOptions& options, Diagnostics* diag,
                                           InsomniacInfo* info) {
  InsomniacInfo local;
  InsomniacInfo& target = info ? *info : local;
  target = InsomniacInfo{};
  if (bytes.size() > options.max_file_bytes)
    return fail(Error::at(ErrorCode::kLimit, std::string(path_for_errors), {},
                          "input is " + num(bytes.size()) + " bytes, more than the " +
                              num(options.max_file_bytes) + "-byte limit"));
  Parser parser(bytes, std::string(path_for_errors), options, diag, target);
  return parser.run();
}

Result<RawModel> read_insomniac_raw(std::string_view path, const InsomniacOptions& options,
                                    Diagnostics* diag, InsomniacInfo* info) {
  auto bytes = read_file(path, options.max_file_bytes);
  if (!bytes) return fail(bytes.error());
  return read_insomniac_raw_memory(*bytes, path, options, diag, info);
}

Result<Model> load_insomniac_memory(std::span<const std::uint8_t> bytes,
                                    std::string_view path_for_errors,
                                    const InsomniacOptions& options, Diagnostics* diag,
                                    InsomniacInfo* info) {
  auto raw = read_insomniac_raw_memory(bytes, path_for_errors, options, diag, info);
  if (!raw) return fail(raw.error());
  return build_model(std::move(*raw), diag);
}

Result<Model> load_insomniac(std::string_view path, const InsomniacOptions& options,
                             Diagnostics* diag, InsomniacInfo* info) {
  auto raw = read_insomniac_raw(path, options, diag, info);
  if (!raw) return fail(raw.error());
  return build_model(std::move(*raw), diag);
}

}  // namespace critter::io
