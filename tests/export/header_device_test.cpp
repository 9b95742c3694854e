// Everything in a generated header works in device code: one program reads every
// constant, every entry of every table (shape, masks, offset_bases, the Triton /
// TMA strings) and every function (offset, <dim>_of, coord_of, the byte forms) for
// every element of every exportable layout, once in host code and once in a CUDA
// kernel, and compares the two word for word.
//
//   g++   builds the host half (the kernel is behind __CUDACC__) and runs it: the
//         tables agree with the functions (XOR of offset_bases over the bits of an
//         offset gives its coordinates; row*cols + (col ^ mask(row)) gives offset()).
//   nvcc  builds both halves; where a CUDA device is present the kernel runs and its
//         words must equal the host's. Without one the program says so and the test
//         passes on the compile and the host half, unless SWZ_EXPORT_REQUIRE_GPU=1
//         (set by tests/gpu/run_gpu_suite.sh), which makes "no device" a failure.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <iostream>
#include <regex>

#include "export_support.h"

namespace swz::test {
namespace {

bool gpu_required() {
  const char* v = std::getenv("SWZ_EXPORT_REQUIRE_GPU");
  return v && std::string(v) == "1";
}

// Skips where nvcc is missing, fails instead where a GPU run was asked for.
#define SWZ_NEED_NVCC()                                                                                       \
  do {                                                                                                        \
    if (!available(SWZ_EXPORT_NVCC)) {                                                                        \
      ASSERT_FALSE(gpu_required()) << "SWZ_EXPORT_REQUIRE_GPU=1 but nvcc was not found at configure time";    \
      GTEST_SKIP() << "nvcc not found (looked on PATH and in /usr/local/cuda/bin): device code not compiled"; \
    }                                                                                                         \
  } while (0)

// What a header holds, read from its text: the tables' sizes and the string constants.
struct HeaderContents {
  std::size_t rank = 0, masks = 0, offset_bases = 0;
  std::vector<std::string> strings;  // char arrays: triton_shared_linear, ...
  bool byte_map = false;
};

HeaderContents contents_of(const std::string& ns, const std::string& header) {
  HeaderContents h;
  const std::string constant = [&] {
    std::string u;
    for (char c : ns) u += static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    return u + "_CONSTANT ";
  }();
  std::smatch m;
  if (std::regex_search(header, m, std::regex(constant + "std::uint32_t rank = (\\d+)u;"))) h.rank = std::stoul(m[1]);
  if (std::regex_search(header, m, std::regex(constant + "std::uint32_t masks\\[(\\d+)\\]"))) h.masks = std::stoul(m[1]);
  if (std::regex_search(header, m, std::regex(constant + "std::uint32_t offset_bases\\[(\\d+)\\]")))
    h.offset_bases = std::stoul(m[1]);
  const std::regex str(constant + "char (\\w+)\\[\\]");
  for (auto it = std::sregex_iterator(header.begin(), header.end(), str); it != std::sregex_iterator(); ++it)
    h.strings.push_back((*it)[1]);
  h.byte_map = header.find("swizzle_byte_offset(std::uint32_t byte)") != std::string::npos;
  return h;
}

// The code for one layout: namespace use_<id> with the words writers, the kernel and check().
std::string use_source(const ExportCase& c, const std::string& header) {
  const std::string& ns = c.id;
  const HeaderContents h = contents_of(ns, header);
  EXPECT_EQ(h.rank, c.request.shared.shape().size()) << ns;
  const std::size_t rank = h.rank;
  std::vector<std::string> dims, vars;
  for (std::size_t d = 0; d < rank; ++d) {
    dims.push_back(rank == 2 ? (d == 0 ? "row" : "col") : fmt::format("dim{}", d));
    vars.push_back(fmt::format("x{}", d));
  }
  const std::string args = fmt::format("{}", fmt::join(vars, ", "));
  const int ebits = c.request.element_bits;

  std::string s = fmt::format("#include \"{0}.h\"\n\nnamespace use_{0} {{\n\n", ns);
  // Compile-time reads of the tables, in both of nvcc's passes.
  s += fmt::format("static_assert({0}::shape[0] * ({0}::elements / {0}::shape[0]) == {0}::elements, \"shape\");\n", ns);
  if (h.offset_bases) s += fmt::format("static_assert({0}::offset_bases[0][0] < {0}::shape[0], \"offset_bases\");\n", ns);
  if (h.masks) s += fmt::format("static_assert({0}::masks[0] < {0}::cols, \"masks\");\n", ns);
  s += "\n";

  // The table words: every constant, every table entry, every character of every string.
  s += "USE_HD std::uint32_t table_words(std::uint32_t* out) {\n  std::uint32_t k = 0;\n";
  for (const char* name : {"rank", "elements", "element_bits", "tile_bytes", "banks", "bank_bytes"})
    s += fmt::format("  out[k++] = {}::{};\n", ns, name);
  if (rank == 2) s += fmt::format("  out[k++] = {0}::rows;\n  out[k++] = {0}::cols;\n", ns);
  s += fmt::format("  for (std::uint32_t d = 0; d < {0}::rank; ++d) out[k++] = {0}::shape[d];\n", ns);
  if (h.masks) s += fmt::format("  for (std::uint32_t j = 0; j < {1}u; ++j) out[k++] = {0}::masks[j];\n", ns, h.masks);
  if (h.offset_bases)
    s += fmt::format(
        "  for (std::uint32_t i = 0; i < {1}u; ++i)\n    for (std::uint32_t d = 0; d < {0}::rank; ++d) out[k++] = "
        "{0}::offset_bases[i][d];\n",
        ns, h.offset_bases);
  for (const std::string& str : h.strings)
    s += fmt::format(
        "  for (std::uint32_t i = 0; i < sizeof({0}::{1}); ++i) out[k++] = static_cast<unsigned char>({0}::{1}[i]);\n", ns, str);
  s += "  return k;\n}\n";
  std::size_t table_count = 6 + (rank == 2 ? 2 : 0) + rank + h.masks + h.offset_bases * rank;
  // The strings' lengths are known only to the compiler: table_words() returns its count.
  s += fmt::format("constexpr std::uint32_t table_count_without_strings = {}u;\n", table_count);
  s += fmt::format("constexpr std::uint32_t string_words = 0u{};\n", [&] {
    std::string sum;
    for (const std::string& str : h.strings) sum += fmt::format(" + sizeof({}::{})", ns, str);
    return sum;
  }());
  s += "constexpr std::uint32_t table_count = table_count_without_strings + string_words;\n\n";

  // The element words: element `index` in row-major order (last dim fastest).
  std::size_t per_element = 1 + 2 * rank + 1 + rank + (h.masks ? 1 : 0) + (h.byte_map ? 2 : 0);
  s += fmt::format("constexpr std::uint32_t per_element = {}u;\n", per_element);
  s += "USE_HD void element_words(std::uint32_t* out, std::uint32_t index) {\n  std::uint32_t rest = index;\n";
  for (std::size_t d = rank; d-- > 0;)
    s += fmt::format("  const std::uint32_t {1} = rest % {0}::shape[{2}];\n  rest /= {0}::shape[{2}];\n", ns, vars[d], d);
  s += fmt::format("  const std::uint32_t off = {}::offset({});\n  std::uint32_t k = 0;\n  out[k++] = off;\n", ns, args);
  for (std::size_t d = 0; d < rank; ++d) s += fmt::format("  out[k++] = {}::{}_of(off);\n", ns, dims[d]);
  s += fmt::format("  const {0}::coord c = {0}::coord_of(off);\n", ns);
  for (std::size_t d = 0; d < rank; ++d) s += fmt::format("  out[k++] = c.{};\n", dims[d]);
  s += fmt::format("  out[k++] = {}::byte_offset({});\n", ns, args);
  // The element at `off` from the table: XOR of offset_bases over the set bits of off.
  s += "  std::uint32_t from_bases[" + std::to_string(rank) + "] = {};\n";
  if (h.offset_bases)
    s += fmt::format(
        "  for (std::uint32_t i = 0; i < {1}u; ++i)\n    if ((off >> i) & 1u)\n"
        "      for (std::uint32_t d = 0; d < {0}::rank; ++d) from_bases[d] ^= {0}::offset_bases[i][d];\n",
        ns, h.offset_bases);
  s += fmt::format("  for (std::uint32_t d = 0; d < {}::rank; ++d) out[k++] = from_bases[d];\n", ns);
  if (h.masks)
    s += fmt::format(
        "  std::uint32_t mask = 0;\n  for (std::uint32_t j = 0; j < {1}u; ++j)\n    if (({2} >> j) & 1u) mask ^= {0}::masks[j];\n"
        "  out[k++] = {2} * {0}::cols + ({3} ^ mask);\n",
        ns, h.masks, vars.at(0), vars.at(1));
  if (h.byte_map) {
    const std::string byte = ebits >= 8 ? fmt::format("index * {}u", ebits / 8) : "index / 2u";
    s += fmt::format("  out[k++] = {0}::swizzle_byte_offset({1});\n  out[k++] = {0}::unswizzle_byte_offset({1});\n", ns, byte);
  }
  s += "}\n\n";
  s += fmt::format("constexpr std::uint32_t words = table_count + {}::elements * per_element;\n\n", ns);

  // The kernel: thread 0 writes the tables, every thread a stride of elements.
  s += "#if defined(__CUDACC__)\n";
  s += fmt::format(
      "__global__ void use_all(std::uint32_t* out) {{\n"
      "  const std::uint32_t first = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;\n"
      "  if (first == 0) table_words(out);\n"
      "  for (std::uint32_t i = first; i < {0}::elements; i += stride) element_words(out + table_count + i * per_element, i);\n"
      "}}\n",
      ns);
  s += "#endif\n\n";

  // check(): the host's words, their agreement with the functions, then the device's.
  s += "int check(bool on_device) {\n  int failures = 0;\n  std::vector<std::uint32_t> host(words);\n";
  s += "  if (table_words(host.data()) != table_count) {\n    std::printf(\"" + ns +
       ": table word count\\n\");\n    ++failures;\n  }\n";
  s += fmt::format(
      "  for (std::uint32_t i = 0; i < {}::elements; ++i) element_words(host.data() + table_count + i * per_element, i);\n", ns);
  // Host consistency: inverse, coord_of and the tables all give back the coordinates.
  s += fmt::format("  for (std::uint32_t i = 0; i < {}::elements; ++i) {{\n", ns);
  s += "    const std::uint32_t* e = host.data() + table_count + i * per_element;\n    std::uint32_t rest = i;\n";
  s += "    bool ok = true;\n";
  for (std::size_t d = rank; d-- > 0;)
    s += fmt::format(
        "    ok = ok && e[{2}] == rest % {0}::shape[{1}] && e[{3}] == e[{2}] && e[{4}] == e[{2}];\n    rest /= "
        "{0}::shape[{1}];\n",
        ns, d, 1 + d, 1 + rank + d, 1 + 2 * rank + 1 + d);
  if (h.masks) s += fmt::format("    ok = ok && e[{}] == e[0];\n", 1 + 3 * rank + 1);
  s += "    if (!ok && ++failures <= 5) std::printf(\"" + ns +
       ": element %u: the tables and functions disagree on the host\\n\", i);\n  }\n";
  s += "#if defined(__CUDACC__)\n";
  s += "  if (on_device) {\n"
       "    std::uint32_t* device = nullptr;\n"
       "    std::vector<std::uint32_t> back(words, 0u);\n"
       "    if (!cuda_ok(cudaMalloc(&device, words * sizeof(std::uint32_t)), \"cudaMalloc\") ||\n"
       "        !cuda_ok(cudaMemset(device, 0xff, words * sizeof(std::uint32_t)), \"cudaMemset\"))\n"
       "      return failures + 1;\n"
       "    use_all<<<2, 96>>>(device);\n"
       "    bool ran = cuda_ok(cudaGetLastError(), \"launch\") && cuda_ok(cudaDeviceSynchronize(), \"kernel\") &&\n"
       "               cuda_ok(cudaMemcpy(back.data(), device, words * sizeof(std::uint32_t), cudaMemcpyDeviceToHost), "
       "\"cudaMemcpy\");\n"
       "    cudaFree(device);\n"
       "    if (!ran) return failures + 1;\n"
       "    int differ = 0;\n"
       "    for (std::uint32_t w = 0; w < words; ++w)\n"
       "      if (back[w] != host[w] && ++differ <= 5)\n"
       "        std::printf(\"" +
       ns +
       ": word %u (%s) is %u on the device, %u on the host\\n\", w, w < table_count ? \"tables\" : \"functions\", back[w], "
       "host[w]);\n"
       "    if (differ) ++failures;\n"
       "    else device_words += words;\n"
       "  }\n";
  s += "#else\n  (void)on_device;\n#endif\n";
  s += "  return failures;\n}\n\n";
  s += fmt::format("}}  // namespace use_{}\n", ns);
  return s;
}

// The program's prologue: what every use_<id> namespace needs, ahead of them all.
constexpr const char* kPrologue = R"(#include <cstdint>
#include <cstdio>
#include <vector>

#if defined(__CUDACC__)
#define USE_HD __host__ __device__
#else
#define USE_HD
#endif

static unsigned long device_words = 0;  // words the device computed and the host matched
#if defined(__CUDACC__)
static bool cuda_ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) std::printf("%s: %s\n", what, cudaGetErrorString(e));
  return e == cudaSuccess;
}
#endif
)";

