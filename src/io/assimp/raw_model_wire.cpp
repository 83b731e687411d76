// SPDX-License-Identifier: MIT
#include "io/assimp/raw_model_wire.h"

#include <string>
#include <type_traits>
#include <utility>

#include "critter/io/byte_reader.h"
#include "critter/io/byte_writer.h"

namespace critter::io::assimp_detail {

namespace {

constexpr std::uint32_t kMagic = 0x52544352;  // "RCTR"
constexpr std::uint32_t kVersion = 1;

// The fields of the encoding: counts and sizes are u64, strings and arrays are prefixed by them.
class Writer {
 public:
  ByteWriter out;

  template <class T>
  void pod(const T& v) {
    out.write(v);
  }
  void str(const std::string& s) { out.write_string<std::uint64_t>(s); }
  template <class T>
  void pods(const std::vector<T>& v) {
    out.write_array<std::uint64_t>(std::span<const T>(v));
  }
  void count(std::size_t n) { pod(static_cast<std::uint64_t>(n)); }
  void flag(bool b) { pod(static_cast<std::uint8_t>(b ? 1 : 0)); }
};

// Reads what Writer wrote through a ByteReader: the first failure is kept with its byte offset
// and every later read yields zeros.
class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> bytes) : in_(bytes) {}

  template <class T>
  T pod() {
    return in_.read<T>();
  }
  std::string str() {
    std::string s;
    in_.read_string(s, in_.read<std::uint64_t>());
    return s;
  }
  template <class T>
  std::vector<T> pods() {
    std::vector<T> v;
    in_.read_array(v, in_.read<std::uint64_t>());
    return v;
  }
  // A count of elements of at least `min_bytes` each: never more than the bytes left could hold,
  // so a corrupt count cannot make the decoder allocate.
  std::uint64_t count(std::size_t min_bytes) { return in_.read_count<std::uint64_t>(min_bytes); }
  bool flag() { return pod<std::uint8_t>() != 0; }
  // An enum stored as its underlying value, checked against its last enumerator.
  template <class E>
  E enumerator(E last) {
    const auto v = pod<std::underlying_type_t<E>>();
    if (v > static_cast<std::underlying_type_t<E>>(last))
      in_.fail("an enumeration is out of range");
    return bad() ? E{} : static_cast<E>(v);
  }
  bool bad() const { return !in_.ok(); }
  bool at_end() const { return in_.at_end(); }
  // Fails at the last field read.
  void fail(std::string message) { in_.fail(std::move(message)); }
  // Fails at the next byte to read.
  void fail_here(std::string message) { in_.fail_at(in_.position(), std::move(message)); }
  // "byte N: why", for the first failure.
  std::string where() const {
    return "byte " + std::to_string(in_.error_offset()) + ": " + in_.error_message();
  }

 private:
  ByteReader in_;
};

void put(Writer& w, const Transform& t) {
  w.pod(t.translation);
  w.pod(t.rotation);
  w.pod(t.scale);
}
void get(Reader& r, Transform& t) {
  t.translation = r.pod<vec3>();
  t.rotation = r.pod<quat>();
  t.scale = r.pod<vec3>();
}

void put(Writer& w, const TextureRef& t) {
  w.pod(t.image);
  w.pod(t.texcoord);
  w.flag(t.has_transform);
  w.pod(t.offset);
  w.pod(t.rotation);
  w.pod(t.scale);
  w.pod(t.wrap_s);
  w.pod(t.wrap_t);
  w.pod(t.mag_filter);
  w.pod(t.min_filter);
}
void get(Reader& r, TextureRef& t) {
  t.image = r.pod<std::int32_t>();
  t.texcoord = r.pod<std::int32_t>();
  t.has_transform = r.flag();
  t.offset = r.pod<vec2>();
  t.rotation = r.pod<float>();
  t.scale = r.pod<vec2>();
  t.wrap_s = r.pod<std::int32_t>();
  t.wrap_t = r.pod<std::int32_t>();
  t.mag_filter = r.pod<std::int32_t>();
  t.min_filter = r.pod<std::int32_t>();
}

