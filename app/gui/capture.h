// capture.h: PNG figures from the GUI. A panel asks the workbench for a capture
// (Workbench::request_capture); the frame loop renders the next frame without
// tool windows or hover, and this takes that frame's pixels, crops them to the
// panel and writes the PNG atomically.
#pragma once

namespace swz::gui {

class Platform;
class Workbench;

// Call after Platform::render() and before present(). Does nothing unless a
// capture is due this frame; reports the result through the workbench's status.
void service_capture(Platform& platform, Workbench& bench);

}  // namespace swz::gui
