// The generated headers compile with every compiler found (g++, clang++, nvcc) under
// -Wall -Wextra -Werror, and a program built from them checks offset(), its inverse,
// the byte forms and the CuTe alias against the core's layout for every coordinate
// of every preset layout.
//
// Compilers come from CMake (find_program); a missing one skips its test.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <regex>

#include "export_support.h"

namespace swz::test {
namespace {

// The checking code for one case: loops over every coordinate in row-major order.
std::string checker_source(const ExportCase& c, const std::string& header) {
  const ExportRequest& r = c.request;
  const SharedLayout& s = r.shared;
  const auto& shape = s.shape();
  const std::size_t rank = shape.size();
  const std::string& ns = c.id;
  std::vector<std::string> dims, vars;
  for (std::size_t d = 0; d < rank; ++d) {
    dims.push_back(rank == 2 ? (d == 0 ? "row" : "col") : fmt::format("dim{}", d));
    vars.push_back(fmt::format("d{}", d));
  }
  const std::string args = fmt::format("{}", fmt::join(vars, ", "));

  // Expected offsets in row-major order (last dim fastest), straight from the core's table.
  std::vector<std::string> expected;
  std::vector<std::int64_t> coords(rank, 0);
  for (std::int64_t i = 0; i < s.elements(); ++i) {
    expected.push_back(std::to_string(s.offset(s.coords().flatten(coords))));
    for (std::size_t d = rank; d-- > 0;) {
      if (++coords[d] < shape[d]) break;
      coords[d] = 0;
    }
  }
  const bool byte_map = header.find("swizzle_byte_offset(std::uint32_t byte)") != std::string::npos;
  const bool cute_row = header.find("On element offsets of the row-major tile") != std::string::npos;
  const bool cute_col = header.find("On element offsets of the column-major tile") != std::string::npos;
  const int ebits = r.element_bits;

  std::string src = fmt::format("#include \"{0}.h\"\n\n#include <cstdint>\n#include <cstdio>\n\nnamespace check_{0} {{\n\n", ns);
  src += fmt::format("constexpr std::uint32_t expected[] = {{{}}};\n\n", fmt::join(expected, ", "));
  // Constant expressions: the first and last coordinates, at compile time.
  {
    std::vector<std::string> last;
    for (std::int64_t n : shape) last.push_back(std::to_string(n - 1));
    src += fmt::format("static_assert({}::offset({}) == {}u, \"offset() is a constant expression\");\n", ns,
                       fmt::join(last, ", "), expected.back());
    src += fmt::format("static_assert({}::{}_of({}u) == {}u, \"the inverse is a constant expression\");\n", ns, dims.back(),
                       expected.back(), shape.back() - 1);
  }
  src += fmt::format("static_assert({}::elements == {}u && {}::element_bits == {}u && {}::rank == {}u, \"constants\");\n\n", ns,
                     s.elements(), ns, ebits, ns, rank);
  src += "int run() {\n  int failures = 0;\n  std::uint32_t index = 0;\n";
  for (std::size_t d = 0; d < rank; ++d)
    src += fmt::format("{:{}}for (std::uint32_t {} = 0; {} < {}::shape[{}]; ++{})\n", "", 2 * d + 2, vars[d], vars[d], ns, d,
                       vars[d]);
  src += "  {\n";
  src += fmt::format("    const std::uint32_t off = {}::offset({});\n", ns, args);
  src += "    bool ok = off == expected[index];\n";
  for (std::size_t d = 0; d < rank; ++d) src += fmt::format("    ok = ok && {}::{}_of(off) == {};\n", ns, dims[d], vars[d]);
  src += fmt::format("    const {}::coord c = {}::coord_of(off);\n", ns, ns);
  for (std::size_t d = 0; d < rank; ++d) src += fmt::format("    ok = ok && c.{} == {};\n", dims[d], vars[d]);
  // Coordinates are taken modulo the shape.
  src += fmt::format("    ok = ok && {}::offset({} + {}::shape[0]{}{}) == off;\n", ns, vars[0], ns, rank > 1 ? ", " : "",
                     fmt::join(vars.begin() + 1, vars.end(), ", "));
  if (ebits >= 8) {
    const int bytes = ebits / 8;
    src += fmt::format("    ok = ok && {}::byte_offset({}) == off * {}u;\n", ns, args, bytes);
    if (byte_map)
      src += fmt::format(
          "    for (std::uint32_t k = 0; k < {1}u; ++k) {{\n"
          "      ok = ok && {0}::swizzle_byte_offset(index * {1}u + k) == off * {1}u + k;\n"
          "      ok = ok && {0}::unswizzle_byte_offset(off * {1}u + k) == index * {1}u + k;\n"
          "    }}\n",
          ns, bytes);
  } else {
    src += fmt::format("    ok = ok && {}::byte_offset({}) == off / 2u;\n", ns, args);
    if (byte_map)
      src += fmt::format(
          "    ok = ok && {0}::swizzle_byte_offset(index / 2u) == off / 2u;\n"
          "    ok = ok && {0}::unswizzle_byte_offset(off / 2u) == index / 2u;\n",
          ns);
  }
  if (cute_row || cute_col) {
    // Column-major index: dim0 fastest.
    std::string col_major = vars[rank - 1];
    for (std::size_t d = rank - 1; d-- > 0;) col_major = fmt::format("({} * {}::shape[{}] + {})", col_major, ns, d, vars[d]);
    const std::string plain = cute_row ? "index" : col_major;
    src += "#if defined(SWZ_CHECK_CUTE)\n";
    src += fmt::format("    ok = ok && {}::cute_swizzle{{}}({}) == off;\n", ns, plain);
    if (ebits >= 8)
      src += fmt::format("    ok = ok && {}::cute_swizzle_bytes{{}}({} * {}u) == off * {}u;\n", ns, plain, ebits / 8, ebits / 8);
    src += "#endif\n";
  }
  src += fmt::format(
      "    if (!ok && ++failures <= 5) std::printf(\"{}: element %u (offset %u) disagrees with the core\\n\", index, off);\n",
      ns);
  src += "    ++index;\n  }\n";
  src += fmt::format("  if (index != {}u) {{\n    std::printf(\"{}: visited %u elements\\n\", index);\n    ++failures;\n  }}\n",
                     s.elements(), ns);
  src += "  return failures;\n}\n\n";
  // Device code: the functions must be callable from a kernel under nvcc.
  std::vector<std::string> thread_args(rank, "t");
  src += "#if defined(__CUDACC__)\n";
  src += fmt::format(
      "__global__ void device_use(std::uint32_t* out) {{\n  const std::uint32_t t = threadIdx.x;\n"
      "  out[t] = {0}::offset({1}) ^ {0}::byte_offset({1}) ^ {0}::coord_of(t).{2}{3};\n}}\n",
      ns, fmt::join(thread_args, ", "), dims[0], byte_map ? fmt::format(" ^ {}::swizzle_byte_offset(t)", ns) : "");
  src += "#endif\n\n";
  src += fmt::format("}}  // namespace check_{}\n", ns);
  return src;
}

// A test double of CuTe's swizzle.hpp: Swizzle<B,M,S> as CuTe defines it, o ^ ((o & yyy) >> S).
constexpr const char* kCuteSwizzleDouble = R"(#pragma once
namespace cute {
template <int BBits, int MBase, int SShift = BBits>
struct Swizzle {
  static_assert(BBits >= 0 && MBase >= 0 && (SShift >= BBits || -SShift >= BBits), "as CuTe requires");
  static constexpr unsigned yyy_msk = ((1u << BBits) - 1u) << (MBase + (SShift > 0 ? SShift : 0));
  template <class Offset>
  static constexpr Offset apply(Offset const& offset) {
    return SShift >= 0 ? Offset(offset ^ ((offset & yyy_msk) >> SShift)) : Offset(offset ^ ((offset & yyy_msk) << -SShift));
  }
  template <class Offset>
  constexpr Offset operator()(Offset const& offset) const { return apply(offset); }
};
}  // namespace cute
)";

class HeaderCompile : public ::testing::Test {
 protected:
  // Writes every case's header and checker; returns the checker file names.
  std::vector<std::string> write_sources(const std::filesystem::path& dir) {
    std::vector<std::string> files;
    std::string declarations, calls;
    for (const ExportCase& c : all_export_cases()) {
      const std::string header = export_header(c.request);
      write_text(dir / (c.id + ".h"), header);
      write_text(dir / ("check_" + c.id + ".cpp"), checker_source(c, header));
      files.push_back("check_" + c.id + ".cpp");
      declarations += fmt::format("namespace check_{} {{ int run(); }}\n", c.id);
      calls += fmt::format("  failures += check_{}::run();\n", c.id);
    }
    write_text(dir / "main.cpp",
               fmt::format("#include <cstdio>\n\n{}\nint main() {{\n  int failures = 0;\n{}"
                           "  std::printf(\"%d failures in {} layouts\\n\", failures);\n  return failures == 0 ? 0 : 1;\n}}\n",
                           declarations, calls, files.size()));
    std::filesystem::create_directories(dir / "cute_double" / "cute");
    write_text(dir / "cute_double" / "cute" / "swizzle.hpp", kCuteSwizzleDouble);
    return files;
  }

