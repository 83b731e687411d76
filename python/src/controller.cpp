// SPDX-License-Identifier: MIT
// critter.Controller (an animation config driving a model, as a game host drives it) and
// critter.Creature (a legacy creature rig stepped with a state dict). Each step's pose is a
// critter.Pose of one time.
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "creature_sim.h"
#include "creature_spec.h"
#include "critter/anim/controller.h"
#include "critter/anim/controller_program.h"
#include "critter/anim/instance.h"
#include "critter/io/controller_loader.h"

namespace critter::python {
namespace {

// A Pose of one time from a local pose and weights placed on `instance`.
std::shared_ptr<PoseData> one_pose(const py::object& model_object,
                                   const std::shared_ptr<ModelHandle>& model, double time,
                                   std::span<const Transform> locals,
                                   std::span<const float> weights, const anim::Instance& instance) {
  auto pose = std::make_shared<PoseData>();
  pose->model_object = model_object;
  pose->model = model;
  pose->times = {static_cast<float>(time)};
  pose->locals.allocate(locals.size());
  std::copy(locals.begin(), locals.end(), pose->locals.data());
  pose->weights.allocate(weights.size());
  std::copy(weights.begin(), weights.end(), pose->weights.data());
  const std::span<const mat4> model_space = instance.model_transforms();
  pose->matrices.allocate(model_space.size() * 16);
  float* out = pose->matrices.data();
  for (const mat4& mt : model_space)
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) *out++ = mt[c][r];
  return pose;
}

anim::ParameterValue parameter_value(const py::handle& value) {
  if (py::isinstance<py::bool_>(value)) return anim::ParameterValue::of_bool(value.cast<bool>());
  if (py::isinstance<py::int_>(value))
    return anim::ParameterValue::of_int(value.cast<std::int64_t>());
  if (py::isinstance<py::float_>(value))
    return anim::ParameterValue::of_float(value.cast<double>());
  if (py::isinstance<py::str>(value))
    return anim::ParameterValue::of_string(value.cast<std::string>());
  const auto v = value.cast<std::vector<float>>();
  if (v.size() == 2) return anim::ParameterValue::of_vec2(vec2(v[0], v[1]));
  if (v.size() == 3) return anim::ParameterValue::of_vec3(vec3(v[0], v[1], v[2]));
  throw py::type_error("a parameter value is a bool, int, float, str or a 2- or 3-sequence");
}

class PyController {
 public:
  PyController(const py::object& model_object, const std::string& config_path,
               const std::vector<std::string>& asset_roots)
      : config_(config_path) {
    const auto handle = model_object.cast<std::shared_ptr<ModelHandle>>();
    io::ControllerLoadOptions options;
    options.asset_roots = asset_roots;
    Diagnostics diag;
    Result<io::LoadedController> loaded = fail(Error{});
    {
      py::gil_scoped_release release;
      loaded = io::load_controller(config_path, handle->model, options, &diag);
    }
    io::LoadedController lc = value_or_raise(std::move(loaded));
    for (const Warning& w : diag.items()) warnings_.push_back(w.to_string());
    if (lc.model == handle->model) {
      model_object_ = model_object;
      model_ = handle;
    } else {
      // The config appended `file:` clips: a model of its own, exposed as Controller.model.
      model_ = std::make_shared<ModelHandle>(lc.model);
      model_object_ = py::cast(model_);
      model_object_.attr("__dict__")["warnings"] = py::list();
    }
    program_ = lc.program;
    controller_ = std::make_unique<anim::Controller>(program_);
    instance_ = std::make_unique<anim::Instance>(*model_->model);
  }

  py::object model() const { return model_object_; }
  double time() const { return controller_->time(); }

  std::string rotation_blend() const {
    switch (controller_->rotation_blend()) {
      case anim::RotationBlend::kNlerp:
        return "nlerp";
      case anim::RotationBlend::kLerp:
        return "lerp";
      default:
        return "slerp";
    }
  }
  void set_rotation_blend(const std::string& name) {
    if (name != "slerp" && name != "nlerp" && name != "lerp")
      throw py::value_error("rotation_blend is 'slerp', 'nlerp' or 'lerp', not '" + name + "'");
    controller_->set_rotation_blend(name == "nlerp"  ? anim::RotationBlend::kNlerp
                                    : name == "lerp" ? anim::RotationBlend::kLerp
                                                     : anim::RotationBlend::kSlerp);
  }

  void set_param(const std::string& name, const py::object& value) {
    const anim::ParamIndex i = program_->schema().find(name);
    if (i == anim::kNoParam)
      raise_error(Error::at(ErrorCode::kUsage, config_, "param",
                            "the config has no parameter '" + name + "'"));
    // The setters report whether the value changed; setting an equal value is fine.
    if (value.is_none()) {
      controller_->parameters().fire_trigger(i);
    } else {
      controller_->parameters().set(i, parameter_value(value));
    }
  }

