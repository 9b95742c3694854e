// stb_image_write's functions, which the desktop links from Debian's libstb: compiled here for the
// browser build (PNG figures and captures).
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
