// unknown_flags.h: "did you mean ...?" for a flag the command does not have.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace swz::cli {

// For the command line `argv` of `app`: each word that looks like a long flag (--name or
// --name=value) and that no option of the subcommand it follows (or of the commands above it)
// has, beside the visible flags it most likely meant: one within a few edits (--buts: --bits),
// or one its last words name (--element-bits: --bits; --vec-bits on analyze: --write-vec-bits,
// --read-vec-bits). "--element-bits: did you mean --bits?"; "" when nothing is near.
std::string flag_suggestions(const CLI::App& app, int argc, char** argv);

}  // namespace swz::cli
