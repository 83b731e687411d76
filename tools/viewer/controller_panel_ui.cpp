// SPDX-License-Identifier: MIT
#include "controller_panel_ui.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "critter/core/diagnostics.h"

namespace critter::viewer {
namespace {

void report(const Status& s, std::string& status) {
  if (!s) status = s.error().to_string();
}

// Copies `text` into an ImGui text buffer (cut to fit).
template <std::size_t N>
void fill(std::array<char, N>& buffer, const std::string& text) {
  std::snprintf(buffer.data(), N, "%s", text.c_str());
}

}  // namespace

ControllerPanelUi::Action ControllerPanelUi::draw(ControllerPanel& panel, bool& paused,
                                                  std::string& status) {
  Action action = Action::kNone;
  ImGui::TextWrapped("%s", panel.config_path().c_str());
  ImGui::Text("t = %.2f s   pose: %s", panel.time(),
              std::string(creature::to_string(panel.creature().source())).c_str());
  ImGui::Checkbox("Pause (space)", &paused);
  ImGui::SameLine();
  if (ImGui::Button("Restart")) panel.restart();
  ImGui::SameLine();
  if (ImGui::Button("Reload config")) action = Action::kReload;
  if (ImGui::CollapsingHeader("Body", ImGuiTreeNodeFlags_DefaultOpen)) body(panel);
  if (ImGui::CollapsingHeader("Layers", ImGuiTreeNodeFlags_DefaultOpen)) layers(panel);
  // The events before the long parameter list, so both stay in view on a normal window.
  if (ImGui::CollapsingHeader("Events", ImGuiTreeNodeFlags_DefaultOpen)) events(panel);
  // Expressions that failed at run time and [Param] sources naming no clip (§0.4), once each.
  const anim::Controller* controller = panel.creature().controller();
  const auto warnings =
      controller != nullptr ? controller->runtime_warnings() : std::span<const Warning>();
  if (!warnings.empty() &&
      ImGui::CollapsingHeader("Runtime warnings", ImGuiTreeNodeFlags_DefaultOpen)) {
    for (const Warning& w : warnings) ImGui::TextWrapped("%s", w.to_string().c_str());
  }
  if (ImGui::CollapsingHeader("Parameters", ImGuiTreeNodeFlags_DefaultOpen))
    parameters(panel, status);
  return action;
}

void ControllerPanelUi::body(ControllerPanel& panel) {
  creature::CreatureState& s = panel.state();
  ImGui::Checkbox("On ground", &s.is_on_ground);
  ImGui::SameLine();
  bool in_water = s.immersion_factor > 0.0f;
  if (ImGui::Checkbox("In water", &in_water)) panel.set_in_water(in_water);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1.0f);
  ImGui::SliderFloat("##immersion", &s.immersion_factor, 0.0f, 1.0f, "immersion %.2f");
  float speed = panel.forward_speed();
  if (ImGui::DragFloat("Forward speed m/s", &speed, 0.02f, -20.0f, 20.0f, "%.2f"))
    panel.set_forward_speed(speed);
  float yaw = creature::to_yaw_pitch_roll(s.rotation).x;
  if (ImGui::SliderAngle("Yaw", &yaw, -180.0f, 180.0f)) panel.set_yaw(yaw);
  ImGui::DragFloat("Walk speed m/s", &s.walk_speed, 0.02f, 0.0f, 20.0f, "%.2f");
  ImGui::Checkbox("Flying", &s.is_flying);
  ImGui::SameLine();
  ImGui::Checkbox("Attacking", &s.is_attacking);
  ImGui::SameLine();
  ImGui::Checkbox("Feeding", &s.is_feeding);
  ImGui::SliderAngle("Look yaw", &s.look_angle_x, -90.0f, 90.0f);
  ImGui::SliderAngle("Look pitch", &s.look_angle_y, -90.0f, 90.0f);
  ImGui::DragFloat("Health", &s.health, 0.01f, 0.0f, 1.0f, "%.2f");
  ImGui::SameLine();
  if (panel.dead()) {
    if (ImGui::Button("Revive")) panel.revive();
  } else if (ImGui::Button("Kill")) {
    panel.kill();
  }
  ImGui::Text("DeathPhase %.2f   MovementPhase %.2f%s", panel.creature().death_phase(),
              panel.creature().movement_phase(), s.movement_phase ? " (set)" : "");
  if (s.movement_phase) {
    ImGui::SameLine();
    if (ImGui::SmallButton("integrate")) s.movement_phase.reset();
  }
}

