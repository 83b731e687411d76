// SPDX-License-Identifier: MIT
#include "critter/io/crit/crit_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "core/finite_floats.h"
#include "critter/core/uninitialized_allocator.h"
#include "critter/io/atomic_file.h"
#include "critter/io/byte_reader.h"
#include "critter/io/byte_writer.h"
#include "io/crit/crit_checksum.h"

namespace critter::io {

namespace {

constexpr char kMagic[4] = {'C', 'R', 'I', 'T'};

// Arrays of elements aligned to 2 or 4 bytes start at a body offset that is a multiple of that
// alignment (zero bytes in between), so that a file read into aligned memory is copied into
// vectors as it is.
std::size_t padded(std::size_t position, std::size_t alignment) {
  return (position + alignment - 1) / alignment * alignment;
}

// The floats of an array of floats or of float vectors.
template <class T>
std::span<const float> floats(std::span<const T> v) {
  return {reinterpret_cast<const float*>(v.data()), v.size() * sizeof(T) / sizeof(float)};
}

// Appends fields to the file's bytes. The visitors below call the same members on a Writer and a
// Reader, so that one function describes each part of the layout for both directions.
class Writer {
 public:
  static constexpr bool kReading = false;
  ByteWriter out;

  template <class T>
  void pod(T& v) {
    out.write(v);
  }
  template <class T, class A>
  void array(std::vector<T, A>& v) {
    out.write(static_cast<std::uint32_t>(v.size()));
    out.bytes.resize(padded(out.bytes.size(), alignof(T)), 0);
    out.write_span(std::span<const T>(v));
  }
  void string(std::string& s) { out.write_string<std::uint32_t>(s); }
  void boolean(bool& b) { out.write(std::uint8_t{b ? std::uint8_t{1} : std::uint8_t{0}}); }
  template <class E>
  void enumeration(E& e, unsigned) {
    out.write(static_cast<std::uint8_t>(e));
  }
  // The element count of a vector of structures, which the caller then visits one by one.
  template <class T>
  std::size_t count(std::vector<T>& v, std::size_t) {
    out.write(static_cast<std::uint32_t>(v.size()));
    return v.size();
  }
  // A list of records whose bytes in memory are their bytes in the file.
  template <class T>
  void records(std::vector<T>& v) {
    array(v);
  }
  // An array of floats or of float vectors, laid out as array() does.
  template <class T, class A>
  void finite_array(std::vector<T, A>& v, const char*) {
    array(v);
  }
  bool ok() const { return true; }
  bool check(bool, const char*) { return true; }
  void invalid_at(std::size_t, const char*) {}
  std::size_t position() const { return out.bytes.size(); }
};

// Reads fields from the body through a ByteReader, which checks every size against the bytes
// left. Framing failures (the bytes end, a count too large) are ErrorCode::kParse, broken rules
// (check, fail_at) kInvalid; the first failure is kept and every later read leaves zeros.
class Reader {
 public:
  static constexpr bool kReading = true;

  // `checksum` receives every byte of the body, each part just before it is copied (see
  // hash_to) and the rest at finish().
  Reader(std::span<const std::uint8_t> body, std::uint64_t base, std::string path,
         detail::StreamingChecksum& checksum)
      : in_(body, base, "file"), path_(std::move(path)), checksum_(checksum) {}

