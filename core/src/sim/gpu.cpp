#include "swz/sim/gpu.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>

#include "swz/error.h"
#include "swz/io/nearest_name.h"

namespace swz {

// [SECTION] The table

namespace {

InstructionKind lds(int bytes) { return {WarpOp::Load, bytes, 0, false}; }
InstructionKind sts(int bytes) { return {WarpOp::Store, bytes, 0, false}; }
// AMD's transposing 64-bit read (ds_read_b64_tr_b16): a load of 8 bytes a lane, `trans` set.
InstructionKind read_b64_tr_b16() { return {WarpOp::Load, 8, 0, true}; }

std::vector<InstructionKind> nvidia_instructions(bool stmatrix) {
  std::vector<InstructionKind> kinds;
  for (const InstructionKind& k : all_instruction_kinds())
    if (stmatrix || k.op != WarpOp::StoreMatrix) kinds.push_back(k);
  return kinds;
}

std::vector<InstructionKind> amd_instructions(bool transposing_read) {
  std::vector<InstructionKind> kinds;
  for (int bytes : {1, 2, 4, 8, 16}) kinds.push_back(lds(bytes));
  for (int bytes : {1, 2, 4, 8, 16}) kinds.push_back(sts(bytes));
  if (transposing_read) kinds.push_back(read_b64_tr_b16());
  return kinds;
}

LanePhases span_phases(int lanes_per_phase, std::vector<std::uint32_t> span) {
  LanePhases p;
  p.lanes_per_phase = lanes_per_phase;
  p.span = std::move(span);
  return p;
}

constexpr std::uint32_t l0 = 1, l1 = 2, l2 = 4, l3 = 8, l4 = 16;

// Triton PR #9662 (getNumBanks()): a 64-lane wavefront moves threads x bits / (banks x 32)
// phases; for sub-word accesses a lane still takes one bank word.
constexpr const char* kTriton9662 = "Triton PR #9662: phases = threads x bits per thread / (banks x 32)";

// Reads and writes of 32 bits or less: as many lanes as one wavefront of bank words holds.
std::vector<PhaseFact> word_phases(int lanes_per_phase, std::vector<PhaseFact> wider) {
  std::vector<PhaseFact> facts;
  for (int bytes : {1, 2, 4}) {
    facts.push_back({lds(bytes), contiguous_phases(lanes_per_phase), kTriton9662});
    facts.push_back({sts(bytes), contiguous_phases(lanes_per_phase), kTriton9662});
  }
  facts.insert(facts.end(), wider.begin(), wider.end());
  return facts;
}

std::vector<PhaseFact> gfx942_phases() {
  return word_phases(
      32,
      {
          {lds(8), contiguous_phases(16), "Triton PR #9662: 64-bit accesses on gfx942 in 4 phases of 16 lanes"},
          {sts(8), contiguous_phases(16), "Triton PR #9662: 64-bit accesses on gfx942 in 4 phases of 16 lanes"},
          // {0-3, 20-23}, {4-7, 16-19}, {8-11, 28-31}, {12-15, 24-27} and the same + 32.
          {lds(16), span_phases(8, {l0, l1, l2 ^ l4}), "Triton PR #11365: ds_read_b128 phases are cosets of span(l0, l1, l2^l4)"},
          {sts(16), contiguous_phases(8),
           "ROCm Composable Kernel docs (LDS bank conflicts): ds_write_b128 in 8 contiguous phases of 8 lanes"},
      });
}

// gfx950, instruction by instruction. Measured on a gfx950 (HipKittens' phase and bank tables,
// tests/data/amd/hipkittens/): ds_read_b64, ds_read_b128 and ds_write_b64, the last on 32 banks,
// not the 64 every read uses. The rest follow Triton's model (PR #9662's count on 64 banks), which
// no measurement has checked: reads and writes of 32 bits or less (1 phase of 64), ds_write_b128
// (4 runs of 16, contiguous like gfx942's writes) and ds_read_b64_tr_b16 (as ds_read_b64, PR #8525).
std::vector<PhaseFact> gfx950_phases() {
  return word_phases(
      64, {
              {lds(8), contiguous_phases(32),
               "Triton PR #9662 (2 phases of 32); HipKittens phases/ds_read_b64/phase_results.txt (lanes 0-31, 32-63, measured)"},
              // Measured: bank_results.txt wraps at bank 32 (lane 1 conflicts with lane 0 at byte 128) and
              // phase_results.txt serves lanes 0-15, 16-31, 32-47, 48-63 apart. Triton prices it on 64 banks.
              {sts(8), contiguous_phases(16),
               "HipKittens phases/ds_write_b64/bank_results.txt and phase_results.txt (measured): 32 banks, 4 phases of 16 lanes",
               /*banks=*/32},
              // {0-3, 12-15, 20-23, 24-27}, {4-11, 16-19, 28-31} and the same + 32.
              {lds(16), span_phases(16, {l0, l1, l2 ^ l3, l2 ^ l4}),
               "Triton PR #11365 and HipKittens phases/ds_read_b128/phase_results.txt (measured): cosets of span(l0, l1, l2^l3, "
               "l2^l4)"},
              // Assumed, not stated anywhere: the #9662 count in contiguous runs, as the 32-bank parts' writes
              // are contiguous where their reads are not (CK docs); no gfx950 ds_write_b128 table is published.
              {sts(16), contiguous_phases(16),
               "assumed: Triton PR #9662's 4 phases, contiguous like gfx942's ds_write_b128 (CK docs)"},
              // Read like ldmatrix (Triton PR #8525): each lane addresses 64 bits; served as a 64-bit read.
              {read_b64_tr_b16(), contiguous_phases(32), "Triton PR #8525 (addresses as ds_read_b64) and #9662 (2 phases of 32)"},
          });
}

struct NvidiaFeatures {
  bool stmatrix, tma, tcgen05;
};

// An NVIDIA row: 32 banks of 4 bytes, 32-lane warps, the H100's phases and paired-lane rule.
GpuModel nvidia_row(const char* name, std::vector<std::string> aliases, const char* products, GpuId id, int shared_kb,
                    NvidiaFeatures features, std::vector<std::string> sources) {
  GpuModel g;
  g.name = name;
  g.aliases = std::move(aliases);
  g.products = products;
  g.bank.gpu = id;
  g.shared_bytes = std::int64_t{shared_kb} * 1024;
  g.tma = features.tma;
  g.tcgen05 = features.tcgen05;
  g.paired_lane_loads = true;
  g.instructions = nvidia_instructions(features.stmatrix);
  g.sources = std::move(sources);
  return g;
}

std::vector<GpuModel> make_gpu_table() {
  std::vector<GpuModel> gpus;
  // NVIDIA. Banks: CUDA C++ Programming Guide, "Shared Memory" (compute capability 5.x and later:
  // 32 banks, successive 32-bit words in successive banks). Shared memory per SM: the same guide,
  // "Technical Specifications per Compute Capability". Instructions: PTX ISA (ldmatrix sm_75+,
  // cp.async sm_80+, stmatrix and cp.async.bulk.tensor sm_90+, tcgen05 sm_100a).
  gpus.push_back(
      nvidia_row("sm_90", {"h100", "h200", "hopper", "gh100", "sm90", "sm_90a"}, "H100, H200", GpuId::sm_90, 228,
                 {.stmatrix = true, .tma = true, .tcgen05 = false},
                 {"banks: CUDA C++ Programming Guide (Shared Memory); 228 KB per SM: its compute capability 9.0 table",
                  "phases and the paired-lane and cp.async rules: measured on the H100 and an H200 (tests/data/hardware/)",
                  "instructions: PTX ISA (stmatrix and cp.async.bulk.tensor need sm_90)"}));
  gpus.push_back(nvidia_row("sm_80", {"a100", "ampere", "ga100", "sm80"}, "A100", GpuId::sm_80, 164,
                            {.stmatrix = false, .tma = false, .tcgen05 = false},
                            {"banks: CUDA C++ Programming Guide (Shared Memory); 164 KB per SM: its compute capability 8.0 table",
                             "phases: assumed the H100's (not measured on an A100)",
                             "instructions: PTX ISA (ldmatrix sm_75, cp.async sm_80; no stmatrix or TMA before sm_90)"}));
  gpus.push_back(
      nvidia_row("sm_100", {"b200", "blackwell", "gb200", "sm100", "sm_100a"}, "B200", GpuId::sm_100, 228,
                 {.stmatrix = true, .tma = true, .tcgen05 = true},
                 {"banks: CUDA C++ Programming Guide (Shared Memory); 228 KB per SM: its compute capability 10.0 table",
                  "phases: assumed the H100's (not measured on a B200)", "instructions: PTX ISA (tcgen05 needs sm_100a)"}));

  // AMD. Banks, LDS size and wave64: IREE's KnownTargets.cpp (workgroupMemoryBankCount,
  // maxWorkgroupMemoryBytes), used by Triton since PR #6065. Instructions: the CDNA3 / CDNA4 ISA
  // reference guides (DS_READ_U8/U16/B32/B64/B128, DS_WRITE_B8/B16/B32/B64/B128; CDNA4 adds
  // DS_READ_B64_TR_B16, Triton PR #5750). No ldmatrix, stmatrix or cp.async.
  GpuModel gfx942;
  gfx942.name = "gfx942";
  gfx942.aliases = {"mi300x", "mi300a", "mi325x", "mi300", "cdna3"};
  gfx942.products = "MI300X, MI300A, MI325X";
  gfx942.vendor = Vendor::Amd;
  gfx942.bank = BankModel{/*banks=*/32, /*bank_bytes=*/4, /*warp_size=*/64, GpuId::gfx942};
  gfx942.shared_bytes = 64 * 1024;
  gfx942.instructions = amd_instructions(/*transposing_read=*/false);
  gfx942.phases = gfx942_phases();
  gfx942.sources = {"32 banks of 4 bytes, 64 KB LDS, 64-lane wavefronts: IREE KnownTargets.cpp",
                    "phases: Triton PRs #9662 and #11365; ds_write_b128: ROCm Composable Kernel docs",
                    "instructions: AMD CDNA3 ISA reference guide (DS instructions)"};
  gpus.push_back(gfx942);

  GpuModel gfx950 = gfx942;
  gfx950.name = "gfx950";
  gfx950.aliases = {"mi350x", "mi355x", "mi350", "mi355", "cdna4"};
  gfx950.products = "MI350X, MI355X";
  gfx950.bank = BankModel{/*banks=*/64, /*bank_bytes=*/4, /*warp_size=*/64, GpuId::gfx950};
  gfx950.shared_bytes = 160 * 1024;
  gfx950.instructions = amd_instructions(/*transposing_read=*/true);
  gfx950.phases = gfx950_phases();
  gfx950.sources = {
      "64 banks of 4 bytes, 160 KB LDS, 64-lane wavefronts: IREE KnownTargets.cpp; Triton PR #6065",
      "phases: Triton PRs #9662 and #11365; HipKittens measured tables (ds_read_b64, ds_read_b128, ds_write_b64 on 32 banks)",
      "ds_write_b128 phases: assumed (see the table); ds_read_b64_tr_b16: Triton PRs #5750, #8525",
      "instructions: AMD CDNA4 ISA reference guide (DS instructions)"};
  gpus.push_back(gfx950);
  return gpus;
}

std::string lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string amd_name(const InstructionKind& k) {
  if (k.op == WarpOp::Load && k.trans) return fmt::format("DS_READ_B{}_TR_B16", k.bytes * 8);
  if (k.op == WarpOp::Load) return fmt::format("DS_READ_{}{}", k.bytes < 4 ? "U" : "B", k.bytes * 8);
  if (k.op == WarpOp::Store) return fmt::format("DS_WRITE_B{}", k.bytes * 8);
  return k.name();  // not an AMD instruction: the NVIDIA name, for messages that say so
}

}  // namespace

// [SECTION] Look-ups

const std::vector<GpuModel>& all_gpus() {
  static const std::vector<GpuModel> table = make_gpu_table();
  return table;
}

const GpuModel& gpu_named(std::string_view name) {
  const std::string wanted = lowercase(name);
  std::vector<std::string_view> names;
  for (const GpuModel& g : all_gpus()) {
    if (g.name == wanted) return g;
    for (const std::string& alias : g.aliases)
      if (alias == wanted) return g;
    names.push_back(g.name);
    for (const std::string& alias : g.aliases) names.push_back(alias);
  }
  std::string known;
  for (const GpuModel& g : all_gpus()) known += (known.empty() ? "" : ", ") + g.title();
  const std::string_view nearest = closest_name(wanted, names, std::max<std::size_t>(wanted.size(), 3));
  fail("unknown GPU \"{}\"{}; known: {}", name, nearest.empty() ? "" : fmt::format(" (nearest: {})", nearest), known);
}

const GpuModel& gpu_of(const BankModel& model) {
  for (const GpuModel& g : all_gpus())
    if (g.bank.gpu == model.gpu) return g;
  fail("bank model names GPU {} that the table does not have", static_cast<int>(model.gpu));
}

bool GpuModel::has(const InstructionKind& kind) const {
  InstructionKind k = kind;
  if (k.op == WarpOp::AsyncCopy) k.src_size = true;  // the src-size operand is optional: a GPU with the copy has both forms
  return std::find(instructions.begin(), instructions.end(), k) != instructions.end();
}

std::string GpuModel::instruction_name(const InstructionKind& kind) const {
  return vendor == Vendor::Amd ? amd_name(kind) : kind.name();
}

InstructionKind GpuModel::instruction_named(const std::string& wanted) const {
  std::vector<std::string> names;
  for (const InstructionKind& k : instructions) {
    if (instruction_name(k) == wanted) return k;
    names.push_back(instruction_name(k));
  }
  fail("\"{}\" is not an instruction of {}; known: {}", wanted, title(), fmt::join(names, ", "));
}

std::string GpuModel::title() const { return fmt::format("{} ({})", name, products); }

InstructionBanks instruction_banks(const InstructionKind& kind, const BankModel& model) {
  const GpuModel& gpu = gpu_of(model);
  if (model.banks == gpu.bank.banks && model.warp_size == gpu.bank.warp_size)
    for (const PhaseFact& fact : gpu.phases)
      if (fact.kind == kind) {
        BankModel bank = model;
        if (fact.banks) bank.banks = fact.banks;
        return {bank, fact.phases, fact.source};
      }
  return {model, contiguous_phases(phase_lanes(kind, model)), ""};
}

LanePhases phases_of(const InstructionKind& kind, const BankModel& model) { return instruction_banks(kind, model).phases; }

void check_instruction(const InstructionKind& kind, const BankModel& model) {
  const GpuModel& gpu = gpu_of(model);
  if (gpu.has(kind)) return;
  std::vector<std::string> owners;
  std::string name = gpu.instruction_name(kind);  // named as a GPU that has it names it
  for (const GpuModel& g : all_gpus())
    if (g.has(kind)) {
      if (owners.empty()) name = g.instruction_name(kind);
      owners.push_back(g.name);
    }
  fail("{} does not exist on {}{}", name, gpu.title(),
       owners.empty() ? std::string() : fmt::format(" (only on {})", fmt::join(owners, ", ")));
}

std::string instruction_name(const InstructionKind& kind, const BankModel& model) { return gpu_of(model).instruction_name(kind); }

}  // namespace swz