void ControllerPanelUi::parameters(ControllerPanel& panel, std::string& status) {
  const std::vector<ParamRow>& rows = panel.rows();
  if (text_.size() != rows.size()) {
    text_.assign(rows.size(), {});
    editing_ = -1;
  }
  ImGui::TextDisabled("Body rows edit the body; host names take true, 1.5, [x,y,z] or 'text'.");
  int group = -1;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const ParamRow& row = rows[r];
    if (static_cast<int>(row.group) != group) {
      group = static_cast<int>(row.group);
      ImGui::Separator();
      ImGui::TextDisabled("%s", std::string(to_string(row.group)).c_str());
    }
    ImGui::PushID(static_cast<int>(r));
    const anim::ParameterValue value = panel.value(row.index);
    const char* label = row.name.c_str();
    // Body and computed rows keep the table's type; the others show the value's own type (a
    // host may have stored a string where the config declared a number).
    anim::ParamType type = row.type;
    if (row.group != ParamGroup::kBody && row.group != ParamGroup::kComputed &&
        value.type != anim::ParamType::kUnset && row.type != anim::ParamType::kTrigger)
      type = value.type;
    if (row.group == ParamGroup::kComputed) {
      ImGui::Text("%s = %s", label, ControllerPanel::value_text(value).c_str());
      ImGui::PopID();
      continue;
    }
    bool text_field = false;
    switch (type) {
      case anim::ParamType::kBool: {
        bool b = value.number != 0.0;
        if (ImGui::Checkbox(label, &b))
          report(panel.set(row.index, anim::ParameterValue::of_bool(b)), status);
        break;
      }
      case anim::ParamType::kFloat:
      case anim::ParamType::kInt: {
        float f = static_cast<float>(value.type == anim::ParamType::kInt
                                         ? static_cast<double>(value.integer)
                                         : value.number);
        if (ImGui::DragFloat(label, &f, 0.01f, 0.0f, 0.0f, "%.3f"))
          report(panel.set(row.index, anim::ParameterValue::of_float(f)), status);
        break;
      }
      case anim::ParamType::kVec2: {
        float v[2] = {value.vec.x, value.vec.y};
        if (ImGui::DragFloat2(label, v, 0.01f))
          report(panel.set(row.index, anim::ParameterValue::of_vec2(vec2(v[0], v[1]))), status);
        break;
      }
      case anim::ParamType::kVec3: {
        float v[3] = {value.vec.x, value.vec.y, value.vec.z};
        if (ImGui::DragFloat3(label, v, 0.01f))
          report(panel.set(row.index, anim::ParameterValue::of_vec3(vec3(v[0], v[1], v[2]))),
                 status);
        break;
      }
      case anim::ParamType::kTrigger:
        if (ImGui::Button(label))
          report(panel.set(row.index, anim::ParameterValue::of_bool(true)), status);
        ImGui::SameLine();
        ImGui::TextDisabled("%s", value.number != 0.0 ? "fired" : "trigger");
        break;
      case anim::ParamType::kString:
      case anim::ParamType::kUnset:
        text_field = true;
        break;
    }
    if (text_field) {
      // A string row edits the bare text; a host row a value in the --param syntax.
      const bool raw = type == anim::ParamType::kString && row.group != ParamGroup::kHost;
      if (editing_ != static_cast<int>(r))
        fill(text_[r], raw ? value.text : ControllerPanel::value_text(value));
      const bool entered =
          ImGui::InputTextWithHint(label, raw ? "" : "unset: true, 1.5, 'text'", text_[r].data(),
                                   kTextSize, ImGuiInputTextFlags_EnterReturnsTrue);
      if (ImGui::IsItemActive()) {
        editing_ = static_cast<int>(r);
      } else if (editing_ == static_cast<int>(r)) {
        editing_ = -1;
      }
      if (entered) {
        const std::string text(text_[r].data());
        report(raw ? panel.set(row.index, anim::ParameterValue::of_string(text))
                   : panel.set_text(row.index, text),
               status);
        editing_ = -1;
      }
    }
    ImGui::PopID();
  }
}

void ControllerPanelUi::layers(const ControllerPanel& panel) {
  if (!ImGui::BeginTable("##layers", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp))
    return;
  ImGui::TableSetupColumn("Layer");
  ImGui::TableSetupColumn("Weight");
  ImGui::TableSetupColumn("Active");
  ImGui::TableSetupColumn("Clip / driver");
  ImGui::TableSetupColumn("Time s");
  ImGui::TableHeadersRow();
  for (const LayerRow& l : panel.layers()) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(l.name.c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%.2f", static_cast<double>(l.weight));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(l.active ? (l.manual ? "manual" : "yes") : "no");
    ImGui::TableNextColumn();
    if (!l.clip.empty()) {
      ImGui::Text("%s%s", l.clip.c_str(), l.crossfading ? " (fading)" : "");
    } else if (!l.driver.empty()) {
      ImGui::Text("driver:%s", l.driver.c_str());
    } else {
      ImGui::TextDisabled("-");
    }
    ImGui::TableNextColumn();
    if (!l.clip.empty()) ImGui::Text("%.2f", static_cast<double>(l.clip_time));
  }
  ImGui::EndTable();
}

void ControllerPanelUi::events(ControllerPanel& panel) {
  if (ImGui::SmallButton("Clear")) panel.clear_log();
  ImGui::SameLine();
  ImGui::TextDisabled("last %zu, newest first", panel.log_length());
  // A fixed-height scrolling list: the log is up to log_length() lines long.
  if (ImGui::BeginChild("##events", ImVec2(0.0f, 8.0f * ImGui::GetTextLineHeightWithSpacing()),
                        true)) {
    for (auto it = panel.log().rbegin(); it != panel.log().rend(); ++it)
      ImGui::TextUnformatted(it->to_string().c_str());
  }
  ImGui::EndChild();
}

}  // namespace critter::viewer