void put(Writer& w, const MeshPart& p) {
  const VertexStreams& s = p.streams;
  w.pods(s.positions);
  w.pods(s.normals);
  w.pods(s.tangents);
  w.pods(s.uv0);
  w.pods(s.uv1);
  w.pods(s.colors);
  w.pods(s.joints);
  w.pods(s.weights);
  w.pods(p.indices);
  w.pod(p.topology);
  w.pod(p.material);
  w.count(p.morphs.targets.size());
  for (const MorphTarget& t : p.morphs.targets) {
    w.pods(t.positions);
    w.pods(t.normals);
    w.pods(t.tangents);
  }
  w.pod(p.bounds);
}
void get(Reader& r, MeshPart& p) {
  VertexStreams& s = p.streams;
  s.positions = r.pods<vec3>();
  s.normals = r.pods<vec3>();
  s.tangents = r.pods<vec4>();
  s.uv0 = r.pods<vec2>();
  s.uv1 = r.pods<vec2>();
  s.colors = r.pods<vec4>();
  s.joints = r.pods<glm::u16vec4>();
  s.weights = r.pods<vec4>();
  p.indices = r.pods<std::uint32_t>();
  p.topology = r.enumerator(Topology::kPoints);
  p.material = r.pod<std::int32_t>();
  p.morphs.targets.resize(r.count(3 * sizeof(std::uint64_t)));
  for (MorphTarget& t : p.morphs.targets) {
    t.positions = r.pods<vec3>();
    t.normals = r.pods<vec3>();
    t.tangents = r.pods<vec3>();
  }
  p.bounds = r.pod<Aabb>();
}

void put(Writer& w, const RawModel& m) {
  w.str(m.name);
  w.str(m.format);
  w.str(m.source_path);
  w.count(m.skeleton.joints.size());
  for (const RawJoint& j : m.skeleton.joints) {
    w.str(j.name);
    w.pod(j.parent);
    put(w, j.rest);
    w.pod(j.source_index);
  }
  w.count(m.meshes.size());
  for (const Mesh& mesh : m.meshes) {
    w.str(mesh.name);
    w.count(mesh.parts.size());
    for (const MeshPart& p : mesh.parts) put(w, p);
    w.pod(mesh.bone);
    w.pod(mesh.skin);
    w.count(mesh.morph_names.size());
    for (const std::string& n : mesh.morph_names) w.str(n);
    w.pods(mesh.default_weights);
    w.pod(mesh.source_index);
    w.pod(mesh.bounds);
  }
  w.count(m.skins.size());
  for (const Skin& s : m.skins) {
    w.str(s.name);
    w.pods(s.joints);
    w.pods(s.inverse_bind);
    w.pod(s.skeleton_root);
  }
  w.count(m.clips.size());
  for (const RawClip& c : m.clips) {
    w.str(c.name);
    w.str(c.source_location);
    w.count(c.tracks.size());
    for (const RawTrack& t : c.tracks) {
      w.pod(t.target);
      w.pod(t.index);
      w.pod(t.interpolation);
      w.pod(t.components);
      w.pods(t.times);
      w.pods(t.values);
      w.str(t.source_location);
    }
  }
  w.count(m.materials.size());
  for (const Material& mat : m.materials) {
    w.str(mat.name);
    w.pod(mat.base_color_factor);
    put(w, mat.base_color_texture);
    put(w, mat.normal_texture);
    w.pod(mat.metallic_factor);
    w.pod(mat.roughness_factor);
    w.pod(mat.emissive_factor);
    w.pod(mat.alpha_mode);
    w.pod(mat.alpha_cutoff);
    w.flag(mat.double_sided);
    w.flag(mat.unlit);
  }
  w.count(m.images.size());
  for (const Image& i : m.images) {
    w.str(i.name);
    w.str(i.uri);
    w.str(i.resolved_path);
    w.str(i.mime_type);
    w.pods(i.bytes);
    w.flag(i.missing);
  }
}

// Smallest encoded size of one element of each list, so that a corrupt count is caught before
// anything is allocated for it.
constexpr std::size_t kMinString = sizeof(std::uint64_t);

