// spec_fields.h: what the two halves of the problem spec (problem_spec.cpp: building and the
// command line; problem_spec_json.cpp: the JSON form) share. Internal to the core.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "swz/problem/problem_spec.h"

namespace swz::spec_detail {

// Every field of a spec against its range: the first refused one, as (key, why).
std::optional<std::pair<const char*, std::string>> refused_field(const ProblemSpec& spec);
// Throws swz::Error "key (--flag): what".
[[noreturn]] void refuse_field(const char* key, const std::string& what);
// --gpu on a built problem (problem_gpu.cpp): the GPU's bank model; a preset of fewer lanes than
// its wavefront redrawn as a transpose of its tile by full wavefronts; a side issuing an
// instruction the GPU lacks refused.
void use_gpu(Problem& problem, const ProblemSpec& spec);
// A spec file's text, read from `path` (which names it in messages).
ProblemSpec parse_spec_text(const std::string& text, const std::string& path);

}  // namespace swz::spec_detail
