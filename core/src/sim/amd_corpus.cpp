#include "swz/sim/amd_corpus.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <istream>

#include "swz/error.h"
#include "swz/io/limits.h"
#include "swz/sim/gpu.h"

namespace swz {

// [SECTION] lines

namespace {
std::string ascii_lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}
}  // namespace

std::string amd_spelling(const GpuModel& gpu, const InstructionKind& kind) { return ascii_lower(gpu.instruction_name(kind)); }

std::optional<InstructionKind> amd_spelled(const GpuModel& gpu, const std::vector<InstructionKind>& among,
                                           const std::string& name) {
  const std::string wanted = ascii_lower(name);
  for (const InstructionKind& kind : among)
    if (amd_spelling(gpu, kind) == wanted) return kind;
  return std::nullopt;
}

std::string amd_spellings(const GpuModel& gpu, const std::vector<InstructionKind>& kinds) {
  std::string out;
  for (const InstructionKind& kind : kinds) out += (out.empty() ? "" : ", ") + amd_spelling(gpu, kind);
  return out;
}

namespace {

const std::vector<std::string> kAmdRequiredKeys = {"format",
                                                   "gpu",
                                                   "device",
                                                   "date",
                                                   "case",
                                                   "instruction",
                                                   "repeat",
                                                   "waves",
                                                   "addresses"};
// The counters: absent from both on a line still to measure (amd_designed_cases, amd_random_cases).
const std::vector<std::string> kAmdOptionalKeys = {"SQ_INSTS_LDS", "SQ_LDS_BANK_CONFLICT", "example", "note",
                                                   "cycles_per_extra_pass"};

// The instruction the GPU's table names `name` (any case): ds_read_b128 on AMD.
InstructionKind amd_instruction_named(const GpuModel& gpu, const std::string& name) {
  if (const auto kind = amd_spelled(gpu, gpu.instructions, name)) return *kind;
  fail("\"{}\" is not an LDS instruction of {} (it has {})", name, gpu.name, amd_spellings(gpu, gpu.instructions));
}

AmdCorpusCase parse_amd_line(const std::string& text) {
  const nlohmann::json j = corpus_object(text, kAmdRequiredKeys, kAmdOptionalKeys);
  auto text_of = [&](const char* key) { return corpus_string(j, key); };
  auto integer = [&](const char* key, std::int64_t lo, std::int64_t hi) { return corpus_integer(j, key, lo, hi); };
  if (text_of("format") != "amd-lds") fail("\"format\" must be \"amd-lds\"");
  AmdCorpusCase c;
  c.gpu = text_of("gpu");
  const GpuModel& gpu = gpu_named(c.gpu);
  if (gpu.vendor != Vendor::Amd) fail("\"gpu\" is {}, not an AMD GPU: an AMD corpus replays on gfx942 or gfx950", gpu.title());
  c.device = text_of("device");
  c.date = text_of("date");
  c.index = static_cast<int>(integer("case", 0, 1 << 30));
  c.instruction = text_of("instruction");
  c.request.kind = amd_instruction_named(gpu, c.instruction);
  c.repeat = integer("repeat", 1, 1 << 20);
  c.waves = integer("waves", 1, std::int64_t{1} << 30);
  if (!j.contains("SQ_INSTS_LDS") && !j.contains("SQ_LDS_BANK_CONFLICT"))
    fail("case {} is not measured yet (no SQ_INSTS_LDS, no SQ_LDS_BANK_CONFLICT): run it with tests/gpu/amd/lds_probe.hip "
         "and add the counters with tests/gpu/amd/to_amd_corpus.py fill (README, \"AMD: a measured corpus of your own\")",
         c.index);
  for (const char* counter : {"SQ_INSTS_LDS", "SQ_LDS_BANK_CONFLICT"})
    if (!j.contains(counter)) fail("missing key \"{}\"", counter);
  c.lds_instructions = integer("SQ_INSTS_LDS", 0, std::int64_t{1} << 50);
  c.conflict_cycles = integer("SQ_LDS_BANK_CONFLICT", 0, std::int64_t{1} << 50);
  if (j.contains("cycles_per_extra_pass")) c.cycles_per_extra_pass = integer("cycles_per_extra_pass", 1, 1 << 20);
  if (j.contains("example")) {
    if (!j["example"].is_boolean()) fail("\"example\" must be true or false");
    c.example = j["example"].get<bool>();
  }
  if (j.contains("note")) c.note = text_of("note");
  if (!j["addresses"].is_array() || j["addresses"].size() != static_cast<std::size_t>(gpu.bank.warp_size))
    fail("\"addresses\" must be a list of {} integers, one per lane of a {} wavefront", gpu.bank.warp_size, gpu.name);
  for (const auto& a : j["addresses"]) {
    if (!a.is_number_integer()) fail("\"addresses\" must hold integers (-1 for an inactive lane)");
    c.request.address.push_back(a.get<std::int64_t>());
  }
  check_request(c.request, gpu.bank, gpu.shared_bytes);
  return c;
}

}  // namespace