void get(Reader& r, RawModel& m) {
  m.name = r.str();
  m.format = r.str();
  m.source_path = r.str();
  m.skeleton.joints.resize(r.count(kMinString));
  for (RawJoint& j : m.skeleton.joints) {
    j.name = r.str();
    j.parent = r.pod<std::int32_t>();
    get(r, j.rest);
    j.source_index = r.pod<std::int32_t>();
  }
  m.meshes.resize(r.count(kMinString));
  for (Mesh& mesh : m.meshes) {
    mesh.name = r.str();
    mesh.parts.resize(r.count(9 * kMinString));
    for (MeshPart& p : mesh.parts) get(r, p);
    mesh.bone = r.pod<std::int32_t>();
    mesh.skin = r.pod<std::int32_t>();
    mesh.morph_names.resize(r.count(kMinString));
    for (std::string& n : mesh.morph_names) n = r.str();
    mesh.default_weights = r.pods<float>();
    mesh.source_index = r.pod<std::int32_t>();
    mesh.bounds = r.pod<Aabb>();
  }
  m.skins.resize(r.count(3 * kMinString));
  for (Skin& s : m.skins) {
    s.name = r.str();
    s.joints = r.pods<std::int16_t>();
    s.inverse_bind = r.pods<mat4>();
    s.skeleton_root = r.pod<std::int32_t>();
  }
  m.clips.resize(r.count(3 * kMinString));
  for (RawClip& c : m.clips) {
    c.name = r.str();
    c.source_location = r.str();
    c.tracks.resize(r.count(3 * kMinString));
    for (RawTrack& t : c.tracks) {
      t.target = r.enumerator(TrackTarget::kWeights);
      t.index = r.pod<std::int32_t>();
      t.interpolation = r.enumerator(Interpolation::kCubicSpline);
      t.components = r.pod<std::uint32_t>();
      t.times = r.pods<float>();
      t.values = r.pods<float>();
      t.source_location = r.str();
    }
  }
  m.materials.resize(r.count(kMinString));
  for (Material& mat : m.materials) {
    mat.name = r.str();
    mat.base_color_factor = r.pod<vec4>();
    get(r, mat.base_color_texture);
    get(r, mat.normal_texture);
    mat.metallic_factor = r.pod<float>();
    mat.roughness_factor = r.pod<float>();
    mat.emissive_factor = r.pod<vec3>();
    mat.alpha_mode = r.enumerator(AlphaMode::kBlend);
    mat.alpha_cutoff = r.pod<float>();
    mat.double_sided = r.flag();
    mat.unlit = r.flag();
  }
  m.images.resize(r.count(5 * kMinString));
  for (Image& i : m.images) {
    i.name = r.str();
    i.uri = r.str();
    i.resolved_path = r.str();
    i.mime_type = r.str();
    i.bytes = r.pods<std::uint8_t>();
    i.missing = r.flag();
  }
}

}  // namespace

std::vector<std::uint8_t> encode_import(const Result<RawModel>& result,
                                        std::span<const Warning> warnings) {
  Writer w;
  w.pod(kMagic);
  w.pod(kVersion);
  w.count(warnings.size());
  for (const Warning& warning : warnings) {
    w.str(warning.path);
    w.str(warning.location);
    w.str(warning.message);
  }
  w.pod(static_cast<std::uint8_t>(result ? 1 : 0));
  if (result) {
    put(w, *result);
  } else {
    w.pod(static_cast<std::int32_t>(result.error().code));
    w.str(result.error().path);
    w.str(result.error().location);
    w.str(result.error().message);
  }
  return std::move(w.out.bytes);
}

Result<RawModel> decode_import(std::span<const std::uint8_t> bytes, const std::string& path,
                               std::vector<Warning>& warnings) {
  Reader r(bytes);
  const auto bad = [&] {
    if (!r.bad()) r.fail_here("bytes after the answer");
    return fail(Error::at(ErrorCode::kInvalid, path, "",
                          "the isolated import sent a malformed answer (" +
                              std::to_string(bytes.size()) + " bytes; " + r.where() + ")"));
  };
  if (r.pod<std::uint32_t>() != kMagic) {
    r.fail("not an answer (wrong magic)");
    return bad();
  }
  if (r.pod<std::uint32_t>() != kVersion) {
    r.fail("unknown version");
    return bad();
  }
  std::vector<Warning> received(r.count(3 * kMinString));
  for (Warning& w : received) {
    w.path = r.str();
    w.location = r.str();
    w.message = r.str();
  }
  const auto ok = r.pod<std::uint8_t>();
  if (r.bad()) return bad();
  if (ok == 0) {
    const auto code = r.pod<std::int32_t>();
    if (code < 0 || code > static_cast<std::int32_t>(ErrorCode::kUsage))
      r.fail("unknown error code " + std::to_string(code));
    Error e;
    e.path = r.str();
    e.location = r.str();
    e.message = r.str();
    if (r.bad() || !r.at_end()) return bad();
    e.code = static_cast<ErrorCode>(code);
    warnings.insert(warnings.end(), received.begin(), received.end());
    return fail(std::move(e));
  }
  RawModel model;
  get(r, model);
  if (r.bad() || !r.at_end()) return bad();
  warnings.insert(warnings.end(), received.begin(), received.end());
  return model;
}

}  // namespace critter::io::assimp_detail