  template <class T>
  void pod(T& v) {
    in_.read(v);
  }
  template <class T>
  void array(std::vector<T>& v) {
    const auto n = in_.read<std::uint32_t>();
    skip_padding(alignof(T));
    hash_to(in_.position() + std::uint64_t{n} * sizeof(T));
    in_.read_array(v, n);
  }
  // An array of floats or of float vectors (laid out as array()), every float of which must be
  // finite: hashed, copied and checked 8 KB at a time, so that the copy and the check read bytes
  // the hash has just brought into the first-level cache (one pass over the file's bytes from
  // memory instead of three; 8 KB pieces measured about 2 % faster than 4 KB ones, fewer calls of
  // the streaming hash). The check reads the file's bytes, not the copy's, whose stores may
  // still be waiting for their cache lines. Fails with `message` at the byte offset of the first
  // non-finite float.
  template <class T, class A>
  void finite_array(std::vector<T, A>& v, const char* message) {
    static_assert(sizeof(T) % sizeof(float) == 0 && alignof(T) == alignof(float));
    // Storage that resize() leaves unwritten (UninitializedAllocator) takes each piece in one
    // pass that copies and checks it; other vectors grow piece by piece and are checked after.
    constexpr bool kUninitialized = std::is_same_v<A, UninitializedAllocator<T>>;
    const auto n = in_.read<std::uint32_t>();
    skip_padding(alignof(T));
    const std::size_t at = in_.position();
    const std::uint8_t* p = in_.view(n, sizeof(T), "an array");
    v.clear();
    if (p == nullptr) return;
    bool finite = true;
    if (reinterpret_cast<std::uintptr_t>(p) % alignof(T) != 0) {
      // Bytes handed over at an odd address (read_crit takes any span): copied as bytes first.
      hash_to(at + std::size_t{n} * sizeof(T));
      v.resize(n);
      std::memcpy(v.data(), p, std::size_t{n} * sizeof(T));
      finite = all_finite_floats(floats(std::span<const T>(v)));
    } else {
      if constexpr (kUninitialized)
        v.resize(n);
      else
        v.reserve(n);
      const T* first = reinterpret_cast<const T*>(p);
      constexpr std::size_t kPiece = 8192 / sizeof(T);
      for (std::size_t i = 0; i < n; i += kPiece) {
        const std::size_t m = std::min<std::size_t>(kPiece, n - i);
        hash_to(at + (i + m) * sizeof(T));
        const std::span<const float> piece = floats(std::span<const T>(first + i, m));
        if constexpr (kUninitialized) {
          finite &= copy_finite_floats(piece, reinterpret_cast<float*>(v.data() + i));
        } else {
          v.insert(v.end(), first + i, first + i + m);
          finite &= all_finite_floats(piece);
        }
      }
    }
    if (!finite) {
      const std::size_t bad = first_non_finite(floats(std::span<const T>(v)));
      invalid_at(at + bad * sizeof(float), message);
    }
  }
  void string(std::string& s) {
    const auto n = in_.read<std::uint32_t>();
    in_.read_string(s, n);
  }
  void boolean(bool& b) {
    std::uint8_t v = 0;
    pod(v);
    check(v <= 1, "a flag is neither 0 nor 1");
    b = v == 1;
  }
  template <class E>
  void enumeration(E& e, unsigned max) {
    std::uint8_t v = 0;
    pod(v);
    check(v <= max, "an enumeration value is out of range");
    e = static_cast<E>(v <= max ? v : 0);
  }
  // A count of structures each at least `min_bytes` long: bounded by the bytes left, so a
  // hostile count cannot make the reader allocate more than the file holds.
  template <class T>
  std::size_t count(std::vector<T>& v, std::size_t min_bytes) {
    const std::uint64_t n = in_.read_count<std::uint32_t>(min_bytes);
    v.resize(static_cast<std::size_t>(n));
    return static_cast<std::size_t>(n);
  }
  // A list of records whose bytes in memory are their bytes in the file: one copy.
  template <class T>
  void records(std::vector<T>& v) {
    const std::uint64_t n = in_.read_count<std::uint32_t>(sizeof(T));
    skip_padding(alignof(T));
    hash_to(in_.position() + n * sizeof(T));
    in_.read_array(v, n);
  }
  bool ok() const { return in_.ok(); }
  // Fails at the last field read when `condition` is false.
  bool check(bool condition, const char* message) {
    if (!condition && ok()) {
      in_.fail(message);
      invalid_ = true;
    }
    return condition && ok();
  }
  // Fails at `at` (a position in the body) with a broken rule.
  void invalid_at(std::size_t at, std::string message) {
    if (!ok()) return;
    in_.fail_at(at, std::move(message));
    invalid_ = true;
  }
  // Adopts an error from a part's own checks, located at the part's first byte.
  void fail_at(std::size_t at, const Error& e) {
    const std::string where = e.location.empty() ? "" : e.location + ": ";
    invalid_at(at, where + e.message);
  }
  void fail(ErrorCode code, std::string message) {
    if (!ok()) return;
    in_.fail(std::move(message));
    invalid_ = code == ErrorCode::kInvalid;
  }
  // Hashes the body up to `end` (clamped to its size): an array is hashed right before it is
  // copied, so that the copy reads bytes the hash has just brought into cache.
  void hash_to(std::uint64_t end) {
    const std::span<const std::uint8_t> body = in_.bytes();
    const std::size_t to = static_cast<std::size_t>(std::min<std::uint64_t>(end, body.size()));
    if (to <= hashed_) return;
    checksum_.update(body.data() + hashed_, to - hashed_);
    hashed_ = to;
  }
  // Hashes what is left of the body and returns the checksum.
  std::uint64_t finish() {
    hash_to(in_.bytes().size());
    return checksum_.digest();
  }
  // The zero bytes before an array's elements.
  void skip_padding(std::size_t alignment) {
    const std::size_t pad = padded(in_.position(), alignment) - in_.position();
    if (pad == 0) return;
    const std::uint8_t* p = in_.view(pad, 1, "an array's padding");
    if (p != nullptr && std::any_of(p, p + pad, [](std::uint8_t b) { return b != 0; }))
      invalid_at(in_.field_position(), "an array's padding is not zero");
  }
  std::size_t position() const { return in_.position(); }
  bool at_end() const { return in_.at_end(); }
  Error error() const {
    return Error::at_offset(invalid_ ? ErrorCode::kInvalid : ErrorCode::kParse, path_,
                            in_.error_offset(), in_.error_message());
  }

