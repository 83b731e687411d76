// SPDX-License-Identifier: MIT
// critter.load, critter.Model and what hangs from it (bones, meshes, skins, clips, morph
// targets), Model.sample -> Pose and Model.skin. Numeric data leaves as numpy arrays: views of the
// Model's own buffers (read-only, keeping the Model alive) where the layout allows, copies where
// it does not (a mesh of several parts, row-major matrices).
#include <pybind11/stl.h>
#include <xmmintrin.h>

#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <variant>

#include "bindings.h"
#include "command.h"
#include "critter/anim/local_to_model_job.h"
#include "critter/anim/sampling_job.h"
#include "critter/deform/skin_mesh_part.h"
#include "limbs_arg.h"

namespace critter::python {

// local_trs and the views below read Transform as 10 packed floats: t xyz, r xyzw, s xyz.
static_assert(sizeof(Transform) == 10 * sizeof(float));
static_assert(offsetof(Transform, rotation) == 3 * sizeof(float));
static_assert(offsetof(Transform, scale) == 7 * sizeof(float));
static_assert(sizeof(mat4) == 16 * sizeof(float));

ModelHandle::ModelHandle(std::shared_ptr<const Model> m)
    : model(std::move(m)), layout(anim::MorphLayout::of(*model)) {
  std::size_t total = 0;
  for (const Mesh& mesh : model->meshes()) {
    vertex_offsets.push_back(total);
    for (const MeshPart& part : mesh.parts) total += part.vertex_count();
  }
  vertex_offsets.push_back(total);
}

namespace {

using Handle = std::shared_ptr<ModelHandle>;

struct Bone {
  int index = 0;
  std::string name;
  int parent = -1;
  int source_index = -1;
  std::string repr() const {
    return "Bone(" + std::to_string(index) + ", '" + name + "', parent=" + std::to_string(parent) +
           ")";
  }
};

struct ClipInfo {
  int index = 0;
  std::string name;
  float duration = 0.0f;
  std::string repr() const {
    return "Clip(" + std::to_string(index) + ", '" + name +
           "', duration=" + std::to_string(duration) + ")";
  }
};

struct MorphTarget {
  std::string mesh;
  int mesh_index = 0;
  int index = 0;  // within the mesh
  std::string name;
  float default_weight = 0.0f;
};

// A mesh or one part of it, reading the model through the Python Model object.
struct MeshRef {
  py::object model_object;
  Handle model;
  int mesh = 0;
  int part = -1;  // -1: every part of the mesh

