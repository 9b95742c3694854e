// Measured-corpus files (swizzle replay): every line parsed strictly, then served.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "swz/sim/corpus.h"
#include "swz/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 1 << 16) return 0;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const std::vector<swz::CorpusCase> cases = swz::read_corpus(in, "fuzz.jsonl");
    swz::ReplayReport report;
    swz::replay_into(report, cases, swz::BankModel{});
    if (report.all.cases != static_cast<int>(cases.size())) __builtin_trap();
    (void)swz::to_text(report);
    (void)swz::to_json(report).dump();
  } catch (const swz::Error&) {
  }
  return 0;
}