bool is_amd_corpus_line(const std::string& line) {
  try {
    const auto j = nlohmann::json::parse(line, nesting_bound("the line"));
    return j.is_object() && j.contains("format") && j["format"] == "amd-lds";
  } catch (const nlohmann::json::exception&) {
    return false;
  } catch (const Error&) {
    return false;
  }
}

std::vector<AmdCorpusCase> read_amd_corpus(std::istream& in, const std::string& name) {
  std::vector<AmdCorpusCase> cases;
  for_each_corpus_line(in, name, [&](const std::string& line, int number) {
    cases.push_back(parse_amd_line(line));
    cases.back().line = number;
  });
  return cases;
}

std::vector<AmdCorpusCase> read_amd_corpus_file(const std::string& path) {
  std::ifstream in = open_corpus_file(path);
  return read_amd_corpus(in, path);
}

// [SECTION] replay

void replay_amd_into(AmdReplayReport& report, const std::vector<AmdCorpusCase>& cases, const std::string& file,
                     std::size_t keep) {
  for (const AmdCorpusCase& c : cases) {
    const GpuModel& gpu = gpu_named(c.gpu);
    const Service s = serve(c.request, gpu.bank);
    const std::int64_t instructions = c.repeat * c.waves;
    const std::int64_t extra = static_cast<std::int64_t>(s.wavefronts - s.ideal);
    std::string why;
    if (c.lds_instructions != instructions)
      why = fmt::format("SQ_INSTS_LDS is {}, the line's repeat x waves is {}", c.lds_instructions, instructions);
    else if (c.cycles_per_extra_pass && c.conflict_cycles != extra * instructions * *c.cycles_per_extra_pass)
      why =
          fmt::format("{} extra passes x {} instructions x {} cycles is {} conflict cycles, SQ_LDS_BANK_CONFLICT is {}", extra,
                      instructions, *c.cycles_per_extra_pass, extra * instructions * *c.cycles_per_extra_pass, c.conflict_cycles);
    else if (!c.cycles_per_extra_pass && (c.conflict_cycles > 0) != (extra > 0))
      why = extra > 0 ? fmt::format("the model predicts {} extra passes, SQ_LDS_BANK_CONFLICT is 0", extra)
                      : fmt::format("the model predicts no conflict, SQ_LDS_BANK_CONFLICT is {}", c.conflict_cycles);
    const std::string name = gpu.instruction_name(c.request.kind);
    for (ReplayTally* t : {&report.all, &report.by_gpu[gpu.name][name]}) {
      ++t->cases;
      t->agree += why.empty() ? 1 : 0;
    }
    report.examples += c.example ? 1 : 0;
    if (!why.empty() && report.disagree.size() < keep) report.disagree.push_back({file, c, s.wavefronts, s.ideal, why});
  }
}

nlohmann::json to_json(const AmdReplayReport& r) {
  nlohmann::ordered_json j;
  j["cases"] = r.all.cases;
  j["agree"] = r.all.agree;
  j["format_examples"] = r.examples;
  nlohmann::ordered_json gpus = nlohmann::ordered_json::object();
  for (const auto& [gpu, m] : r.by_gpu)
    for (const auto& [name, t] : m) gpus[gpu][name] = {{"cases", t.cases}, {"agree", t.agree}};
  j["gpus"] = gpus;
  nlohmann::ordered_json dis = nlohmann::ordered_json::array();
  for (const auto& m : r.disagree)
    dis.push_back({{"file", m.file},
                   {"line", m.measured.line},
                   {"gpu", m.measured.gpu},
                   {"case", m.measured.index},
                   {"instruction", m.measured.instruction},
                   {"addresses", m.measured.request.address},
                   {"wavefronts", m.wavefronts},
                   {"ideal", m.ideal},
                   {"SQ_INSTS_LDS", m.measured.lds_instructions},
                   {"SQ_LDS_BANK_CONFLICT", m.measured.conflict_cycles},
                   {"why", m.why}});
  j["disagree"] = dis;
  return j;
}

std::string to_text(const AmdReplayReport& r) {
  std::string out;
  for (const auto& [gpu, m] : r.by_gpu) out += tally_table(gpu, m);
  out += fmt::format("amd: {} cases, {} agree, {} disagree", r.all.cases, r.all.agree, r.all.disagree());
  if (r.examples > 0) out += fmt::format("; {} of them format examples, not measurements", r.examples);
  out += "\n";
  for (const auto& m : r.disagree) {
    const std::string where = m.file.empty() ? "" : fmt::format("{}:{}: ", m.file, m.measured.line);
    out += fmt::format("  {}case {} ({}, {}): {} wavefronts, {} ideal; {}\n", where, m.measured.index, m.measured.gpu,
                       m.measured.instruction, m.wavefronts, m.ideal, m.why);
  }
  return out;
}

}  // namespace swz
