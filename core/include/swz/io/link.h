// link.h: a workbench state as a link, and back.
//
// A link carries what someone wants another person to see: the problem, its
// masks, a lesson and step, a quiz set. The state sits in the URL fragment (the
// part after '#'), so the same text works as a relative link ("#v=1&..."), after
// a web page's address ("https://host/workbench/#v=1&..."), and on the desktop
// (`swizzle-workbench '#v=1&...'`); whatever comes before the first '#' is ignored.
//
// Format, version 1: '&'-separated key=value parts, in any order, each at most once.
//
//   v=1                        the format version (required)
//   preset=transpose16x32      the problem: a preset ...
//   layout=swizzled            ...   and one of its named layouts (optional)
//   problem=eyJwcmVzZXQiOi...  ... or any problem: its JSON form (problem_spec.h) with the
//                              keys at their default left out, in base64url without padding
//   masks=2,4,8,16             toggle-grid masks, row bit 0 first (with preset or problem)
//   lesson=toy-gpu             a lesson (a name in the lessons folder) ...
//   step=3                     ... at this step, from 1 (default 1)
//   quiz=first-class           a quiz set (a name in the quizzes folder)
//
//   #v=1&preset=transpose16x32&masks=2,4,8,16
//   #v=1&lesson=swizzle-by-hand&step=4
//
// Without preset or problem a link leaves the problem alone (a lesson's step brings its own).
// Names are plain (letters, digits, '-', '_'), never paths: a link cannot make the workbench
// read a file of the sender's choosing. Values may be percent-encoded; the encoder never
// needs to (every character it writes is allowed in a fragment).
//
// parse_link checks everything the core can (the problem is built once) and throws
// swz::Error with one line naming the part: "link: masks: mask list '2,x': 'x' is not ...".
// Whether the lesson and the quiz set exist is for the front end that opens them to say.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "swz/problem/problem_spec.h"

namespace swz {

inline constexpr int kLinkVersion = 1;

struct WorkbenchLink {
  std::optional<ProblemSpec> problem;  // none: the link keeps the problem on show
  std::string lesson;                  // "" = none
  int step = 1;                        // 1-based step of `lesson`
  std::string quiz_set;                // "" = none
  bool operator==(const WorkbenchLink&) const = default;
};

// The fragment without its '#': "v=1&preset=...".
std::string link_fragment(const WorkbenchLink& link);
// `base` + "#" + the fragment. The default base gives a relative link; a web page passes its address.
std::string make_link(const WorkbenchLink& link, std::string_view base = "");
// Reads a link (a whole URL or just "#..."); throws swz::Error naming the wrong part.
WorkbenchLink parse_link(std::string_view url);

// base64url without padding (RFC 4648 section 5), as the problem part uses.
std::string base64url_encode(std::string_view bytes);
// Throws swz::Error naming the first character that is not base64url.
std::string base64url_decode(std::string_view text);

}  // namespace swz