// One translation unit with every case, so the headers must also coexist.
std::string program_source(const std::vector<ExportCase>& cases, const std::vector<std::string>& headers) {
  std::string s = kPrologue;
  for (std::size_t i = 0; i < cases.size(); ++i) s += "\n" + use_source(cases[i], headers[i]);
  s += "\nint main() {\n  bool on_device = false;\n";
  s += "#if defined(__CUDACC__)\n"
       "  int count = 0;\n"
       "  const cudaError_t e = cudaGetDeviceCount(&count);\n"
       "  on_device = e == cudaSuccess && count > 0;\n"
       "  if (on_device) {\n"
       "    cudaDeviceProp prop{};\n"
       "    cudaGetDeviceProperties(&prop, 0);\n"
       "    std::printf(\"device: %s (sm_%d%d)\\n\", prop.name, prop.major, prop.minor);\n"
       "  } else {\n"
       "    std::printf(\"no CUDA device (%s): kernels compiled, not run\\n\", e == cudaSuccess ? \"none found\" : "
       "cudaGetErrorString(e));\n"
       "  }\n"
       "#else\n"
       "  std::printf(\"host compiler: kernels not compiled\\n\");\n"
       "#endif\n";
  s += "  int failures = 0;\n";
  for (const ExportCase& c : cases) s += fmt::format("  failures += use_{}::check(on_device);\n", c.id);
  s += fmt::format("  std::printf(\"%d failures in {} layouts\\n\", failures);\n", cases.size());
  s += "  if (on_device && failures == 0) std::printf(\"device matches host: %lu words\\n\", device_words);\n";
  s += "  return failures == 0 ? 0 : 1;\n}\n";
  return s;
}