 private:
  ByteReader in_;
  std::string path_;
  detail::StreamingChecksum& checksum_;
  std::size_t hashed_ = 0;
  bool invalid_ = false;
};

template <class Io>
void visit_texture(Io& io, TextureRef& t, std::size_t images) {
  io.pod(t.image);
  io.check(t.image >= -1 && t.image < static_cast<std::int64_t>(images),
           "texture image index out of range");
  io.pod(t.texcoord);
  io.boolean(t.has_transform);
  io.pod(t.offset);
  io.pod(t.rotation);
  io.pod(t.scale);
  io.pod(t.wrap_s);
  io.pod(t.wrap_t);
  io.pod(t.mag_filter);
  io.pod(t.min_filter);
}

template <class Io>
void visit_material(Io& io, Material& m, std::size_t images) {
  io.string(m.name);
  io.pod(m.base_color_factor);
  visit_texture(io, m.base_color_texture, images);
  visit_texture(io, m.normal_texture, images);
  io.pod(m.metallic_factor);
  io.pod(m.roughness_factor);
  io.pod(m.emissive_factor);
  io.enumeration(m.alpha_mode, 2);
  io.pod(m.alpha_cutoff);
  io.boolean(m.double_sided);
  io.boolean(m.unlit);
}

template <class Io>
void visit_image(Io& io, Image& image) {
  io.string(image.name);
  io.string(image.uri);
  io.string(image.resolved_path);
  io.string(image.mime_type);
  io.array(image.bytes);
  io.boolean(image.missing);
}

template <class Io>
void visit_skin(Io& io, Skin& skin, int joint_count) {
  io.string(skin.name);
  io.array(skin.joints);
  for (const std::int16_t j : skin.joints)
    if (!io.check(j >= 0 && j < joint_count, "skin joint outside the skeleton")) return;
  io.finite_array(skin.inverse_bind, "an inverse bind matrix is not finite");
  io.check(skin.inverse_bind.size() == skin.joints.size(), "one inverse bind matrix per joint");
  io.pod(skin.skeleton_root);
  io.check(skin.skeleton_root >= -1 && skin.skeleton_root < joint_count,
           "skeleton root outside the skeleton");
}

template <class Io, class V>
void visit_stream(Io& io, std::vector<V>& s, std::size_t vertices, const char* message) {
  io.finite_array(s, "a vertex stream value is not finite");
  io.check(s.empty() || s.size() == vertices, message);
}

template <class Io>
void visit_part(Io& io, MeshPart& part, const Mesh& mesh, std::size_t materials,
                std::size_t skin_joints, std::size_t targets) {
  VertexStreams& s = part.streams;
  io.finite_array(s.positions, "a position is not finite");
  const std::size_t n = s.positions.size();
  visit_stream(io, s.normals, n, "normals stream length differs from positions");
  visit_stream(io, s.tangents, n, "tangents stream length differs from positions");
  visit_stream(io, s.uv0, n, "uv0 stream length differs from positions");
  visit_stream(io, s.uv1, n, "uv1 stream length differs from positions");
  visit_stream(io, s.colors, n, "colors stream length differs from positions");
  io.array(s.joints);
  io.check(s.joints.empty() || s.joints.size() == n, "joints stream length differs from positions");
  if constexpr (Io::kReading) {
    std::uint16_t worst = 0;
    for (const glm::u16vec4& j : s.joints) worst = std::max({worst, j.x, j.y, j.z, j.w});
    io.check(mesh.skin < 0 || worst < skin_joints || s.joints.empty(),
             "a vertex joint is outside its skin");
  }
  visit_stream(io, s.weights, n, "weights stream length differs from positions");
  io.array(part.indices);
  if constexpr (Io::kReading) {
    std::uint32_t worst = 0;
    for (const std::uint32_t i : part.indices) worst = std::max(worst, i);
    io.check(part.indices.empty() || worst < n, "an index is outside the vertices");
  }
  io.enumeration(part.topology, 2);
  io.pod(part.material);
  io.check(part.material >= -1 && part.material < static_cast<std::int64_t>(materials),
           "material index out of range");
  const std::size_t count = io.count(part.morphs.targets, 12);
  io.check(count == targets, "a part's morph target count differs from its mesh's");
  for (std::size_t t = 0; t < count && io.ok(); ++t) {
    MorphTarget& target = part.morphs.targets[t];
    visit_stream(io, target.positions, n, "morph positions length differs from the vertices");
    visit_stream(io, target.normals, n, "morph normals length differs from the vertices");
    visit_stream(io, target.tangents, n, "morph tangents length differs from the vertices");
  }
  io.pod(part.bounds);
  io.check(all_finite_floats(std::span<const float>(&part.bounds.min.x, 6)),
           "bounds are not finite");
}

template <class Io>
void visit_mesh(Io& io, Mesh& mesh, std::size_t materials, const std::vector<Skin>& skins,
                int joint_count) {
  io.string(mesh.name);
  io.pod(mesh.bone);
  io.check(mesh.bone >= -1 && mesh.bone < joint_count, "mesh bone outside the skeleton");
  io.pod(mesh.skin);
  io.check(mesh.skin >= -1 && mesh.skin < static_cast<std::int64_t>(skins.size()),
           "mesh skin index out of range");
  const std::size_t names = io.count(mesh.morph_names, 4);
  for (std::size_t i = 0; i < names && io.ok(); ++i) io.string(mesh.morph_names[i]);
  io.finite_array(mesh.default_weights, "a default weight is not finite");
  io.pod(mesh.source_index);
  io.pod(mesh.bounds);
  io.check(all_finite_floats(std::span<const float>(&mesh.bounds.min.x, 6)),
           "bounds are not finite");
  const std::size_t skin_joints =
      mesh.skin >= 0 && static_cast<std::size_t>(mesh.skin) < skins.size()
          ? skins[static_cast<std::size_t>(mesh.skin)].joints.size()
          : 0;
  const std::size_t parts = io.count(mesh.parts, 40);
  for (std::size_t p = 0; p < parts && io.ok(); ++p)
    visit_part(io, mesh.parts[p], mesh, materials, skin_joints, mesh.default_weights.size());
}

// Tracks, timelines and compact tracks are stored as they lie in memory (no padding), so they
// are read in one copy each.
static_assert(sizeof(Track) == 20 && offsetof(Track, components) == 2 &&
              offsetof(Track, index) == 4 && offsetof(Track, key_begin) == 8 &&
              offsetof(Track, key_count) == 12 && offsetof(Track, value_begin) == 16);
static_assert(sizeof(Clip::Timeline) == 8 && offsetof(Clip::Timeline, key_count) == 4);
static_assert(sizeof(CompactTrack) == 6 && offsetof(CompactTrack, key_count) == 2 &&
              offsetof(CompactTrack, target) == 4 && offsetof(CompactTrack, format) == 5);

// After io.records(v), reading: each record's enumerations checked where they lie.
// `bad_byte(record)` gives the byte, inside the record, of its first enumeration out of range, or
// -1; the first such byte fails the read. Writing: true.
template <class Io, class T, class BadByte>
bool enumerations_pass(Io& io, const std::vector<T>& v, BadByte bad_byte) {
  if constexpr (Io::kReading) {
    const std::size_t first = io.position() - v.size() * sizeof(T);
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (const int at = bad_byte(v[i]); at >= 0) {
        io.invalid_at(first + i * sizeof(T) + static_cast<std::size_t>(at),
                      "an enumeration value is out of range");
        return false;
      }
    }
  }
  return true;
}

template <class Io>
void visit_clip(Io& io, ClipParts& c) {
  io.string(c.name);
  io.pod(c.duration);
  io.records(c.tracks);
  // The enumerations, each at its own byte: target at 0, interpolation at 1.
  if (!enumerations_pass(io, c.tracks, [](const Track& t) {
        const bool target = static_cast<unsigned>(t.target) <= 3u;
        return !target ? 0 : static_cast<unsigned>(t.interpolation) > 2u ? 1 : -1;
      }))
    return;
  // Checked finite as they are read (Clip::from_parts would otherwise make a pass of its own).
  io.finite_array(c.times, "a key time is not finite");
  io.finite_array(c.values, "a key value is not finite");
  io.records(c.timelines);
  io.array(c.track_timelines);
  // The batches' interleaved values are not stored: Clip::from_parts makes them from the
  // tracks' values, so a file holds each key once.
  const std::size_t batches = io.count(c.linear_batches, 22);
  for (std::size_t i = 0; i < batches && io.ok(); ++i) {
    Clip::LinearBatch& b = c.linear_batches[i];
    io.enumeration(b.target, 3);
    io.pod(b.lanes);
    io.pod(b.timeline);
    for (std::int32_t& j : b.joints) io.pod(j);
  }
  io.array(c.other_tracks);
  io.array(c.weight_tracks);
}

template <class Io>
void visit_raw_clip(Io& io, RawClip& c) {
  io.string(c.name);
  const std::size_t tracks = io.count(c.tracks, 18);
  for (std::size_t i = 0; i < tracks && io.ok(); ++i) {
    RawTrack& t = c.tracks[i];
    io.enumeration(t.target, 3);
    io.pod(t.index);
    io.enumeration(t.interpolation, 2);
    io.pod(t.components);
    io.array(t.times);
    io.array(t.values);
  }
}

template <class Io>
void visit_compact_clip(Io& io, CompactClipParts& c) {
  io.string(c.name);
  io.pod(c.duration);
  io.array(c.times);
  // A list of 6-byte records as they lie in memory, read in one copy (the times before it end
  // at a multiple of 4 bytes, so no padding arises).
  io.records(c.tracks);
  // The enumerations, each at its own byte: target at 4, format at 5.
  if (!enumerations_pass(io, c.tracks, [](const CompactTrack& t) {
        const bool target = static_cast<unsigned>(t.target) <= 3u;
        return !target ? 4 : static_cast<unsigned>(t.format) > 1u ? 5 : -1;
      }))
    return;
  io.array(c.ranges);
  io.array(c.key_frames);
  io.array(c.words);
  visit_raw_clip(io, c.residual);
}

// The skeleton's arrays as Skeleton keeps them.
struct SkeletonArrays {
  std::vector<std::int16_t> parents;
  std::vector<std::string> names;
  std::vector<Transform> rest;
  std::vector<std::int32_t> sources;
};

// The body: every part of the model in dependency order, so that each index can be checked
// against what it refers to as soon as it is read.
template <class Io>
void visit_model(Io& io, ModelParts& m, SkeletonArrays& skeleton) {
  io.string(m.name);
  io.string(m.format);
  io.string(m.source_path);

  const std::size_t joints = io.count(skeleton.names, 46);
  if constexpr (Io::kReading) {
    skeleton.parents.resize(joints);
    skeleton.rest.resize(joints);
    skeleton.sources.resize(joints);
  }
  for (std::size_t j = 0; j < joints && io.ok(); ++j) {
    io.string(skeleton.names[j]);
    std::int32_t parent = skeleton.parents[j];
    io.pod(parent);
    io.check(parent >= -1 && parent < static_cast<std::int64_t>(j),
             "a joint's parent does not come before it");
    skeleton.parents[j] = static_cast<std::int16_t>(parent);
    Transform& rest = skeleton.rest[j];
    io.pod(rest.translation);
    io.pod(rest.rotation);
    // The builder normalises rotations, and samplers and local-to-model rely on it.
    const float len2 = glm::dot(rest.rotation, rest.rotation);
    io.check(len2 > 0.999f && len2 < 1.001f, "a rest rotation is not a unit quaternion");
    io.pod(rest.scale);
    io.pod(skeleton.sources[j]);
  }
  if constexpr (Io::kReading) {
    if (io.ok()) {
      auto built = Skeleton::from_parts(std::move(skeleton.parents), std::move(skeleton.names),
                                        std::move(skeleton.rest), std::move(skeleton.sources));
      if (!built) return io.fail_at(io.position(), built.error());
      m.skeleton = std::move(*built);
    }
  }
  const int joint_count = static_cast<int>(joints);

  const std::size_t images = io.count(m.images, 21);
  for (std::size_t i = 0; i < images && io.ok(); ++i) visit_image(io, m.images[i]);
  const std::size_t materials = io.count(m.materials, 80);
  for (std::size_t i = 0; i < materials && io.ok(); ++i)
    visit_material(io, m.materials[i], m.images.size());
  const std::size_t skins = io.count(m.skins, 16);
  for (std::size_t i = 0; i < skins && io.ok(); ++i) visit_skin(io, m.skins[i], joint_count);
  const std::size_t meshes = io.count(m.meshes, 44);
  for (std::size_t i = 0; i < meshes && io.ok(); ++i)
    visit_mesh(io, m.meshes[i], m.materials.size(), m.skins, joint_count);
  std::vector<std::size_t> morph_counts;
  for (const Mesh& mesh : m.meshes) morph_counts.push_back(mesh.default_weights.size());

  std::vector<ClipParts> clip_parts;
  if constexpr (!Io::kReading)
    for (const Clip& c : m.clips) clip_parts.push_back(c.parts());
  const std::size_t clips = io.count(clip_parts, 40);
  if constexpr (Io::kReading) m.clips.reserve(clips);
  for (std::size_t i = 0; i < clips && io.ok(); ++i) {
    const std::size_t at = io.position();
    visit_clip(io, clip_parts[i]);
    if constexpr (Io::kReading) {
      if (!io.ok()) return;
      // Interleaved below, or on first use when the file has compact clips.
      auto clip = critter::detail::clip_from_finite_parts(std::move(clip_parts[i]), joint_count,
                                                          morph_counts, {}, true);
      if (!clip) return io.fail_at(at, clip.error());
      m.clips.push_back(std::move(*clip));
    }
  }
  std::vector<CompactClipParts> compact_parts;
  if constexpr (!Io::kReading)
    for (const CompactClip& c : m.compact_clips) compact_parts.push_back(c.parts());
  const std::size_t compact = io.count(compact_parts, 20);
  io.check(compact == 0 || compact == clips, "compact clips must be none or one per clip");
  if constexpr (Io::kReading) {
    // Without compact clips the players sample the exact ones: their batch values are made now,
    // as a clip built from keys makes them, so that no first frame waits for them.
    if (compact == 0 && io.ok())
      for (const Clip& c : m.clips) static_cast<void>(c.batch_values());
  }
  if constexpr (Io::kReading) m.compact_clips.reserve(compact);
  for (std::size_t i = 0; i < compact && io.ok(); ++i) {
    const std::size_t at = io.position();
    visit_compact_clip(io, compact_parts[i]);
    if constexpr (Io::kReading) {
      if (!io.ok()) return;
      auto clip = CompactClip::from_parts(std::move(compact_parts[i]), joint_count, morph_counts);
      if (!clip) return io.fail_at(at, clip.error());
      m.compact_clips.push_back(std::move(*clip));
    }
  }

  io.finite_array(m.rest_model, "a rest transform is not finite");
  io.check(m.rest_model.size() == joints, "one rest transform per joint");
  io.pod(m.bounds);
  io.pod(m.sphere);
  io.check(all_finite_floats(std::span<const float>(&m.bounds.min.x, 6)) &&
               all_finite_floats(std::span<const float>(&m.sphere.center.x, 4)),
           "model bounds are not finite");
}

}  // namespace

