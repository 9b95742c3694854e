// layout_figure.cpp: a layout on its own as a figure (layout_figure.h): the problem it stands in is the
// layout alone, so the views draw it exactly as they draw a problem's.
#include "swz/export/layout_figure.h"

#include <fmt/format.h>

#include "swz/error.h"
#include "swz/export/svg.h"
#include "swz/layout/factories.h"

namespace swz {

std::string layout_figure_svg(const LayoutFile& layout, const std::string& name, int element_bits) {
  Problem p;
  p.name = name;
  if (layout.element_bits && element_bits && *layout.element_bits != element_bits)
    fail("{}: the layout says {}-bit elements, not {}", name, *layout.element_bits, element_bits);
  p.element_bits = layout.element_bits.value_or(element_bits ? element_bits : 32);
  if (p.element_bits != 4 && p.element_bits != 8 && p.element_bits != 16 && p.element_bits != 32 && p.element_bits != 64)
    fail("{}: element width {} is not 4, 8, 16, 32 or 64 bits", name, p.element_bits);
  FigureOptions options;
  if (layout.kind == LayoutKind::Shared) {
    p.shared = SharedLayout::from_linear(layout.layout, name);
    options.title = fmt::format("{}: {}-bit elements in shared memory, colored by bank", name, p.element_bits);
    return figure_svg(p, FigureView::Tensor, options);
  }
  p.store.layout = layout.layout;
  p.store.kind = AccessKind::Store;
  p.shared = row_major(layout.layout.shape());
  options.title = fmt::format("{}: who holds each element", name);
  return figure_svg(p, FigureView::Writer, options);
}

}  // namespace swz
