// probe_source.cpp: the calibration kernels' source (every build; no GPU needed).
//
// One kernel per instruction kind; each lane reads its byte address from
// addr[lane] (-1: the lane sits the instruction out) and runs exactly one
// shared-memory instruction as inline PTX, so the counters see that
// instruction and nothing else. ldmatrix / stmatrix are warp-wide (.sync.aligned):
// every lane executes them, and the lanes past 8 x matrices give an address the
// instruction ignores.
#include <fmt/format.h>

#include "swz/gpu.h"

namespace swz::gpu {

namespace {

std::string body(const InstructionKind& k) {
  const int words = std::max(1, k.bytes / 4);
  const char* width = k.bytes == 1 ? "u8" : k.bytes == 2 ? "u16" : "u32";
  std::string regs, outs, ins;
  for (int i = 0; i < words; ++i) regs += fmt::format("{}%{}", i ? ", " : "", i);
  switch (k.op) {
    case WarpOp::Load: {
      const std::string vec = words > 1 ? fmt::format("v{}.", words) : "";
      std::string decl = "unsigned", sink;
      for (int i = 0; i < words; ++i) {
        decl += fmt::format("{} v{} = 0", i ? "," : "", i);
        outs += fmt::format("{}\"=r\"(v{})", i ? ", " : "", i);
        sink += fmt::format("{}v{}", i ? " ^ " : "", i);
      }
      return fmt::format(
          "  {};\n  if (a >= 0) {{\n    asm volatile(\"ld.shared.{}{} {}{}{}, [%{}];\" : {} : \"r\"(s) : \"memory\");\n"
          "    sink[threadIdx.x] = {};\n  }}\n",
          decl, vec, width, words > 1 ? "{" : "", regs, words > 1 ? "}" : "", words, outs, sink);
    }
    case WarpOp::Store: {
      const std::string vec = words > 1 ? fmt::format("v{}.", words) : "";
      for (int i = 0; i < words; ++i) ins += fmt::format(", \"r\"(threadIdx.x * 4u + {}u)", i);
      std::string operands;
      for (int i = 0; i < words; ++i) operands += fmt::format("{}%{}", i ? ", " : "", i + 1);
      return fmt::format("  if (a >= 0) asm volatile(\"st.shared.{}{} [%0], {}{}{};\" :: \"r\"(s){} : \"memory\");\n", vec, width,
                         words > 1 ? "{" : "", operands, words > 1 ? "}" : "", ins);
    }
    case WarpOp::LoadMatrix: {
      std::string decl = "unsigned", sink;
      for (int i = 0; i < k.matrices; ++i) {
        decl += fmt::format("{} v{} = 0", i ? "," : "", i);
        outs += fmt::format("{}\"=r\"(v{})", i ? ", " : "", i);
        sink += fmt::format("{}v{}", i ? " ^ " : "", i);
      }
      std::string r;
      for (int i = 0; i < k.matrices; ++i) r += fmt::format("{}%{}", i ? ", " : "", i);
      return fmt::format(
          "  {};\n  asm volatile(\"ldmatrix.sync.aligned.m8n8.x{}{}.shared.b16 {{{}}}, [%{}];\" : {} : \"r\"(s) : \"memory\");\n"
          "  sink[threadIdx.x] = {};\n",
          decl, k.matrices, k.trans ? ".trans" : "", r, k.matrices, outs, sink);
    }
    case WarpOp::StoreMatrix: {
      std::string r;
      for (int i = 0; i < k.matrices; ++i) {
        r += fmt::format("{}%{}", i ? ", " : "", i + 1);
        ins += fmt::format(", \"r\"(threadIdx.x * 4u + {}u)", i);
      }
      return fmt::format("  asm volatile(\"stmatrix.sync.aligned.m8n8.x{}{}.shared.b16 [%0], {{{}}};\" :: \"r\"(s){} : \"memory\");\n",
                         k.matrices, k.trans ? ".trans" : "", r, ins);
    }
    case WarpOp::AsyncCopy:  // the src-size form, as compilers emit it: 0 bytes read for a copy that moves no data
      return fmt::format(
          "  const long long go = gofs[threadIdx.x];\n"
          "  if (a >= 0) asm volatile(\"cp.async.{}.shared.global [%0], [%1], {}, %2;\" :: \"r\"(s), \"l\"(gsrc + (go < 0 ? 0 : go)),\n"
          "                           \"r\"(go < 0 ? 0 : {}) : \"memory\");\n"
          "  asm volatile(\"cp.async.wait_all;\" ::: \"memory\");\n",
          k.bypass ? "cg" : "ca", k.bytes, k.bytes);
  }
  return "";
}

}  // namespace

std::string calibration_kernel_name(const InstructionKind& kind) {
  std::string n = "swz_cal_" + kind.name();
  for (char& c : n)
    if (c == '.') c = '_';
  return n;
}

std::string expected_sass(const InstructionKind& k) {
  // cuobjdump -sass spellings on sm_90, each followed by its operands after a space.
  switch (k.op) {
    case WarpOp::Load:
    case WarpOp::Store: {
      const char* base = k.op == WarpOp::Load ? "LDS" : "STS";
      if (k.bytes == 4) return fmt::format("{} ", base);
      return k.bytes < 4 ? fmt::format("{}\\.U{} ", base, k.bytes * 8) : fmt::format("{}\\.{} ", base, k.bytes * 8);
    }
    case WarpOp::LoadMatrix:
    case WarpOp::StoreMatrix:
      return fmt::format("{}\\.16\\.{}88{} ", k.op == WarpOp::LoadMatrix ? "LDSM" : "STSM", k.trans ? "MT" : "M",
                         k.matrices == 1 ? "" : k.matrices == 2 ? "\\.2" : "\\.4");
    case WarpOp::AsyncCopy:
      return k.bypass ? "LDGSTS\\.E\\.BYPASS\\.128\\.ZFILL " : fmt::format("LDGSTS\\.E{}\\.ZFILL ", k.bytes == 4 ? "" : k.bytes == 8 ? "\\.64" : "\\.128");
  }
  return "";
}

std::string expected_ptx(const InstructionKind& k) {
  switch (k.op) {
    case WarpOp::Load:
    case WarpOp::Store: {
      const char* type = k.bytes == 1 ? "u8" : k.bytes == 2 ? "u16" : k.bytes == 4 ? "b32" : k.bytes == 8 ? "v2\\.b32" : "v4\\.b32";
      return fmt::format("{}(\\.volatile)?\\.shared\\.{}", k.op == WarpOp::Load ? "ld" : "st", type);
    }
    case WarpOp::LoadMatrix:
    case WarpOp::StoreMatrix:
      return fmt::format("{}\\.sync\\.aligned\\.m8n8\\.x{}{}\\.shared\\.b16", k.op == WarpOp::LoadMatrix ? "ldmatrix" : "stmatrix",
                         k.matrices, k.trans ? "\\.trans" : "");
    case WarpOp::AsyncCopy: return fmt::format("cp\\.async\\.{}\\.shared\\.global", k.bypass ? "cg" : "ca");
  }
  return "";
}

std::string generate_calibration_source(const std::vector<InstructionKind>& kinds) {
  std::string src =
      "// Calibration probes: one shared-memory instruction per kernel, one warp.\n"
      "// addr: 32 byte addresses (-1: lane inactive); sink keeps the loads alive; gsrc feeds cp.async\n"
      "// at the lanes' byte offsets gofs (-1: the copy moves no data).\n";
  for (const InstructionKind& k : kinds) {
    src += fmt::format(
        "extern \"C\" __global__ void __launch_bounds__(32) {}(const int* __restrict__ addr, unsigned* __restrict__ sink,\n"
        "    const unsigned char* __restrict__ gsrc, const long long* __restrict__ gofs) {{\n"
        "  extern __shared__ __align__(1024) unsigned char swz_smem[];\n"
        "  const int a = addr[threadIdx.x];\n"
        "  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(swz_smem)) + static_cast<unsigned>(a < 0 ? 0 : a);\n"
        "{}"
        "  (void)sink; (void)gsrc; (void)gofs;\n"
        "}}\n",
        calibration_kernel_name(k), body(k));
  }
  return src;
}

}  // namespace swz::gpu