class HeaderDevice : public ::testing::Test {
 protected:
  // Writes every case's header and the program; `edit` may change a header first.
  void write_program(const std::filesystem::path& dir,
                     const std::function<void(const std::string& id, std::string& header)>& edit = {}) {
    cases_ = all_export_cases();
    std::vector<std::string> headers;
    for (const ExportCase& c : cases_) {
      headers.push_back(export_header(c.request));
      std::string text = headers.back();
      if (edit) edit(c.id, text);
      write_text(dir / (c.id + ".h"), text);
    }
    write_text(dir / "use_all.cpp", program_source(cases_, headers));
  }
  std::size_t layouts() const { return cases_.size(); }

 private:
  std::vector<ExportCase> cases_;
};

constexpr const char* kNvccFlags = "-std=c++17 -O1 -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror";

TEST_F(HeaderDevice, GxxRunsEveryTableAndFunctionOnTheHost) {
  if (!available(SWZ_EXPORT_GXX)) GTEST_SKIP() << "g++ not found";
  TempDir dir("device_gxx");
  write_program(dir.path());
  const std::string command =
      fmt::format("cd '{}' && '{}' {} -I. use_all.cpp -o use_all && ./use_all", dir.path().string(), SWZ_EXPORT_GXX, kStrict);
  std::string output;
  ASSERT_EQ(run_command(command, output, dir / "log.txt"), 0) << command << "\n" << output.substr(0, 8000);
  EXPECT_NE(output.find(fmt::format("0 failures in {} layouts", layouts())), std::string::npos) << output;
}

