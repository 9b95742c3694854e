// getting_started.h: help in plain words for someone new to the workbench.
//
//   Help > Getting started   draw_getting_started(): what the workbench is for, how to
//                            start (buttons that do each step), what each panel shows
//   the first-run hint       draw_first_run_hint(): on a first start, offers the first
//                            lesson or Getting started; any answer hides it for good
//   panel_summary(id)        one sentence per panel; the Algebra and Solver panels draw
//                            theirs at the top (draw_panel_summary), except during a lesson
//
// The texts are fixed: nothing here depends on the problem, so nothing is computed.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace swz::gui {

class Workbench;
struct PanelContext;

// One plain sentence saying what a panel or tool window shows; "" for an unknown id.
const char* panel_summary(std::string_view panel_id);
// Draws the panel's sentence, wrapped at the panel's edge, and registers probe "ID.summary";
// nothing while a lesson is open (its card explains, and its steps need the panels' whole height).
void draw_panel_summary(PanelContext& ctx, const char* panel_id);

// The file whose presence means the first-run hint was answered: config_dir()/first-run-hint.json.
std::filesystem::path first_run_hint_path();
// True on a first start: neither a last session nor an answered hint in config_dir().
bool first_start();
// Writes first_run_hint_path(); false when it could not be written (the hint still hides for this run).
bool remember_first_run_hint_answered();

// Opens the first lesson of the Classroom menu's order at its first step; false with the reason.
bool open_first_lesson(Workbench& bench, std::string& error);

// The Getting started window while `open` is true (its close button clears it).
void draw_getting_started(Workbench& bench, bool& open);
// The first-run hint while `open` is true; any of its answers clears `open` and remembers it.
void draw_first_run_hint(Workbench& bench, bool& open);

}  // namespace swz::gui
