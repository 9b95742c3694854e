#include "unknown_flags.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "swz/io/nearest_name.h"

namespace swz::cli {
namespace {

// The long names of `app`'s options ("--bits"); with `visible_only`, those --help lists.
std::vector<std::string> long_flags(const CLI::App& app, bool visible_only) {
  std::vector<std::string> out;
  for (const CLI::Option* option : app.get_options()) {
    if (visible_only && option->get_group().empty()) continue;
    for (const std::string& name : option->get_lnames()) out.push_back("--" + name);
  }
  return out;
}

bool ends_with_words(std::string_view text, std::string_view tail) {
  return text.size() > tail.size() && text.substr(text.size() - tail.size()) == tail &&
         text[text.size() - tail.size() - 1] == '-';
}

// The flags `unknown` most likely meant among `known`: the closest within a few edits, else those
// whose last words it is or that are its last words.
std::vector<std::string> meant(const std::string& unknown, const std::vector<std::string>& known) {
  const std::string_view bare = std::string_view(unknown).substr(2);
  std::vector<std::string_view> names;
  for (const std::string& k : known) names.push_back(std::string_view(k).substr(2));
  const std::size_t limit = bare.size() <= 4 ? 1 : bare.size() <= 9 ? 2 : 3;
  if (const std::string_view near = closest_name(bare, names, limit); !near.empty()) return {"--" + std::string(near)};
  // A longer flag ending in the unknown one's words (--vec-bits: --write-vec-bits) before a shorter one
  // its words end in (--element-bits: --bits).
  for (const bool longer : {true, false}) {
    std::vector<std::string> out;
    for (std::string_view k : names)
      if (longer ? ends_with_words(k, bare) : ends_with_words(bare, k)) out.push_back("--" + std::string(k));
    if (!out.empty()) return out;
  }
  return {};
}

}  // namespace

std::string flag_suggestions(const CLI::App& app, int argc, char** argv) {
  const CLI::App* command = &app;
  std::vector<std::string> known = long_flags(app, /*visible_only=*/false);
  std::vector<std::string> lines;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--") break;
    if (word.rfind("--", 0) != 0) {
      // A subcommand's name moves on to its flags (`quiz show --count`); any other word is a value.
      const auto subs = command->get_subcommands([&](const CLI::App* sub) { return sub->get_name() == word; });
      if (!subs.empty()) {
        command = subs.front();
        const std::vector<std::string> more = long_flags(*command, /*visible_only=*/false);
        known.insert(known.end(), more.begin(), more.end());
      }
      continue;
    }
    const std::string flag = word.substr(0, word.find('='));
    if (std::find(known.begin(), known.end(), flag) != known.end()) continue;
    const std::vector<std::string> guesses = meant(flag, long_flags(*command, /*visible_only=*/true));
    if (!guesses.empty()) lines.push_back(fmt::format("{}: did you mean {}?", flag, fmt::join(guesses, " or ")));
  }
  return fmt::format("{}", fmt::join(lines, "; "));
}

}  // namespace swz::cli