// The host check is not vacuous: one wrong entry of one table fails it.
TEST_F(HeaderDevice, HostCheckCatchesAWrongTableEntry) {
  if (!available(SWZ_EXPORT_GXX)) GTEST_SKIP() << "g++ not found";
  TempDir dir("device_wrong");
  write_program(dir.path(), [](const std::string& id, std::string& header) {
    if (id != "transpose16x32_xor_2m") return;
    const std::string good = "masks[4] = {2u, 4u, 8u, 16u};";
    ASSERT_NE(header.find(good), std::string::npos) << header;
    header.replace(header.find(good), good.size(), "masks[4] = {2u, 4u, 8u, 24u};");
  });
  const std::string command =
      fmt::format("cd '{}' && '{}' -std=c++17 -I. use_all.cpp -o use_all && ./use_all", dir.path().string(), SWZ_EXPORT_GXX);
  std::string output;
  EXPECT_NE(run_command(command, output, dir / "log.txt"), 0) << output;
  EXPECT_NE(output.find("transpose16x32_xor_2m: element 256: the tables and functions disagree on the host"), std::string::npos)
      << output;
}

// Below C++17 the header stops at once with one clear line, not a cascade about inline variables.
TEST_F(HeaderDevice, OlderStandardsGetOneClearError) {
  if (!available(SWZ_EXPORT_GXX)) GTEST_SKIP() << "g++ not found";
  TempDir dir("device_cxx14");
  write_program(dir.path());
  write_text(dir / "one.cpp", "#include \"transpose16x32_xor_2m.h\"\nint main() { return 0; }\n");
  const std::string command = fmt::format("cd '{}' && '{}' -std=c++14 -I. -c one.cpp", dir.path().string(), SWZ_EXPORT_GXX);
  std::string output;
  EXPECT_NE(run_command(command, output, dir / "log.txt"), 0) << output;
  EXPECT_NE(output.find("#error \"transpose16x32_xor_2m: this swizzle header needs C++17 or later"), std::string::npos) << output;
}