bool looks_like_crit(std::span<const std::uint8_t> head) {
  return head.size() >= 4 && std::memcmp(head.data(), kMagic, 4) == 0;
}

std::vector<std::uint8_t> encode_crit(const Model& model) {
  ModelParts parts;
  parts.name = model.name();
  parts.format = model.format();
  parts.source_path = model.source_path();
  parts.meshes.assign(model.meshes().begin(), model.meshes().end());
  parts.skins.assign(model.skins().begin(), model.skins().end());
  parts.clips.assign(model.clips().begin(), model.clips().end());
  parts.compact_clips.assign(model.compact_clips().begin(), model.compact_clips().end());
  parts.materials.assign(model.materials().begin(), model.materials().end());
  parts.images.assign(model.images().begin(), model.images().end());
  parts.rest_model.assign(model.rest_model_transforms().begin(),
                          model.rest_model_transforms().end());
  parts.bounds = model.bounds();
  parts.sphere = model.bounding_sphere();
  const Skeleton& s = model.skeleton();
  SkeletonArrays skeleton{{s.parents().begin(), s.parents().end()},
                          {s.names().begin(), s.names().end()},
                          {s.rest_pose().begin(), s.rest_pose().end()},
                          {s.source_indices().begin(), s.source_indices().end()}};
  Writer w;
  w.out.bytes.resize(kCritHeaderBytes);
  visit_model(w, parts, skeleton);
  std::vector<std::uint8_t>& bytes = w.out.bytes;
  const std::span<const std::uint8_t> body(bytes.data() + kCritHeaderBytes,
                                           bytes.size() - kCritHeaderBytes);
  ByteWriter header;
  header.write(kMagic);
  header.write(kCritVersion);
  header.write(std::uint64_t{body.size()});
  header.write(crit_checksum(body));
  header.write(std::uint64_t{0});
  std::memcpy(bytes.data(), header.bytes.data(), kCritHeaderBytes);
  return std::move(bytes);
}

