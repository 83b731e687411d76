// SPDX-License-Identifier: MIT
#include "anim/ik_dispatch.h"

#include <algorithm>
#include <optional>

#include "anim/runtime_warnings.h"

namespace critter::anim::detail {

IkDispatch::IkDispatch(const ControllerProgram& program) {
  if (!program.ik_chains_.empty() || !program.ik_look_ats_.empty()) {
    models_.resize(static_cast<std::size_t>(program.model_->skeleton().joint_count()));
  }
  ik_states_.resize(program.ik_chains_.size());
  look_states_.resize(program.ik_look_ats_.size());
}

void IkDispatch::run(const ControllerProgram& p, const ParameterValues& values, RuntimeLog& log,
                     std::span<Transform> pose, float dt) {
  const auto parents = p.model_->skeleton().parents();
  for (std::size_t j = 0; j < pose.size(); ++j) {
    const mat4 local = pose[j].to_matrix();
    models_[j] = parents[j] < 0 ? local : models_[static_cast<std::size_t>(parents[j])] * local;
  }
  auto vec_param = [&](ParamIndex i) -> std::optional<vec3> {
    const ParamType t = values.type(i);
    if (t != ParamType::kVec3 && t != ParamType::kVec2) return std::nullopt;
    return values.vec(i);
  };
  for (std::size_t i = 0; i < p.ik_chains_.size(); ++i) {
    const auto& chain = p.ik_chains_[i];
    const ControllerIkChainDesc& d = *chain.desc;
    if (!log.bool_field(chain.enabled, d.enabled, values)) continue;
    IkChainJob job;
    job.parents = parents;
    job.locals = pose;
    job.models = models_;
    job.end_joint = d.end_joint;
    job.max_chain_length = d.max_chain_length;
    job.settings = d.settings;
    job.target = vec_param(chain.target);
    job.aim = vec_param(chain.aim);
    job.hint = vec_param(chain.hint);
    job.weight = std::clamp(log.number_field(chain.weight, d.weight, values), 0.0f, 1.0f);
    job.position_weight =
        std::clamp(log.number_field(chain.position_weight, d.position_weight, values), 0.0f, 1.0f);
    job.aim_weight =
        std::clamp(log.number_field(chain.aim_weight, d.aim_weight, values), 0.0f, 1.0f);
    job.joint_limits = d.joint_limits;
    job.dt = dt;
    job.state = &ik_states_[i];
    (void)job.run();  // the settings were validated at compile; values are finite or clamped
  }
  for (std::size_t i = 0; i < p.ik_look_ats_.size(); ++i) {
    const auto& look = p.ik_look_ats_[i];
    const ControllerIkLookAtDesc& d = *look.desc;
    IkLookAtJob job;
    job.parents = parents;
    job.locals = pose;
    job.models = models_;
    job.bones = d.bones;
    job.shares = d.shares;
    job.settings = d.settings;
    job.target = vec_param(look.target);
    job.yaw = log.number_field(look.yaw, d.yaw, values);
    job.pitch = log.number_field(look.pitch, d.pitch, values);
    job.weight = std::clamp(log.number_field(look.weight, d.weight, values), 0.0f, 1.0f);
    job.dt = dt;
    job.state = &look_states_[i];
    (void)job.run();
  }
}

}  // namespace critter::anim::detail
