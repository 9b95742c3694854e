// cell_image.h: a picture of many cells as one texture.
//
// A 128x128 tile is 16384 cells; as draw-list rectangles that is 65536
// vertices per picture per frame, which a software rasterizer (Mesa's
// llvmpipe under Xvfb) feels. Pictures with many small cells are instead
// written into an RGBA texture (one texel per cell) and drawn as one quad with
// nearest filtering. Pictures of fewer, larger cells are written with a block
// of texels per cell (the gap between cells transparent), so a whole picture is
// still one quad; the texture is only re-uploaded when its texels change.
// Needs the GL context the platform made current.
#pragma once

#include <cstdint>
#include <vector>

#include <imgui.h>

namespace swz::gui {

class CellImage {
 public:
  CellImage() = default;
  ~CellImage();
  CellImage(const CellImage&) = delete;
  CellImage& operator=(const CellImage&) = delete;

  // Uploads `texels` (width x height, row-major, ImU32 colors) and returns the texture to draw.
  // Texels equal to the last upload's are not sent again.
  ImTextureID upload(int width, int height, const std::vector<ImU32>& texels);

 private:
  unsigned texture_ = 0;
  int width_ = 0, height_ = 0;
  std::vector<ImU32> last_;
};

}  // namespace swz::gui
