// The SASS listing reader (sass.h) and the audit's match of a module's copies to its LDGSTS
// (swizzle audit --sass): headers of the three printings, control codes, guards, operands in
// brackets, control bytes, functions named twice. Each input is read as a listing, its LDGSTS's
// predicate operands taken, and a module of one masked 16-byte copy audited with it.
#include <cstddef>
#include <cstdint>
#include <string>

#include "swz/error.h"
#include "swz/kernel/audit.h"
#include "swz/kernel/sass.h"

namespace {

// A 64x32 fp16 tile (4 warps, two 16-byte copies a thread) copied masked, as Triton issues a stage.
const char* kModule =
    R"(#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @matmul(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %K: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32
    %rows = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %cols = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %r = tt.expand_dims %rows {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked>
    %c = tt.expand_dims %cols {axis = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %pitches = tt.splat %K : i32 -> tensor<64x1xi32, #blocked>
    %rk = arith.muli %r, %pitches : tensor<64x1xi32, #blocked>
    %rr = tt.broadcast %rk : tensor<64x1xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %cc = tt.broadcast %c : tensor<1x32xi32, #blocked> -> tensor<64x32xi32, #blocked>
    %off = arith.addi %rr, %cc : tensor<64x32xi32, #blocked>
    %base = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>, #blocked>
    %p = tt.addptr %base, %off : tensor<64x32x!tt.ptr<f16>, #blocked>, tensor<64x32xi32, #blocked>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>
    %stage = ttg.memdesc_index %buf[%c0_i32] : !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable>
    %live = arith.cmpi sgt, %K, %c0_i32 : i32
    %mask = tt.splat %live : i1 -> tensor<64x32xi1, #blocked>
    %t = ttg.async_copy_global_to_local %p, %stage mask %mask {contiguity = 8 : i32} : tensor<64x32x!tt.ptr<f16>, #blocked> -> <64x32xf16, #shared, #smem, mutable>
    tt.return
  }
}
)";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 16384) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const swz::sass::Listing listing = swz::sass::read_listing(text, "fuzz.sass");
    for (const swz::sass::Function& f : listing.functions)
      for (const swz::sass::Instruction& i : f.instructions) (void)swz::sass::predicate_operand(i);
    (void)swz::audit_module(kModule, "fuzz.ttgir", "", {{"K", 64}}, &listing);
  } catch (const swz::Error&) {
  }
  return 0;
}
