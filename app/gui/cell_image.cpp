#include "cell_image.h"

#include <algorithm>
#include <cstdint>

#include "gl_api.h"

namespace swz::gui {

CellImage::~CellImage() {
  if (texture_) {
    const GLuint t = texture_;
    glDeleteTextures(1, &t);
  }
}

ImTextureID CellImage::upload(int width, int height, const std::vector<ImU32>& texels) {
  const std::size_t n = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  if (texture_ && width == width_ && height == height_ && last_.size() == n && std::equal(last_.begin(), last_.end(), texels.begin()))
    return reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(texture_));
  last_.assign(texels.begin(), texels.begin() + static_cast<std::ptrdiff_t>(n));
  if (!texture_) {
    GLuint t = 0;
    glGenTextures(1, &t);
    texture_ = t;
    glBindTexture(GL_TEXTURE_2D, t);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  } else {
    glBindTexture(GL_TEXTURE_2D, texture_);
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  // ImU32 is 0xAABBGGRR: in memory R, G, B, A, which is GL_RGBA bytes on little-endian machines.
  if (width != width_ || height != height_) {
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
    width_ = width;
    height_ = height;
  } else {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
  }
  return reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(texture_));
}

}  // namespace swz::gui
