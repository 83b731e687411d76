// SPDX-License-Identifier: MIT
// The "Controller" window of the viewer: Dear ImGui widgets over a ControllerPanel (the body
// section, every parameter of the schema by group, the layers and the event log). It holds only
// what ImGui needs between frames (text buffers of the text fields being edited); every value it
// shows is read from the panel each frame and every edit goes through the panel's setters.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "controller_panel.h"

namespace critter::viewer {

class ControllerPanelUi {
 public:
  // What the user asked for that the window cannot do itself.
  enum class Action {
    kNone,
    kReload,  // load the config again (the owner re-uploads the model when it changed)
  };

  // Draws the window's sections into the current ImGui window. Errors of edits go to `status`;
  // `paused` is the viewer's pause toggle, shown and edited here.
  Action draw(ControllerPanel& panel, bool& paused, std::string& status);

 private:
  void body(ControllerPanel& panel);
  void parameters(ControllerPanel& panel, std::string& status);
  void layers(const ControllerPanel& panel);
  void events(ControllerPanel& panel);

  static constexpr std::size_t kTextSize = 256;
  std::vector<std::array<char, kTextSize>> text_;  // per row position: its text field
  int editing_ = -1;                               // row position whose text field has focus
};

}  // namespace critter::viewer