Status write_crit(const Model& model, std::string_view path) {
  const std::vector<std::uint8_t> bytes = encode_crit(model);
  return write_file_atomic(path, bytes);
}

Result<Model> read_crit(std::span<const std::uint8_t> bytes, std::string_view path) {
  const std::string file(path);
  const auto parse = [&](std::uint64_t offset, std::string msg) {
    return fail(Error::at_offset(ErrorCode::kParse, file, offset, std::move(msg)));
  };
  if (bytes.size() < 4 || !looks_like_crit(bytes))
    return parse(0, "not a .crit file (no CRIT magic)");
  if (bytes.size() < kCritHeaderBytes)
    return parse(bytes.size(), "the file ends inside the 32-byte header");
  ByteReader header(bytes.first(kCritHeaderBytes));
  header.view(sizeof(kMagic), 1, "the magic");
  const auto version = header.read<std::uint32_t>();
  const auto body_size = header.read<std::uint64_t>();
  const auto checksum = header.read<std::uint64_t>();
  const auto reserved = header.read<std::uint64_t>();
  if (version != kCritVersion)
    return parse(4, "format version " + std::to_string(version) +
                        " is not supported (this reader reads version " +
                        std::to_string(kCritVersion) + "; convert the model again)");
  if (body_size != bytes.size() - kCritHeaderBytes)
    return parse(8, "the header says the body has " + std::to_string(body_size) +
                        " bytes, the file holds " +
                        std::to_string(bytes.size() - kCritHeaderBytes));
  if (reserved != 0) return parse(24, "reserved header bytes are not zero");
  const auto body = bytes.subspan(kCritHeaderBytes);
  // The checksum is computed while the body is read (see Reader::hash_to) and compared before
  // anything else is reported: a damaged file is a checksum error whatever else it breaks.
  detail::StreamingChecksum sum;
  Reader r(body, kCritHeaderBytes, file, sum);
  ModelParts parts;
  SkeletonArrays skeleton;
  visit_model(r, parts, skeleton);
  if (r.finish() != checksum) return parse(16, "checksum mismatch: the file is damaged");
  if (r.ok() && !r.at_end()) r.fail(ErrorCode::kParse, "bytes after the model's last field");
  if (!r.ok()) return fail(r.error());
  if (!file.empty() && parts.source_path.empty()) parts.source_path = file;
  return assemble_model(std::move(parts));
}

Result<Model> load_crit(std::string_view path, std::uint64_t max_bytes) {
  const std::string file(path);
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail(Error::at(ErrorCode::kIo, file, "", "cannot open '" + file + "'"));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return fail(Error::at(ErrorCode::kIo, file, "", "cannot read '" + file + "' as a file"));
  }
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_bytes) {
    ::close(fd);
    return fail(
        Error::at(ErrorCode::kLimit, file, "",
                  "the file is larger than the " + std::to_string(max_bytes) + "-byte limit"));
  }
  if (size == 0) {
    ::close(fd);
    return read_crit({}, path);
  }
  // Read in one go into memory that is not cleared first (mapping the file costs more: a page
  // table entry and a fault or a populate per page, and unmapping flushes them).
  const auto n = static_cast<std::size_t>(size);
  const auto bytes = std::make_unique_for_overwrite<std::uint8_t[]>(n);
  std::size_t got = 0;
  while (got < n) {
    const ::ssize_t r = ::read(fd, bytes.get() + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += static_cast<std::size_t>(r);
  }
  ::close(fd);
  if (got != n) return fail(Error::at(ErrorCode::kIo, file, "", "cannot read the file"));
  return read_crit({bytes.get(), n}, path);
}

}  // namespace critter::io
