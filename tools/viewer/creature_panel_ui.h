// SPDX-License-Identifier: MIT
// The "Creature" window of the viewer: Dear ImGui widgets over a CreaturePanel. One widget per
// state name by its type (a number slider over slider_range(), a checkbox, a vector drag, an
// enum combo) with a button that forgets a value set, kill / revive, restart and pause, and what
// the rig shows: gait, phase, bob, death phase and the latest events with their times. It holds
// nothing between frames; every value it shows is read from the panel and every edit goes
// through the panel's setters.
#pragma once

#include <string>

#include "creature_panel.h"

namespace critter::viewer {

class CreaturePanelUi {
 public:
  // Draws the window's sections into the current ImGui window. Errors of edits go to `status`;
  // `paused` is the viewer's pause toggle, shown and edited here.
  void draw(CreaturePanel& panel, bool& paused, std::string& status);

 private:
  void rig(const CreaturePanel& panel);
  void state(CreaturePanel& panel, std::string& status);
  void events(const CreaturePanel& panel);
};

}  // namespace critter::viewer