// nvcc builds host and device halves and the host half runs; where a GPU is present the
// kernel runs too and must match the host word for word.
TEST_F(HeaderDevice, NvccRunsEveryTableAndFunctionInAKernel) {
  SWZ_NEED_NVCC();
  TempDir dir("device_nvcc");
  write_program(dir.path());
  const std::string command = fmt::format("cd '{}' && '{}' {} -I. -x cu use_all.cpp -o use_all && ./use_all", dir.path().string(),
                                          SWZ_EXPORT_NVCC, kNvccFlags);
  std::string output;
  ASSERT_EQ(run_command(command, output, dir / "log.txt"), 0) << command << "\n" << output.substr(0, 8000);
  EXPECT_NE(output.find(fmt::format("0 failures in {} layouts", layouts())), std::string::npos) << output;
  // The first line says where the kernel ran, or why it did not ("no CUDA device (...)").
  std::cout << output.substr(0, output.find('\n')) << "\n";
  if (output.find("no CUDA device") != std::string::npos) {
    EXPECT_FALSE(gpu_required()) << "SWZ_EXPORT_REQUIRE_GPU=1 but the kernel did not run:\n" << output;
  } else {
    EXPECT_NE(output.find("device matches host"), std::string::npos) << output;
  }
}

// The other ways nvcc is used: relaxed constexpr, relocatable device code over two
// translation units (each gets its own device copy of the tables), debug device code.
// Two small files that read the tables in kernels: the whole program is compiled once, above.
TEST_F(HeaderDevice, NvccCompilesUnderOtherFlags) {
  SWZ_NEED_NVCC();
  TempDir dir("device_nvcc_flags");
  write_program(dir.path());
  const char* kernel =
      "#include \"transpose16x32_xor_2m.h\"\n"
      "__global__ void KERNEL(std::uint32_t* out) {\n"
      "  out[threadIdx.x] = transpose16x32_xor_2m::masks[threadIdx.x % 4u] ^ "
      "transpose16x32_xor_2m::offset_bases[threadIdx.x % 9u][1] ^ transpose16x32_xor_2m::offset(threadIdx.x % 16u, 3u);\n}\n";
  auto with_name = [&](const std::string& name) {
    std::string text = kernel;
    text.replace(text.find("KERNEL"), 6, name);
    return text;
  };
  write_text(dir / "first.cpp", with_name("first") + "int main() { return transpose16x32_xor_2m::masks[0] == 2u ? 0 : 1; }\n");
  write_text(dir / "second.cpp", with_name("second"));
  for (const char* extra : {"--expt-relaxed-constexpr", "-rdc=true", "-G"}) {
    const std::string command = fmt::format("cd '{}' && '{}' {} {} -I. -x cu first.cpp second.cpp -o flags && ./flags",
                                            dir.path().string(), SWZ_EXPORT_NVCC, kNvccFlags, extra);
    std::string output;
    EXPECT_EQ(run_command(command, output, dir / "log.txt"), 0) << command << "\n" << output.substr(0, 8000);
  }
}

