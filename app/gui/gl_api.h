// gl_api.h: the few GL entry points the workbench calls itself (textures, clear, read back);
// Dear ImGui's backend loads the rest. OpenGL 3.3 core on the desktop, WebGL 2 (OpenGL ES 3.0)
// in the browser: one of the platform layer's differences (host.h lists them).
#pragma once

#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
inline constexpr const char* kGlslVersion = "#version 300 es";
#else
#include <GL/gl.h>  // GL 1.1 entry points only, exported by libGL itself
inline constexpr const char* kGlslVersion = "#version 330";
#endif
