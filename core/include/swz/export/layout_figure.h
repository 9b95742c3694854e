// layout_figure.h: a layout on its own as a figure (the Python module's Layout in a notebook).
#pragma once

#include <string>

#include "swz/io/layout_io.h"

namespace swz {

// A layout on its own, drawn as figure_svg (svg.h) draws a problem: a shared layout as the tensor
// view (colored by bank in the default bank model), a distributed one as who holds each element
// (the writer view over the row-major tensor). Elements are the layout's width, else
// `element_bits`, else 32 bits (export's default for a layout on its own); a width that
// contradicts the layout's throws. `name` titles it (a file's name, "layout").
std::string layout_figure_svg(const LayoutFile& layout, const std::string& name, int element_bits = 0);

}  // namespace swz
