// open_link.h: links that open a workbench state (the format is the core's: swz/io/link.h).
//
//   Edit > Copy link          copy_link(): the link of what is on screen, to the clipboard
//   Edit > Open link from clipboard, `swizzle-workbench 'URL'`, `--open-link URL`,
//   a web page's address at start and on every hash change   ->  apply_link()
#pragma once

#include <string>

#include "swz/io/link.h"

namespace swz::gui {

class Workbench;

// What is on screen as a link: the problem (left out while it is the open lesson step's own),
// the lesson and its step, the quiz set on show.
WorkbenchLink current_link(const Workbench& bench);

// Opens the state `url` (a whole URL or "#...") describes: the lesson at its step (or closes the
// lesson card when the link has none), then the problem over it, then the quiz set (or closes the
// quiz). The edits are posted: they take effect at the end of the next frame, or at
// bench.apply_pending(). A bad link, an unknown lesson or quiz set changes nothing: false, the
// one-line reason in `error`, and the workbench shows it.
bool apply_link(Workbench& bench, const std::string& url, std::string& error);

// "" when the link's lesson (at its step) and quiz set are there to open; else the one-line reason.
// apply_link checks this first; the command line checks it before any window opens.
std::string missing_link_targets(const WorkbenchLink& link);

// The text before '#' in copied links: "" (a relative "#v=1&..." link) by default; a web page
// sets its own address, so a copied link opens the page.
void set_link_base(std::string base);
const std::string& link_base();

// Puts link_base() + current_link() on the clipboard, says so in the status bar, returns it.
std::string copy_link(Workbench& bench);

}  // namespace swz::gui