  const Mesh& m() const { return model->model->meshes()[static_cast<std::size_t>(mesh)]; }
  std::vector<const MeshPart*> parts() const {
    std::vector<const MeshPart*> out;
    if (part >= 0) {
      out.push_back(&m().parts[static_cast<std::size_t>(part)]);
    } else {
      for (const MeshPart& p : m().parts) out.push_back(&p);
    }
    return out;
  }
  std::size_t vertex_count() const {
    std::size_t n = 0;
    for (const MeshPart* p : parts()) n += p->vertex_count();
    return n;
  }
};

// A stream of every part as one (V, C) array: a view of the part's vector when there is one part,
// a copy otherwise; parts without the stream give zeros (or an empty array when none has it).
template <class Elem, class Scalar, int C>
py::array stream(const MeshRef& r, const std::vector<Elem> VertexStreams::*member) {
  const auto parts = r.parts();
  bool any = false;
  for (const MeshPart* p : parts) any = any || !(p->streams.*member).empty();
  const py::dtype dtype = py::dtype::of<Scalar>();
  constexpr auto item = static_cast<py::ssize_t>(sizeof(Scalar));
  if (!any) return py::array(dtype, std::vector<py::ssize_t>{0, C});
  if (parts.size() == 1) {
    const auto& v = parts[0]->streams.*member;
    return readonly_view(dtype, {static_cast<py::ssize_t>(v.size()), C}, {C * item, item}, v.data(),
                         r.model_object);
  }
  py::array_t<Scalar> out({static_cast<py::ssize_t>(r.vertex_count()), py::ssize_t{C}});
  auto* dst = out.mutable_data();
  for (const MeshPart* p : parts) {
    const auto& v = p->streams.*member;
    const std::size_t n = p->vertex_count() * C;
    if (v.empty()) {
      std::fill(dst, dst + n, Scalar{});
    } else {
      std::memcpy(dst, v.data(), n * sizeof(Scalar));
    }
    dst += n;
  }
  return out;
}

py::array indices(const MeshRef& r) {
  const auto parts = r.parts();
  if (parts.size() == 1 && !parts[0]->indices.empty()) {
    const auto& v = parts[0]->indices;
    return readonly_view(py::dtype::of<std::uint32_t>(), {static_cast<py::ssize_t>(v.size())}, {4},
                         v.data(), r.model_object);
  }
  std::size_t total = 0;
  for (const MeshPart* p : parts) total += p->element_count();
  py::array_t<std::uint32_t> out(static_cast<py::ssize_t>(total));
  auto* dst = out.mutable_data();
  std::uint32_t base = 0;
  for (const MeshPart* p : parts) {
    if (p->indices.empty()) {
      for (std::size_t i = 0; i < p->vertex_count(); ++i)
        *dst++ = base + static_cast<std::uint32_t>(i);
    } else {
      for (std::uint32_t i : p->indices) *dst++ = base + i;
    }
    base += static_cast<std::uint32_t>(p->vertex_count());
  }
  return out;
}

// glm matrices are column-major: strides that read m[row][col] give a row-major numpy view.
py::array matrix_view(const mat4* data, std::size_t count, py::handle owner) {
  return readonly_view(py::dtype::of<float>(), {static_cast<py::ssize_t>(count), 4, 4}, {64, 4, 16},
                       data, owner);
}

Handle handle_of(const py::object& model) {
  return model.cast<Handle>();
}

int resolve_clip(const Model& model, const std::variant<int, std::string>& clip) {
  if (const int* i = std::get_if<int>(&clip)) {
    const int n = static_cast<int>(model.clips().size());
    const int index = *i < 0 ? *i + n : *i;
    if (index < 0 || index >= n)
      raise_error(Error::at(ErrorCode::kOutOfRange, model.source_path(), "clip",
                            "clip index " + std::to_string(*i) + " is not below the clip count " +
                                std::to_string(n)));
    return index;
  }
  const std::string& name = std::get<std::string>(clip);
  const int index = model.find_clip(name);
  if (index < 0) {
    std::string names;
    for (const Clip& c : model.clips()) names += (names.empty() ? "" : ", ") + c.name();
    raise_error(Error::at(
        ErrorCode::kUsage, model.source_path(), "clip",
        "no clip named '" + name + "' (clips: " + (names.empty() ? "none" : names) + ")"));
  }
  return index;
}

// Writes the transposed (row-major) copy of `m` at `out`: four loads, the SSE transpose and four
// stores, so that the row-major layout costs little next to sampling.
void store_row_major(const mat4& m, float* out) {
  __m128 c0 = _mm_loadu_ps(&m[0][0]);
  __m128 c1 = _mm_loadu_ps(&m[1][0]);
  __m128 c2 = _mm_loadu_ps(&m[2][0]);
  __m128 c3 = _mm_loadu_ps(&m[3][0]);
  _MM_TRANSPOSE4_PS(c0, c1, c2, c3);
  _mm_storeu_ps(out, c0);
  _mm_storeu_ps(out + 4, c1);
  _mm_storeu_ps(out + 8, c2);
  _mm_storeu_ps(out + 12, c3);
}

std::shared_ptr<PoseData> sample(const py::object& model_object,
                                 const std::variant<int, std::string>& clip_arg,
                                 const py::object& times_arg) {
  const Handle h = handle_of(model_object);
  const Model& model = *h->model;
  const int clip_index = resolve_clip(model, clip_arg);
  const py::array_t<float, py::array::c_style | py::array::forcecast> times_array(times_arg);
  if (times_array.ndim() > 1)
    raise_error(Error::at(ErrorCode::kUsage, model.source_path(), "times",
                          "times must be a number or a 1-D sequence of seconds"));
  auto pose = std::make_shared<PoseData>();
  pose->model_object = model_object;
  pose->model = h;
  const Clip& clip = model.clips()[static_cast<std::size_t>(clip_index)];
  pose->clip = clip.name();
  pose->times.assign(times_array.data(), times_array.data() + times_array.size());
  for (float t : pose->times) {
    if (!std::isfinite(t))
      raise_error(Error::at(ErrorCode::kUsage, model.source_path(), "times",
                            "time " + std::to_string(t) + " is not a finite number of seconds"));
  }
  const std::size_t joints = static_cast<std::size_t>(model.skeleton().joint_count());
  const std::size_t weight_count = h->layout.weight_count();
  const std::size_t count = pose->times.size();
  Status status;
  {
    py::gil_scoped_release release;
    pose->locals.allocate(count * joints);
    pose->matrices.allocate(count * joints * 16);
    pose->weights.allocate(count * weight_count);
    anim::SamplingContext context(clip.tracks().size());
    std::vector<mat4> model_space(joints);
    for (std::size_t i = 0; i < count && status; ++i) {
      const std::span<Transform> locals(pose->locals.data() + i * joints, joints);
      const anim::SamplingJob sampling{.clip = &clip,
                                       .time = pose->times[i],
                                       .context = &context,
                                       .rest = model.skeleton().rest_pose(),
                                       .default_weights = h->layout.defaults,
                                       .weight_offsets = h->layout.offsets,
                                       .output = locals,
                                       .output_weights = std::span<float>(
                                           pose->weights.data() + i * weight_count, weight_count)};
      status = sampling.run();
      if (!status) break;
      const anim::LocalToModelJob ltm{
          .parents = model.skeleton().parents(), .input = locals, .output = model_space};
      status = ltm.run();
      float* out = pose->matrices.data() + i * joints * 16;
      for (std::size_t j = 0; j < joints; ++j) store_row_major(model_space[j], out + j * 16);
    }
  }
  check(status);
  return pose;
}

// Every vertex of every mesh part (Model.meshes order) deformed by each pose of `pose`.
py::tuple skin(const py::object& model_object, const PoseData& pose,
               const std::string& normals_by) {
  const Handle h = handle_of(model_object);
  if (pose.model->model != h->model)
    raise_error(Error::at(ErrorCode::kUsage, h->model->source_path(), "pose",
                          "the pose belongs to another model"));
  if (normals_by != "inverse_transpose" && normals_by != "matrix")
    throw py::value_error("normals is 'inverse_transpose' or 'matrix', not '" + normals_by + "'");
  const deform::NormalTransform normal_transform = normals_by == "matrix"
                                                       ? deform::NormalTransform::kMatrix
                                                       : deform::NormalTransform::kInverseTranspose;
  const Model& model = *h->model;
  const std::size_t count = pose.times.size();
  const std::size_t vertices = h->vertex_offsets.back();
  const std::size_t joints = static_cast<std::size_t>(model.skeleton().joint_count());
  py::array_t<float> positions(
      {static_cast<py::ssize_t>(count), static_cast<py::ssize_t>(vertices), py::ssize_t{3}});
  py::array_t<float> normals(
      {static_cast<py::ssize_t>(count), static_cast<py::ssize_t>(vertices), py::ssize_t{3}});
  auto* pos = reinterpret_cast<vec3*>(positions.mutable_data());
  auto* nrm = reinterpret_cast<vec3*>(normals.mutable_data());
  Status status;
  {
    py::gil_scoped_release release;
    std::size_t palette_size = 1;
    for (const Skin& s : model.skins()) palette_size = std::max(palette_size, s.joints.size());
    std::vector<mat4> palette(palette_size);
    std::vector<mat4> model_space(joints);
    const std::size_t weight_count = h->layout.weight_count();
    for (std::size_t i = 0; i < count && status; ++i) {
      const float* rows = pose.matrices.data() + i * joints * 16;
      for (std::size_t j = 0; j < joints; ++j)
        for (int r = 0; r < 4; ++r)
          for (int c = 0; c < 4; ++c) model_space[j][c][r] = rows[j * 16 + r * 4 + c];
      const std::span<const float> weights(pose.weights.data() + i * weight_count, weight_count);
      std::size_t v = i * vertices;
      for (std::size_t m = 0; m < model.meshes().size() && status; ++m) {
        const Mesh& mesh = model.meshes()[m];
        for (std::size_t p = 0; p < mesh.parts.size() && status; ++p) {
          const MeshPart& part = mesh.parts[p];
          const std::size_t n = part.vertex_count();
          const bool has_normals = !part.streams.normals.empty();
          status = deform::skin_mesh_part(
              model, m, p, model_space, h->layout.mesh_weights(weights, m), palette,
              std::span<vec3>(pos + v, n),
              has_normals ? std::span<vec3>(nrm + v, n) : std::span<vec3>{}, {}, normal_transform);
          if (!has_normals) std::fill(nrm + v, nrm + v + n, vec3(0.0f));
          v += n;
        }
      }
    }
  }
  check(status);
  return py::make_tuple(positions, normals);
}

std::string clips_arg(const py::object& clips) {
  if (clips.is_none()) return {};
  if (py::isinstance<py::str>(clips)) return clips.cast<std::string>();
  // A mapping {name: (start, end)} or pairs (name, (start, end)), in the --clips syntax.
  py::object items = py::isinstance<py::dict>(clips) ? clips.attr("items")() : clips;
  std::string text;
  for (py::handle item : items) {
    const auto pair = item.cast<py::tuple>();
    const auto range = pair[1].cast<py::tuple>();
    text += (text.empty() ? "" : ",") + pair[0].cast<std::string>() + ":" +
            py::str(range[0]).cast<std::string>() + "-" + py::str(range[1]).cast<std::string>();
  }
  return text;
}

py::object load(const std::string& path, const py::object& clips, std::optional<double> clips_fps,
                int look, int lod, const std::optional<std::string>& game, bool limbs,
                bool allow_outside_uris) {
  cli::LoadFlags flags;
  flags.allow_outside_uris = allow_outside_uris;
  flags.clips = clips_arg(clips);
  flags.clips_fps = clips_fps;
  flags.look = look;
  flags.lod = lod;
  flags.game = game.value_or("");
  Result<io::LoadOptions> checked = cli::load_options_from(flags);
  if (!checked) {
    // The CLI names the flag ("--clips-fps") as the path: name the file and the keyword instead.
    Error e = checked.error();
    if (e.path.starts_with("--")) {
      std::string keyword = e.path.substr(2);
      std::replace(keyword.begin(), keyword.end(), '-', '_');
      e.location = keyword;
      e.path = path;
    }
    raise_error(e);
  }
  const io::LoadOptions options = *checked;
  Result<Model> loaded = fail(Error{});
  Diagnostics diag;
  {
    py::gil_scoped_release release;
    loaded = tools::with_limbs(cli::load_model(path, options, &diag), limbs, &diag);
  }
  auto handle = std::make_shared<ModelHandle>(
      std::make_shared<const Model>(value_or_raise(std::move(loaded))));
  py::object out = py::cast(handle);
  py::list warnings;
  for (const Warning& w : diag.items()) warnings.append(w.to_string());
  out.attr("__dict__")["warnings"] = warnings;
  return out;
}

}  // namespace

void register_model(py::module_& m) {
  py::class_<Bone>(m, "Bone", "A joint of the skeleton: its index, name and parent (-1: a root).")
      .def_readonly("index", &Bone::index)
      .def_readonly("name", &Bone::name)
      .def_readonly("parent", &Bone::parent)
      .def_readonly("source_index", &Bone::source_index,
                    "The joint's index in the file (glTF node index), -1 when the format has none.")
      .def("__repr__", &Bone::repr);
  py::class_<ClipInfo>(m, "Clip", "An animation clip: its index, name and duration in seconds.")
      .def_readonly("index", &ClipInfo::index)
      .def_readonly("name", &ClipInfo::name)
      .def_readonly("duration", &ClipInfo::duration)
      .def("__repr__", &ClipInfo::repr);
  py::class_<MorphTarget>(m, "MorphTarget",
                          "A morph target: its mesh (name and index), its index within the mesh, "
                          "its name ('' when unnamed) and its default weight.")
      .def_readonly("mesh", &MorphTarget::mesh)
      .def_readonly("mesh_index", &MorphTarget::mesh_index)
      .def_readonly("index", &MorphTarget::index)
      .def_readonly("name", &MorphTarget::name)
      .def_readonly("default_weight", &MorphTarget::default_weight)
      .def("__repr__", [](const MorphTarget& t) {
        return "MorphTarget('" + t.mesh + "', " + std::to_string(t.index) + ", '" + t.name + "')";
      });

  py::class_<MeshRef>(
      m, "Mesh",
      "A mesh (or one part of it, see `parts`): vertex streams as read-only numpy arrays in model "
      "order. Streams a part lacks are empty arrays (zeros for that part when others have it).")
      .def_property_readonly("name", [](const MeshRef& r) { return r.m().name; })
      .def_property_readonly("index", [](const MeshRef& r) { return r.mesh; })
      .def_property_readonly(
          "bone", [](const MeshRef& r) { return r.m().bone; },
          "The bone a rigid mesh hangs from (-1: the model root).")
      .def_property_readonly(
          "skin", [](const MeshRef& r) { return r.m().skin; },
          "Index into Model.skins, -1 when the mesh is not skinned.")
      .def_property_readonly("morph_names", [](const MeshRef& r) { return r.m().morph_names; })
      .def_property_readonly(
          "vertex_offset",
          [](const MeshRef& r) {
            std::size_t v = r.model->vertex_offsets[static_cast<std::size_t>(r.mesh)];
            for (int p = 0; p < r.part; ++p)
              v += r.m().parts[static_cast<std::size_t>(p)].vertex_count();
            return v;
          },
          "Index of this mesh's first vertex in the arrays Model.skin returns.")
      .def_property_readonly("vertex_count", &MeshRef::vertex_count)
      .def_property_readonly(
          "parts",
          [](const MeshRef& r) {
            std::vector<MeshRef> out;
            for (std::size_t p = 0; p < r.m().parts.size(); ++p)
              out.push_back(MeshRef{r.model_object, r.model, r.mesh, static_cast<int>(p)});
            return out;
          },
          "The mesh's parts (one material each), as Mesh objects of one part.")
      .def_property_readonly(
          "material", [](const MeshRef& r) { return r.part >= 0 ? r.parts()[0]->material : -1; })
      .def_property_readonly(
          "positions",
          [](const MeshRef& r) { return stream<vec3, float, 3>(r, &VertexStreams::positions); },
          "float32 (V, 3), mesh space.")
      .def_property_readonly(
          "normals",
          [](const MeshRef& r) { return stream<vec3, float, 3>(r, &VertexStreams::normals); },
          "float32 (V, 3).")
      .def_property_readonly(
          "uvs", [](const MeshRef& r) { return stream<vec2, float, 2>(r, &VertexStreams::uv0); },
          "float32 (V, 2), the first texture coordinate set.")
      .def_property_readonly(
          "joints",
          [](const MeshRef& r) {
            return stream<glm::u16vec4, std::uint16_t, 4>(r, &VertexStreams::joints);
          },
          "uint16 (V, 4): indices into the mesh's skin's joints.")
      .def_property_readonly(
          "weights",
          [](const MeshRef& r) { return stream<vec4, float, 4>(r, &VertexStreams::weights); },
          "float32 (V, 4), summing to 1 on skinned meshes.")
      .def_property_readonly("indices", &indices,
                             "uint32 (N,): vertex indices (parts concatenated, offset to this "
                             "mesh's vertices).")
      .def("__repr__", [](const MeshRef& r) {
        return "Mesh('" + r.m().name + "', vertices=" + std::to_string(r.vertex_count()) + ")";
      });

  py::class_<PoseData, std::shared_ptr<PoseData>>(
      m, "Pose",
      "Poses of a model at T times (T = 1 for a controller's or a creature's pose). Keeps its "
      "Model "
      "alive.")
      .def_property_readonly("model", [](const PoseData& p) { return p.model_object; })
      .def_property_readonly("clip", [](const PoseData& p) { return p.clip; })
      .def_property_readonly("times", [](const PoseData& p) { return p.times; })
      .def("__len__", [](const PoseData& p) { return p.times.size(); })
      .def_property_readonly(
          "local_trs",
          [](py::object self) {
            const auto& p = self.cast<const PoseData&>();
            const auto t = static_cast<py::ssize_t>(p.times.size());
            const auto j = static_cast<py::ssize_t>(p.model->model->skeleton().joint_count());
            return readonly_view(py::dtype::of<float>(), {t, j, 10}, {j * 40, 40, 4},
                                 p.locals.data(), self);
          },
          "float32 (T, J, 10): each joint's local translation xyz, rotation quaternion xyzw and "
          "scale xyz, in Model.bones order.")
      .def_property_readonly(
          "model_matrices",
          [](py::object self) {
            const auto& p = self.cast<const PoseData&>();
            const auto t = static_cast<py::ssize_t>(p.times.size());
            const auto j = static_cast<py::ssize_t>(p.model->model->skeleton().joint_count());
            return readonly_view(py::dtype::of<float>(), {t, j, 4, 4}, {j * 64, 64, 16, 4},
                                 p.matrices.data(), self);
          },
          "float32 (T, J, 4, 4): each joint's model-space matrix (model_from_joint), row-major "
          "(m[t, j, row, col]; column vectors, translation in the last column).")
      .def_property_readonly(
          "morph_weights",
          [](py::object self) {
            const auto& p = self.cast<const PoseData&>();
            const auto t = static_cast<py::ssize_t>(p.times.size());
            const auto w = static_cast<py::ssize_t>(p.model->layout.weight_count());
            return readonly_view(py::dtype::of<float>(), {t, w}, {w * 4, 4}, p.weights.data(),
                                 self);
          },
          "float32 (T, W): every mesh's morph weights, flat in Model.morph_targets order.")
      .def("__repr__", [](const PoseData& p) {
        return "Pose(clip='" + p.clip + "', times=" + std::to_string(p.times.size()) + ")";
      });

  py::class_<ModelHandle, std::shared_ptr<ModelHandle>>(
      m, "Model", py::dynamic_attr(),
      "A loaded model: immutable, shared by every Pose, Controller and Creature made from it. "
      "`warnings` lists the loader's warnings ('file:location: message').")
      .def_property_readonly("path", [](const ModelHandle& h) { return h.model->source_path(); })
      .def_property_readonly("name", [](const ModelHandle& h) { return h.model->name(); })
      .def_property_readonly("format", [](const ModelHandle& h) { return h.model->format(); })
      .def_property_readonly(
          "bones",
          [](const ModelHandle& h) {
            const Skeleton& s = h.model->skeleton();
            std::vector<Bone> out;
            for (int j = 0; j < s.joint_count(); ++j)
              out.push_back(Bone{j, s.names()[static_cast<std::size_t>(j)],
                                 s.parents()[static_cast<std::size_t>(j)],
                                 s.source_indices()[static_cast<std::size_t>(j)]});
            return out;
          },
          "The skeleton's joints, parents before children (the J axis of every pose array).")
      .def_property_readonly(
          "rest_trs",
          [](py::object self) {
            const Skeleton& s = self.cast<const ModelHandle&>().model->skeleton();
            return readonly_view(py::dtype::of<float>(), {s.joint_count(), 10}, {40, 4},
                                 s.rest_pose().data(), self);
          },
          "float32 (J, 10): the rest pose, laid out as Pose.local_trs.")
      .def_property_readonly("meshes",
                             [](py::object self) {
                               const Handle h = handle_of(self);
                               std::vector<MeshRef> out;
                               for (std::size_t i = 0; i < h->model->meshes().size(); ++i)
                                 out.push_back(MeshRef{self, h, static_cast<int>(i), -1});
                               return out;
                             })
      .def_property_readonly(
          "skins",
          [](py::object self) {
            const Handle h = handle_of(self);
            py::list out;
            for (const Skin& s : h->model->skins()) {
              py::dict d;
              d["name"] = s.name;
              d["joints"] = readonly_view(py::dtype::of<std::int16_t>(),
                                          {static_cast<py::ssize_t>(s.joints.size())}, {2},
                                          s.joints.data(), self);
              d["inverse_bind"] = matrix_view(s.inverse_bind.data(), s.inverse_bind.size(), self);
              d["skeleton_root"] = s.skeleton_root;
              out.append(py::module_::import("types").attr("SimpleNamespace")(**d));
            }
            return out;
          },
          "Skins: name, joints (int16, indices into bones), inverse_bind (float32 (N, 4, 4) "
          "row-major), skeleton_root.")
      .def_property_readonly(
          "clips",
          [](const ModelHandle& h) {
            std::vector<ClipInfo> out;
            for (std::size_t i = 0; i < h.model->clips().size(); ++i)
              out.push_back(ClipInfo{static_cast<int>(i), h.model->clips()[i].name(),
                                     h.model->clips()[i].duration()});
            return out;
          })
      .def_property_readonly(
          "morph_targets",
          [](const ModelHandle& h) {
            std::vector<MorphTarget> out;
            for (std::size_t i = 0; i < h.model->meshes().size(); ++i) {
              const Mesh& mesh = h.model->meshes()[i];
              for (std::size_t t = 0; t < mesh.morph_target_count(); ++t)
                out.push_back(MorphTarget{mesh.name, static_cast<int>(i), static_cast<int>(t),
                                          t < mesh.morph_names.size() ? mesh.morph_names[t] : "",
                                          mesh.default_weights[t]});
            }
            return out;
          })
      .def_property_readonly(
          "bounds",
          [](const ModelHandle& h) {
            const Aabb& b = h.model->bounds();
            py::array_t<float> out({2, 3});
            auto* d = out.mutable_data();
            for (int k = 0; k < 3; ++k) {
              d[k] = b.empty() ? 0.0f : b.min[k];
              d[3 + k] = b.empty() ? 0.0f : b.max[k];
            }
            return out;
          },
          "float32 (2, 3): min and max corner of the rest-pose bounds, model space (zeros for a "
          "model without vertices).")
      .def("sample", &sample, py::arg("clip"), py::arg("times"),
           "sample(clip, times) -> Pose\n\n"
           "Samples `clip` (a name or an index) at every time of `times` (seconds of clip time, "
           "a number or a 1-D sequence; each track holds its first and last key outside its "
           "range) in one call with the GIL released, and computes the model-space matrices.")
      .def("skin", &skin, py::arg("pose"), py::kw_only(), py::arg("normals") = "inverse_transpose",
           "skin(pose, *, normals='inverse_transpose') -> (positions, normals)\n\n"
           "Deforms every mesh on the CPU (morph targets, then linear blend skinning; rigid "
           "meshes follow their bone) for each time of `pose`: float32 arrays (T, V, 3) in model "
           "space, V = every vertex of every mesh part in Model.meshes order (Mesh.vertex_offset "
           "says where each starts). Normals of parts without normals are zeros. `normals`: "
           "'inverse_transpose' turns normals by the inverse transpose of each vertex's blended "
           "matrix (right under non-uniform scale), 'matrix' by the matrix itself as ozz-animation "
           "and three.js do (cheaper; the same wherever a vertex's influences turn alike); both "
           "normalised.")
      .def("__repr__", [](const ModelHandle& h) {
        return "Model('" + h.model->source_path() +
               "', bones=" + std::to_string(h.model->skeleton().joint_count()) +
               ", meshes=" + std::to_string(h.model->meshes().size()) +
               ", clips=" + std::to_string(h.model->clips().size()) + ")";
      });

  m.def("load", &load, py::arg("path"), py::kw_only(), py::arg("clips") = py::none(),
        py::arg("clips_fps") = py::none(), py::arg("look") = 0, py::arg("lod") = 0,
        py::arg("game") = py::none(), py::arg("limbs") = false,
        py::arg("allow_outside_uris") = false,
        "load(path, *, clips=None, clips_fps=None, look=0, lod=0, game=None, limbs=False, "
        "allow_outside_uris=False) -> Model\n\n"
        "Loads a model file (glTF, GLB, Collada, B3D, OBJ, Insomniac .model, ...) or a built-in "
        "model ('builtin:NAME'), with the GIL released.\n\n"
        "clips: cut the file's single long animation into named clips: a dict {name: (first, "
        "last)} of frame numbers, pairs [(name, (first, last))], or the text 'walk:0-40,...' "
        "(`critter --clips`). clips_fps: frames per second of those ranges (default: the "
        "file's).\nlook, lod: which look and level of detail of an Insomniac .model (0-based).\n"
        "game: 'msmr', 'mm', 'rcra' or 'so' for a headerless .model (default: detect).\n"
        "limbs: cut block limbs (Arm_Right, Arm_Left, Leg_Right, Leg_Left) at the knees and "
        "elbows, adding a '<limb>.lower' and a '<limb>.seam' bone per limb (`critter --limbs`); "
        "a model without such limbs loads unchanged, with a warning saying why.\n"
        "allow_outside_uris: let glTF buffers and images resolve outside the file's folder.\n\n"
        "Raises critter.Error (file, location, rule) when the file cannot be read or breaks a "
        "rule.");
}

}  // namespace critter::python