// The device comparison is not vacuous: a device copy of a table that differs from
// the host's is reported (needs a GPU to run the kernel).
TEST_F(HeaderDevice, NvccCatchesADeviceTableThatDiffers) {
  SWZ_NEED_NVCC();
  // Without a GPU driver the kernel cannot run: skip before the compile, not after.
  if (!gpu_required() && !std::filesystem::exists("/dev/nvidiactl")) GTEST_SKIP() << "no NVIDIA driver here (/dev/nvidiactl)";
  TempDir dir("device_differs");
  write_program(dir.path(), [](const std::string& id, std::string& header) {
    if (id != "transpose16x32_xor_2m") return;
    const std::string good = "TRANSPOSE16X32_XOR_2M_CONSTANT std::uint32_t masks[4] = {2u, 4u, 8u, 16u};";
    ASSERT_NE(header.find(good), std::string::npos) << header;
    header.replace(header.find(good), good.size(),
                   "#if defined(__CUDA_ARCH__)\nTRANSPOSE16X32_XOR_2M_CONSTANT std::uint32_t masks[4] = {2u, 4u, 8u, 24u};\n"
                   "#else\n" +
                       good + "\n#endif");
  });
  const std::string command = fmt::format("cd '{}' && '{}' {} -I. -x cu use_all.cpp -o use_all && ./use_all", dir.path().string(),
                                          SWZ_EXPORT_NVCC, kNvccFlags);
  std::string output;
  const int status = run_command(command, output, dir / "log.txt");
  if (output.find("no CUDA device") != std::string::npos) {
    EXPECT_FALSE(gpu_required()) << "SWZ_EXPORT_REQUIRE_GPU=1 but the kernel did not run:\n" << output;
    GTEST_SKIP() << "no CUDA device: " << output.substr(0, output.find('\n'));
  }
  EXPECT_NE(status, 0) << output;
  EXPECT_TRUE(
      std::regex_search(output, std::regex("transpose16x32_xor_2m: word \\d+ \\(tables\\) is 24 on the device, 16 on the host")))
      << output;
}

}  // namespace
}  // namespace swz::test
