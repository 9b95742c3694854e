// png_pages_check LESSON.json DIR: DIR holds each step's slides, step-01.png (then step-01b.png,
// ... where the step goes on over more slides, as slide_count() says), each a PNG that decodes to
// 1920x1080, and nothing else the export would have named (no slide past a step's last, no step
// past the lesson's last, no index.html). Prints "ok N pages" or what is wrong.
#include <fmt/format.h>
#include <stb_image.h>

#include <cstdio>
#include <filesystem>

#include "swz/error.h"
#include "swz/export/font.h"
#include "swz/teach/lesson.h"
#include "swz/teach/lesson_pages.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fputs("usage: png_pages_check LESSON.json DIR\n", stderr);
    return 2;
  }
  namespace fs = std::filesystem;
  try {
    const swz::Lesson lesson = swz::load_lesson_file(argv[1]);
    const fs::path dir(argv[2]);
    const swz::Typeface type = swz::Typeface::load();
    std::size_t pages = 0;
    const auto name = [](std::size_t step, std::size_t part) {
      return part == 0 ? fmt::format("step-{:02}.png", step + 1) : fmt::format("step-{:02}{}.png", step + 1, static_cast<char>('a' + part));
    };
    for (std::size_t i = 0; i <= lesson.steps.size(); ++i) {
      if (i == lesson.steps.size()) {
        if (fs::exists(dir / name(i, 0))) return fmt::print("{}: a page past the last step\n", (dir / name(i, 0)).string()), 1;
        break;
      }
      const std::size_t slides = swz::slide_count(lesson, i, type);
      for (std::size_t part = 0; part <= slides; ++part) {
        const fs::path page = dir / name(i, part);
        if (part == slides) {
          if (fs::exists(page)) return fmt::print("{}: a slide past the step's last\n", page.string()), 1;
          break;
        }
        int w = 0, h = 0, channels = 0;
        unsigned char* pixels = stbi_load(page.c_str(), &w, &h, &channels, 3);
        if (!pixels) return fmt::print("{}: does not decode ({})\n", page.string(), stbi_failure_reason()), 1;
        stbi_image_free(pixels);
        if (w != swz::kSlideWidth || h != swz::kSlideHeight) return fmt::print("{}: {}x{}\n", page.string(), w, h), 1;
        ++pages;
      }
    }
    if (fs::exists(dir / "index.html")) return fmt::print("{}: an index.html beside png pages\n", dir.string()), 1;
    fmt::print("{}: ok {} pages for {} steps\n", lesson.name, pages, lesson.steps.size());
  } catch (const std::exception& e) {
    fmt::print("{}\n", e.what());
    return 1;
  }
  return 0;
}