  // Builds the checker with one compiler and runs it.
  void build_and_run(const std::string& compiler, const std::string& flags, bool with_cute) {
    TempDir dir(with_cute ? "cute" : "plain");
    const std::vector<std::string> files = write_sources(dir.path());
    std::string command = fmt::format("cd '{}' && '{}' {} -I. {} main.cpp {} -o checker && ./checker", dir.path().string(),
                                      compiler, flags, with_cute ? "-Icute_double -DSWZ_CHECK_CUTE" : "", fmt::join(files, " "));
    std::string output;
    const int status = run_command(command, output, dir / "log.txt");
    ASSERT_EQ(status, 0) << command << "\n" << output.substr(0, 8000);
    EXPECT_NE(output.find(fmt::format("0 failures in {} layouts", files.size())), std::string::npos) << output;
  }
};

TEST_F(HeaderCompile, GxxStrictChecksEveryCoordinate) {
  if (!available(SWZ_EXPORT_GXX)) GTEST_SKIP() << "g++ not found";
  build_and_run(SWZ_EXPORT_GXX, kStrict, /*with_cute=*/false);
}

TEST_F(HeaderCompile, ClangStrictChecksEveryCoordinate) {
  if (!available(SWZ_EXPORT_CLANGXX)) GTEST_SKIP() << "clang++ not found";
  build_and_run(SWZ_EXPORT_CLANGXX, kStrict, /*with_cute=*/false);
}

// The guarded CuTe alias compiles when <cute/swizzle.hpp> is found and swizzles like offset().
TEST_F(HeaderCompile, CuteAliasAgreesWithOffsetWhereCuteIsFound) {
  const std::string compiler = available(SWZ_EXPORT_GXX) ? SWZ_EXPORT_GXX : SWZ_EXPORT_CLANGXX;
  if (!available(compiler)) GTEST_SKIP() << "no C++ compiler found";
  build_and_run(compiler, kStrict, /*with_cute=*/true);
}

// nvcc: one translation unit with every header (they coexist), kernels calling the
// functions in device code (compile only: no GPU needed), the host checks run.
TEST_F(HeaderCompile, NvccCompilesDeviceCodeAndChecksOnTheHost) {
  if (!available(SWZ_EXPORT_NVCC)) GTEST_SKIP() << "nvcc not found";
  TempDir dir("nvcc");
  const std::vector<std::string> files = write_sources(dir.path());
  std::string all;
  for (const std::string& f : files) all += fmt::format("#include \"{}\"\n", f);
  all += "#include \"main.cpp\"\n";
  write_text(dir / "all.cu", all);
  const std::string command = fmt::format(
      "cd '{}' && '{}' -std=c++17 -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -I. all.cu -o checker && ./checker",
      dir.path().string(), SWZ_EXPORT_NVCC);
  std::string output;
  const int status = run_command(command, output, dir / "log.txt");
  ASSERT_EQ(status, 0) << command << "\n" << output.substr(0, 8000);
  EXPECT_NE(output.find(fmt::format("0 failures in {} layouts", files.size())), std::string::npos) << output;
}

// The checker is not vacuous: a header whose offset() is wrong for one element fails it.
TEST_F(HeaderCompile, CheckerCatchesAWrongOffset) {
  const std::string compiler = available(SWZ_EXPORT_GXX) ? SWZ_EXPORT_GXX : SWZ_EXPORT_CLANGXX;
  if (!available(compiler)) GTEST_SKIP() << "no C++ compiler found";
  TempDir dir("broken");
  Problem p = make_preset("transpose16x32");
  p.set_masks({2, 4, 8, 16});
  const ExportCase c{"broken_tile", ExportRequest::from_problem(p, "broken_tile")};
  std::string header = export_header(c.request);
  // Flip bit 0 of every even column: wrong at run time, still right for the last element,
  // which the checker's static_assert looks at.
  const std::string good = "(col & 0x1fu)";
  ASSERT_NE(header.find(good), std::string::npos) << header;
  header.replace(header.find(good), good.size(), "(col & 0x1fu) ^ (~col & 0x1u)");
  write_text(dir / "broken_tile.h", header);
  write_text(dir / "check.cpp", checker_source(c, export_header(c.request)));
  write_text(dir / "main.cpp",
             "namespace check_broken_tile { int run(); }\nint main() { return check_broken_tile::run() == 0 ? 0 : 1; }\n");
  std::string output;
  const std::string command =
      fmt::format("cd '{}' && '{}' -std=c++17 -I. main.cpp check.cpp -o checker && ./checker", dir.path().string(), compiler);
  const int status = run_command(command, output, dir / "log.txt");
  EXPECT_NE(status, 0) << output;
  EXPECT_NE(output.find("disagrees with the core"), std::string::npos) << output;
}

}  // namespace
}  // namespace swz::test
