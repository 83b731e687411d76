// SPDX-License-Identifier: MIT
#include "creature_panel_ui.h"

#include <imgui.h>

#include <string>

namespace critter::viewer {
namespace {

void report(const Status& s, std::string& status) {
  if (!s) status = s.error().to_string();
}

}  // namespace

void CreaturePanelUi::draw(CreaturePanel& panel, bool& paused, std::string& status) {
  const tools::CreatureSpec& spec = panel.spec();
  ImGui::Text("%s%s%s", std::string(tools::to_string(spec.kind)).c_str(),
              spec.species.empty() ? "" : ": ", spec.species.c_str());
  ImGui::Checkbox("Pause (space)", &paused);
  ImGui::SameLine();
  if (ImGui::Button("Restart")) report(panel.restart(), status);
  ImGui::SameLine();
  const bool dead = !(panel.state().health.value_or(1.0f) > 0.0f);
  if (!dead && ImGui::Button("Kill")) panel.kill();
  if (dead && ImGui::Button("Revive")) report(panel.revive(), status);
  if (ImGui::CollapsingHeader("Rig", ImGuiTreeNodeFlags_DefaultOpen)) rig(panel);
  if (ImGui::CollapsingHeader("Events", ImGuiTreeNodeFlags_DefaultOpen)) events(panel);
  if (ImGui::CollapsingHeader("State", ImGuiTreeNodeFlags_DefaultOpen)) state(panel, status);
}

void CreaturePanelUi::rig(const CreaturePanel& panel) {
  const tools::CreatureFrameInfo& info = panel.info();
  ImGui::Text("t = %.2f s   gait: %s", panel.time(), info.gait.empty() ? "-" : info.gait.c_str());
  ImGui::Text("phase %.3f   bob %.3f m", static_cast<double>(info.phase),
              static_cast<double>(info.bob));
  ImGui::ProgressBar(info.death_phase, ImVec2(-1.0f, 0.0f),
                     ("death phase " + std::to_string(info.death_phase).substr(0, 4)).c_str());
}

void CreaturePanelUi::events(const CreaturePanel& panel) {
  const auto& events = panel.events();
  if (events.empty()) {
    ImGui::TextUnformatted("No events yet.");
    return;
  }
  if (ImGui::BeginChild("##events", ImVec2(-1.0f, 120.0f), true)) {
    for (auto it = events.rbegin(); it != events.rend(); ++it)
      ImGui::Text("%7.3f s  %s", it->t, it->name.c_str());
  }
  ImGui::EndChild();
}

void CreaturePanelUi::state(CreaturePanel& panel, std::string& status) {
  if (ImGui::Button("Reset to --state")) panel.reset_state();
  ImGui::TextUnformatted("x: forget a value (the rig's default applies).");
  for (const tools::StateField& field : tools::creature_state_fields()) {
    ImGui::PushID(field.name.data(), field.name.data() + field.name.size());
    const bool set = tools::state_is_set(panel.state(), field);
    if (set) {
      if (ImGui::SmallButton("x")) panel.unset(field);
    } else {
      // The button's room, so the widgets line up whether or not a value is set.
      const ImGuiStyle& style = ImGui::GetStyle();
      ImGui::Dummy(ImVec2(ImGui::CalcTextSize("x").x + 2.0f * style.FramePadding.x,
                          ImGui::GetTextLineHeight()));
    }
    ImGui::SameLine();
    tools::StateValue v = shown_value(panel.state(), field);
    const std::string label(field.name);
    bool changed = false;
    switch (field.type()) {
      case tools::StateType::kNumber: {
        const SliderRange range = slider_range(field);
        float x = static_cast<float>(v.number);
        changed = ImGui::SliderFloat(label.c_str(), &x, range.min, range.max, "%.2f");
        v.number = x;
        break;
      }
      case tools::StateType::kBool:
        changed = ImGui::Checkbox(label.c_str(), &v.boolean);
        break;
      case tools::StateType::kVec2:
        changed = ImGui::DragFloat2(label.c_str(), &v.vec.x, 0.05f, 0.0f, 0.0f, "%.2f");
        break;
      case tools::StateType::kVec3:
        changed = ImGui::DragFloat3(label.c_str(), &v.vec.x, 0.05f, 0.0f, 0.0f, "%.2f");
        break;
      case tools::StateType::kEnum: {
        const auto choices = field.choices();
        if (ImGui::BeginCombo(label.c_str(), v.text.c_str())) {
          for (std::string_view c : choices) {
            if (ImGui::Selectable(std::string(c).c_str(), c == v.text)) {
              v.text = std::string(c);
              changed = true;
            }
          }
          ImGui::EndCombo();
        }
        break;
      }
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(field.help).c_str());
    if (changed) report(panel.set_value(field, v), status);
    ImGui::PopID();
  }
}

}  // namespace critter::viewer
