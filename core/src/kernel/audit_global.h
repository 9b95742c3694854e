// audit_global.h (private to core/src/kernel): the global side of the audit's copies, read from
// the kernel (ttgir_pointer.h) rather than guessed from the register layout's order.
//
// A cp.async's cost depends on where each lane reads (serve(): the source banks in turns), so the
// audit gives the simulator each element's global byte address. Strides that are kernel arguments
// are unknown: the price takes each as the smallest multiple of its tt.divisibility that makes the
// row pitch a multiple of 128 bytes (and rows no closer than the tile is large), and the line gives
// the range over every pitch the divisibility allows (best, worst). The addresses travel with the
// registers key (" @global:<digest>" after the layout text), so that every pricing of the copy,
// suggestions included, reads the same addresses.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "swz/sim/bank.h"
#include "ttgir_pointer.h"

namespace swz::audit_parts {

// The kernel's integer arguments where a price needs a value (a pitch, a loop bound, a mask's
// bound): given (`swizzle audit --arg K=256`) or assumed, one value per argument for the whole
// module, so that a pitch and a loop bound read the same %K; every line that uses one says which.
struct KnownArguments {
  ttgir::Values values;         // "%K" -> its value
  std::set<std::string> given;  // the names the caller gave
  // "%K = 256 (given)" or "%K taken as 8192" (empty: no value).
  std::string said(const std::string& name) const;
};

struct CopyGlobal {
  std::string key_suffix;  // for the registers key; empty: the addresses were not read (note says why)
  std::string note;        // "; global side ...": what the price assumes, its range, sectors per request
};

// The global side of a copy of `access` (its register layout and width) into `shared`, from the
// pointer tensor `pointer` of the module `reader` reads.
// Strides the module's arguments hold: their values from `arguments`, and the ones assumed here added to it.
CopyGlobal read_copy_global(const ttgir::PointerReader& reader, const std::string& pointer, const Access& access,
                            const SharedLayout& shared, int element_bits, const BankModel& bank, KnownArguments& arguments);

// Each element's byte address of the pointer tensor `f` (by flat coordinate of `layout`) with its
// unknowns at `values`; the lowest moved to the 128-byte line it lies in (the tile's base is taken
// 128-byte aligned, so an offset within a line, a pipeline stage's K slice, keeps its place).
std::vector<std::int64_t> global_addresses(const ttgir::Affine& f, const LinearLayout& layout, const ttgir::Values& values);
// Each element's value of `f` (by flat coordinate of `layout`) with its unknowns at `values`: a
// mask's 1 or 0 per element.
std::vector<std::int64_t> by_coordinate(const ttgir::Affine& f, const LinearLayout& layout, const ttgir::Values& values);
// The addresses as a registers-key suffix (" @global:<digest>"), kept for global_bytes_of().
std::string register_global_addresses(std::vector<std::int64_t> bytes);

// The registers key without its global suffix (the layout's text), and the addresses it names.
std::string layout_text_of(const std::string& registers_key);
std::string global_suffix_of(const std::string& registers_key);
std::shared_ptr<const std::vector<std::int64_t>> global_bytes_of(const std::string& registers_key);

// Mean distinct 32-byte global sectors one instruction of a copy reads.
double sectors_per_request(const Access& access, const SharedLayout& shared, int element_bits, const BankModel& bank);

// The global side of the tensor `value` a local_store / local_alloc writes or a local_load reads
// (`registers`: its layout), when a tt.load made it or a tt.store writes it: sectors per request, as
// the line's note ("" when neither).
std::string global_request_note(const ttgir::PointerReader& reader, const std::string& value, const LinearLayout& registers,
                                int element_bits, int warp_size);

}  // namespace swz::audit_parts