  void fire(const std::string& name) {
    const anim::ParamIndex i = program_->schema().find(name);
    if (i == anim::kNoParam)
      raise_error(Error::at(ErrorCode::kUsage, config_, "param",
                            "the config has no parameter '" + name + "'"));
    controller_->parameters().fire_trigger(i);
  }

  void update(float dt) {
    controller_->clear_records();
    {
      py::gil_scoped_release release;
      controller_->update(dt);
    }
    events_ = py::list();
    for (const anim::ControllerRecord& r : controller_->records()) {
      const char* kind = r.kind == anim::ControllerRecord::Kind::kEvent      ? "event"
                         : r.kind == anim::ControllerRecord::Kind::kComplete ? "complete"
                                                                             : "interrupt";
      py::dict e;
      e["kind"] = kind;
      e["layer"] = program_->desc().layers[static_cast<std::size_t>(r.layer)].name;
      e["name"] = std::string(r.name);
      e["data"] = std::string(r.data);
      e["time"] = r.time;
      e["count"] = r.count;
      events_.append(e);
    }
  }

  std::shared_ptr<PoseData> pose() {
    const std::span<const Transform> locals = controller_->compute_pose();
    instance_->set_root(controller_->root_matrix());
    instance_->set_root_correction(controller_->root_correction());
    check(instance_->pose(locals, controller_->morph_weights()));
    return one_pose(model_object_, model_, controller_->time(), locals,
                    controller_->morph_weights(), *instance_);
  }

  py::list events() const { return events_; }
  std::vector<std::string> warnings() const {
    std::vector<std::string> out = warnings_;
    for (const Warning& w : controller_->runtime_warnings()) out.push_back(w.to_string());
    return out;
  }

 private:
  std::string config_;
  py::object model_object_;
  std::shared_ptr<ModelHandle> model_;
  std::shared_ptr<const anim::ControllerProgram> program_;
  std::unique_ptr<anim::Controller> controller_;
  std::unique_ptr<anim::Instance> instance_;
  py::list events_;
  std::vector<std::string> warnings_;
};

// A state dict as the NAME=VALUE texts `critter pose --state` takes.
std::string state_text(const std::string& name, const py::handle& value) {
  if (py::isinstance<py::bool_>(value)) return name + "=" + (value.cast<bool>() ? "true" : "false");
  if (py::isinstance<py::str>(value) || py::isinstance<py::int_>(value) ||
      py::isinstance<py::float_>(value))
    return name + "=" + py::str(value).cast<std::string>();
  std::string text = name + "=[";
  bool first = true;
  for (py::handle v : value) {
    text += (first ? "" : ",") + py::str(v).cast<std::string>();
    first = false;
  }
  return text + "]";
}

class PyCreature {
 public:
  PyCreature(const py::object& model_object, const std::string& kind,
             const std::optional<std::string>& species, const py::dict& rig_params)
      : model_object_(model_object), model_(model_object.cast<std::shared_ptr<ModelHandle>>()) {
    tools::CreatureFlags flags;
    flags.creature = kind;
    flags.species = species.value_or("");
    for (auto [k, v] : rig_params) flags.rig_params.push_back(state_text(k.cast<std::string>(), v));
    path_ = model_->model->source_path();
    spec_ = value_or_raise(tools::parse_creature_flags(flags, path_));
    sim_ = value_or_raise(tools::make_creature_sim(*model_->model, path_, spec_));
    instance_ = std::make_unique<anim::Instance>(*model_->model);
    const auto rest = model_->model->skeleton().rest_pose();
    locals_.assign(rest.begin(), rest.end());
    check(instance_->pose(locals_));
  }

  std::shared_ptr<PoseData> step(float dt, const std::optional<py::dict>& state) {
    if (!std::isfinite(dt) || dt <= 0.0f)
      raise_error(Error::at(ErrorCode::kUsage, path_, "dt", "dt must be a finite number > 0"));
    if (state) {
      tools::CreatureStateArgs args;
      for (auto [k, v] : *state)
        check(tools::parse_state_arg(state_text(k.cast<std::string>(), v), path_, args));
      state_ = args;
    }
    const auto rest = model_->model->skeleton().rest_pose();
    {
      py::gil_scoped_release release;
      sim_->set_state(tools::with_creature_defaults(state_));
      locals_.assign(rest.begin(), rest.end());
      sim_->step(dt, locals_);
      time_ += dt;
    }
    instance_->set_root(sim_->root_matrix());
    check(instance_->pose(locals_));
    return one_pose(model_object_, model_, time_, locals_, instance_->morph_weights(), *instance_);
  }

