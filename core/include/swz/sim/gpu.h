// gpu.h: the GPUs the bank model knows, as one table.
//
// A GPU is a row of data, not a branch in the code: its vendor, its banks, its lanes per warp
// (NVIDIA) or wavefront (AMD), its shared memory (LDS on AMD), the instructions it has and which
// lanes each instruction serves together (its phases). Every other part of the core reads a GPU
// through `GpuModel::bank`, the BankModel passed everywhere, whose `gpu` field names the row;
// serve() (warp_access.h) asks phases_of() which lanes share a phase.
//
// Phases as F2 subspaces. A lane id is a vector of bits l0..l5. The lanes one phase serves are
// a coset of a subspace S of lane ids (the phase of lane 0 is S itself; every other phase is
// lane ^ S). Contiguous runs of 2^k lanes are S = span(l0, .., l(k-1)); AMD's ds_read_b128 on
// gfx942 is S = span(l0, l1, l2^l4):
//
//   lane bits:  l5 l4 l3 l2 l1 l0
//   S:           0  0  0  0  0  1      l0
//                0  0  0  0  1  0      l1
//                0  1  0  1  0  0      l2 ^ l4   -> phase 0 = {0-3, 20-23}
//
// so a phase is 8 lanes that are not a run, and phase k is the coset holding the k-th smallest
// lane not in an earlier phase (contiguous runs keep their usual numbers: lane / run length).
//
// Facts name their source beside them (gpu.cpp). The H100 (sm_90) is the default: a
// default-constructed BankModel is exactly its model.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "swz/sim/bank.h"
#include "swz/sim/warp_access.h"

namespace swz {

enum class Vendor { Nvidia, Amd };

// One instruction and width whose phases a GPU states (the table's rows for AMD), and the banks
// it is served on where they are not the GPU's (gfx950's ds_write_b64: 32 banks, measured).
struct PhaseFact {
  InstructionKind kind;
  LanePhases phases;
  const char* source = "";
  int banks = 0;  // banks of `bank_bytes` this instruction is served on; 0: the GPU's own
};

struct GpuModel {
  std::string name;                  // the architecture name the ecosystem uses: sm_90, gfx942
  std::vector<std::string> aliases;  // products and families: h100, h200, hopper; mi300x
  std::string products;              // for messages: "H100, H200"
  Vendor vendor = Vendor::Nvidia;
  BankModel bank;                             // banks, bank bytes, lanes: pass this everywhere
  std::int64_t shared_bytes = 0;              // shared memory (LDS) per SM / CU
  bool tma = false;                           // cp.async.bulk.tensor (TMA)
  bool tcgen05 = false;                       // tcgen05 MMA operands through shared-memory descriptors
  bool paired_lane_loads = false;             // wide loads of paired lanes served in wider phases (serve(), rule 3)
  std::vector<InstructionKind> instructions;  // the shared-memory instructions it has
  // Phases stated per instruction and width; an instruction not listed is served in contiguous
  // runs of as many lanes as one wavefront (banks x bank bytes) holds.
  std::vector<PhaseFact> phases;
  std::vector<std::string> sources;  // where the row's facts come from, one line each

  bool has(const InstructionKind& kind) const;
  // The instruction's name on this GPU: LDS.128 / LDSM.x4 on NVIDIA, DS_READ_B128 on AMD.
  std::string instruction_name(const InstructionKind& kind) const;
  // The instruction this GPU names `name` (DS_READ_B128, LDS.128); throws swz::Error naming its
  // instructions when it has none of that name.
  InstructionKind instruction_named(const std::string& name) const;
  // "sm_90 (H100, H200)"
  std::string title() const;
};

// Every GPU, the default (sm_90) first.
const std::vector<GpuModel>& all_gpus();
// By name or alias, any case: "gfx950", "MI355X", "h100". Throws swz::Error with one line naming
// the known GPUs and the nearest name.
const GpuModel& gpu_named(std::string_view name);
// The row a bank model belongs to.
const GpuModel& gpu_of(const BankModel& model);

// The bank model and phases one instruction is served under. The GPU's entry for the instruction
// where it states one and `model` is the GPU's own (its banks and lanes): its phases, and its banks
// where they differ (bank.banks = 32 for gfx950's ds_write_b64); else `model` in runs of
// phase_lanes(). Every count (serve(), access_geometry(), and through them the solver, the lemma,
// the sweep and the audit) takes an instruction's banks and phases from here.
struct InstructionBanks {
  BankModel bank;  // bank.gpu is the model's GPU; bank.banks may be fewer than the GPU's
  LanePhases phases;
  const char* source = "";  // the entry's source; empty where no entry states the instruction
};
InstructionBanks instruction_banks(const InstructionKind& kind, const BankModel& model);

// Throws swz::Error (one line) when the model's GPU has no such instruction.
void check_instruction(const InstructionKind& kind, const BankModel& model);
// The instruction's name on the model's GPU.
std::string instruction_name(const InstructionKind& kind, const BankModel& model);

}  // namespace swz
