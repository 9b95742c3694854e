// swizzle replay: replay measured corpus files through the bank model.
//
// A file is an NVIDIA corpus (corpus.h: from calibrate) or an AMD one (amd_corpus.h: rocprofv3
// counters, its lines say "format": "amd-lds"); its first line decides, and each kind replays on
// its own GPUs. Exit status: 0 every case agrees, 1 some disagree, 2 a file cannot be read or a
// line is malformed (file:line: what is wrong; nothing is replayed then).
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "command.h"
#include "swz/error.h"
#include "swz/sim/amd_corpus.h"
#include "swz/sim/corpus.h"

namespace swz::cli {
namespace {

struct Options {
  std::vector<std::string> files;
  bool json = false;
  int keep = 20;
};

// The first non-blank line of a file says which corpus it is (an unreadable file: NVIDIA, whose
// reader then names the problem).
bool amd_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) return is_amd_corpus_line(line);
  return false;
}

Register reg{{"replay", "Replay measured corpus files (NVIDIA from calibrate, AMD from rocprofv3) through the bank model", 75,
              [](CLI::App& sub) {
                auto o = std::make_shared<Options>();
                sub.add_option("files", o->files, "Corpus files (one JSON object per line)")->required();
                sub.add_flag("--json", o->json, "One JSON object on stdout");
                sub.add_option("--show", o->keep, "How many disagreements to spell out")->check(CLI::Range(0, 100000));
                sub.footer("Exit status: 0 every case agrees, 1 some disagree, 2 a file or line cannot be read.");
                sub.callback([o] {
                  // Every file is read before any case is replayed, so a bad line stops the whole run.
                  std::vector<std::pair<std::string, std::vector<CorpusCase>>> nvidia;
                  std::vector<std::pair<std::string, std::vector<AmdCorpusCase>>> amd;
                  for (const std::string& f : o->files) {
                    if (amd_file(f))
                      amd.emplace_back(f, read_amd_corpus_file(f));
                    else
                      nvidia.emplace_back(f, read_corpus_file(f));
                  }
                  ReplayReport report;
                  for (const auto& [file, cases] : nvidia)
                    replay_into(report, cases, BankModel{}, file, static_cast<std::size_t>(o->keep));
                  AmdReplayReport amd_report;
                  for (const auto& [file, cases] : amd)
                    replay_amd_into(amd_report, cases, file, static_cast<std::size_t>(o->keep));
                  if (o->json) {
                    nlohmann::json j = nvidia.empty() ? nlohmann::json::object() : to_json(report);
                    if (!amd.empty()) j["amd"] = to_json(amd_report);
                    print_json(j);
                  } else {
                    if (!nvidia.empty()) std::fputs(to_text(report).c_str(), stdout);
                    if (!amd.empty()) std::fputs(to_text(amd_report).c_str(), stdout);
                  }
                  std::fflush(stdout);
                  if (report.all.disagree() > 0 || amd_report.all.disagree() > 0) std::exit(1);
                });
              }}};

}  // namespace
}  // namespace swz::cli