  py::dict info() const {
    const tools::CreatureFrameInfo f = sim_->motion();
    py::dict d;
    d["kind"] = std::string(tools::to_string(f.kind));
    d["gait"] = f.gait;
    d["phase"] = f.phase;
    d["bob"] = f.bob;
    d["death_phase"] = f.death_phase;
    return d;
  }

  py::list events() const {
    py::list out;
    for (const tools::CreatureEvent& e : sim_->events()) {
      py::dict d;
      d["t"] = e.t;
      d["name"] = e.name;
      out.append(d);
    }
    return out;
  }

  py::object model() const { return model_object_; }
  double time() const { return time_; }

 private:
  py::object model_object_;
  std::shared_ptr<ModelHandle> model_;
  std::string path_;
  tools::CreatureSpec spec_;
  tools::CreatureStateArgs state_;
  std::unique_ptr<tools::CreatureSim> sim_;
  std::unique_ptr<anim::Instance> instance_;
  std::vector<Transform> locals_;
  double time_ = 0.0;
};

}  // namespace

void register_controller(py::module_& m) {
  py::class_<PyController>(
      m, "Controller",
      "Controller(model, config_path, asset_roots=())\n\n"
      "An animation config (JSON) compiled against `model` and run as a game host runs it: set "
      "parameters, update(dt), read the pose and the events of the last update. `asset_roots` "
      "are folders searched after the config's own for `extends`, templates and `file:` clips. "
      "Raises critter.Error with the config file and JSON pointer of the first error.")
      .def(py::init<const py::object&, const std::string&, const std::vector<std::string>&>(),
           py::arg("model"), py::arg("config_path"),
           py::arg("asset_roots") = std::vector<std::string>{},
           "__init__(model, config_path, asset_roots=())")
      .def_property_readonly("model", &PyController::model,
                             "The model the config drives (a copy with the config's `file:` clips "
                             "appended when it names any).")
      .def_property_readonly("time", &PyController::time, "Seconds all updates advanced.")
      .def_property("rotation_blend", &PyController::rotation_blend,
                    &PyController::set_rotation_blend,
                    "How the layer stack and its crossfades blend rotations: 'slerp' (default), "
                    "'nlerp' (the normalised lerp: faster, a little off slerp between far-apart "
                    "poses) or 'lerp' (the layers' weighted sum normalised once: faster again on "
                    "stacked layers, further off slerp; `critter pose --rotation-blend`).")
      .def("set_param", &PyController::set_param, py::arg("name"), py::arg("value"),
           "set_param(name, value)\n\nSets a parameter (bool, int, float, str, or a 2- or "
           "3-sequence for a vector; None "
           "fires a trigger). Names are case-insensitive.")
      .def("fire", &PyController::fire, py::arg("name"), "fire(name)\n\nFires a trigger parameter.")
      .def("update", &PyController::update, py::arg("dt"),
           "update(dt)\n\nAdvances the controller by dt seconds (rules, fades, players, events).")
      .def_property_readonly("pose", &PyController::pose,
                             "The blended pose now (IK included), as a Pose of one time.")
      .def_property_readonly("events", &PyController::events,
                             "What the last update produced, in order: dicts with kind "
                             "('event', 'complete' or 'interrupt'), layer, name, data, time and "
                             "count.")
      .def_property_readonly("warnings", &PyController::warnings,
                             "Load warnings and runtime warnings ('file:pointer: message').");

  py::class_<PyCreature>(
      m, "Creature",
      "Creature(model, kind='four-legged', species=None, rig_params={})\n\n"
      "A legacy creature rig (kind: four-legged, human, bird, flightless-bird or fish; species: "
      "a preset such as 'wolf') on `model`, stepped with a state dict of the names `critter pose "
      "--state` takes (speed, velocity, yaw, on_ground, is_dead, ...).")
      .def(py::init<const py::object&, const std::string&, const std::optional<std::string>&,
                    const py::dict&>(),
           py::arg("model"), py::arg("kind") = "four-legged", py::arg("species") = py::none(),
           py::arg("rig_params") = py::dict(),
           "__init__(model, kind='four-legged', species=None, rig_params={})")
      .def_property_readonly("model", &PyCreature::model)
      .def_property_readonly("time", &PyCreature::time, "Simulated seconds.")
      .def("step", &PyCreature::step, py::arg("dt"), py::arg("state") = py::none(),
           "step(dt, state=None) -> Pose\n\n"
           "Advances the rig by dt seconds with `state` (None: the previous step's state; names "
           "left out take the rig's defaults) and returns the pose.")
      .def_property_readonly("info", &PyCreature::info,
                             "What the rig shows: kind, gait, phase, bob, death_phase.")
      .def_property_readonly("events", &PyCreature::events,
                             "Every event since the creature was made: dicts with t and name.");
}

}  // namespace critter::python
