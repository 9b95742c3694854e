// swizzle replay: replay measured corpus files through the bank model.
//
// Exit status: 0 every case agrees, 1 some disagree, 2 a file cannot be read or
// a line is malformed (file:line: what is wrong; nothing is replayed then).
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

#include "command.h"
#include "swz/sim/corpus.h"
#include "swz/error.h"

namespace swz::cli {
namespace {

struct Options {
  std::vector<std::string> files;
  bool json = false;
  int keep = 20;
};

Register reg{{"replay", "Replay measured corpus files (from calibrate) through the bank model", 75, [](CLI::App& sub) {
  auto o = std::make_shared<Options>();
  sub.add_option("files", o->files, "Corpus files (one JSON object per line)")->required();
  sub.add_flag("--json", o->json, "One JSON object on stdout");
  sub.add_option("--show", o->keep, "How many disagreements to spell out")->check(CLI::Range(0, 100000));
  sub.footer("Exit status: 0 every case agrees, 1 some disagree, 2 a file or line cannot be read.");
  sub.callback([o] {
    // Every file is read before any case is replayed, so a bad line stops the whole run.
    std::vector<std::vector<CorpusCase>> all;
    for (const std::string& f : o->files) all.push_back(read_corpus_file(f));
    ReplayReport report;
    for (std::size_t i = 0; i < all.size(); ++i) replay_into(report, all[i], BankModel{}, o->files[i], static_cast<std::size_t>(o->keep));
    if (o->json)
      print_json(to_json(report));
    else
      std::fputs(to_text(report).c_str(), stdout);
    std::fflush(stdout);
    if (report.all.disagree() > 0) std::exit(1);
  });
}}};

}  // namespace
}  // namespace swz::cli
