// The Kernel audit window on real TTGIR: the kernel's own problem loaded on opening, each
// suggestion in a row of its own, the CLI's instruction names, no clipped column at UI scales
// 1.0 and 1.6, and Apply fix writing the patched module where the user chose.
#include <GLFW/glfw3.h>
#include <fmt/format.h>

#include <fstream>
#include <set>
#include <sstream>

#include "gui_fixture.h"
#include "swz/io/layout_io.h"
#include "swz/kernel/audit.h"

#ifndef SWZ_GUI_SCALES_DIR
#define SWZ_GUI_SCALES_DIR "scales"
#endif

namespace swz::gui::test {

namespace {

const std::string kTtgir = std::string(SWZ_TEST_DATA_DIR) + "/ttgir/";

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class KernelViewTest : public GuiTest {
 protected:
  // A copy of a test module in a private folder, so that a fix written beside it stays there.
  std::filesystem::path copy_of(const std::string& name) {
    const auto dir = temp_dir("kernel");
    const auto to = dir / std::filesystem::path(name).filename();
    std::filesystem::copy_file(kTtgir + name, to);
    return to;
  }
};

TEST_F(KernelViewTest, OpeningAKernelLoadsItsOwnProblem) {
  Workbench& b = open();  // the default preset first
  ASSERT_FALSE(b.session().problem.preset.empty());
  ASSERT_TRUE(b.open_kernel(copy_of("transpose_conflict.ttgir"))) << b.error();
  frames(3);
  const ProblemSpec& p = b.session().problem;
  EXPECT_EQ(p.preset, "");  // not the previous preset
  EXPECT_EQ(p.shape, (std::vector<std::int64_t>{32, 32}));
  EXPECT_EQ(p.element_bits, 32);
  ASSERT_TRUE(p.reader.has_value());
  EXPECT_EQ(p.reader->origin, "transpose_conflict.ttgir:9 reader");  // the conflicted load, line 9
  EXPECT_EQ(p.read_vec_bits, 32);                                    // LDS.32, as the CLI says
  EXPECT_EQ(b.kernel_audit().selected, 1);
  EXPECT_TRUE(b.panel_visible("kernel"));
  EXPECT_FALSE(b.file_dialog().open_requested);  // a kernel is shown: no Open dialog over it
}

// The Problem panel's line for one side: the instruction, its count, the mean wavefronts, the
// worst instruction's ideal and count, as the panel's probe carries it ("" when not drawn).
std::string problem_line(const Workbench& b, const std::string& side) {
  const std::string prefix = "problem.issues." + side + "=";
  for (const std::string& id : b.probe_ids())
    if (id.rfind(prefix, 0) == 0) return id.substr(prefix.size());
  return "";
}

// Every row of a module with ldmatrix / stmatrix and of one with Triton's renumbered STS.128,
// loaded: the bench simulates the instruction the row names, and the Problem panel shows it with
// the row's instructions and wavefronts (for a convert_layout, both of its rows at once).
TEST_F(KernelViewTest, EachRowLoadsTheInstructionItNames) {
  Workbench& b = open();
  b.apply(cmd::show_panel("problem", true));
  std::set<std::string> kinds;
  for (const char* name : {"triton36/attention_m128.ttgir", "triton36/dot_16x16_fp16.ttgir"}) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(b.open_kernel(copy_of(name))) << b.error();
    const AuditReport& r = b.kernel_audit().modules.at(0);
    int rows = 0;
    for (int i = 0; i < static_cast<int>(r.accesses.size()); ++i) {
      const AuditAccess& a = r.accesses[static_cast<std::size_t>(i)];
      if (!a.writer || !a.reader || !a.shared_offsets || !a.direction) continue;
      SCOPED_TRACE(fmt::format("line {} {} {}", a.line, *a.direction, a.instruction));
      ASSERT_TRUE(b.load_kernel_access(i)) << b.error();
      frames(2);
      ++rows;
      kinds.insert(a.instruction.substr(0, 4));
      // This row's side, and on a convert_layout's line the other row's side too.
      for (const AuditAccess& row : r.accesses) {
        if (row.line != a.line || !row.direction || !row.wavefronts) continue;
        const bool store = *row.direction == "store";
        const AccessAnalysis& side = store ? b.model().analysis.store : b.model().analysis.read;
        EXPECT_EQ(side.instruction, row.instruction);
        EXPECT_EQ(side.simulated.instructions(), row.instructions);
        EXPECT_NEAR(side.simulated.mean_wavefronts, *row.wavefronts, 1e-9);
        EXPECT_EQ(side.simulated.ideal_wavefronts, row.ideal_wavefronts);
        EXPECT_EQ(side.simulated.wavefronts, row.worst_wavefronts);
        const std::string shown = fmt::format("{}: {} x{}, {:.2f} wavefronts", store ? "Store" : "Read", row.instruction,
                                              row.instructions, *row.wavefronts);
        EXPECT_EQ(problem_line(b, store ? "store" : "read").rfind(shown, 0), 0u) << problem_line(b, store ? "store" : "read");
      }
    }
    EXPECT_GE(rows, 2);  // attention_m128: its convert_layout's two; dot_16x16_fp16: five
  }
  EXPECT_TRUE(kinds.count("LDSM") && kinds.count("STS.")) << fmt::format("{}", fmt::join(kinds, " "));
}

// The Arguments field, typed and entered as a user does: the kernel audited again with those values
// of its integer arguments, each row as `swizzle audit --arg` gives it; bad text or a name the
// kernel lacks is shown and the last audit kept.
TEST_F(KernelViewTest, ArgumentsAuditTheKernelAgainAsTheCliDoes) {
  Workbench& b = open();
  const std::string edge = std::string(SWZ_TEST_DATA_DIR) + "/triton/copies/h200-20261129-edge-masks/fp16_128x128x64_w4s3.ttgir";
  const auto path = temp_dir("kernel-arguments") / "edge.ttgir";
  std::filesystem::copy_file(edge, path);
  ASSERT_TRUE(b.open_kernel(path)) << b.error();
  frames(2);
  auto type_and_enter = [&](const std::string& text) {
    click("kernel.arguments");
    key(GLFW_KEY_A, /*ctrl=*/true);  // over what the field holds
    InjectedInput typing;
    typing.mouse_pos = ImVec2(-1000, -1000);
    typing.text = text;
    frame(&typing);
    key(GLFW_KEY_ENTER);
    frames(1);
  };
  auto line_86 = [&]() -> const AuditAccess& {
    for (const AuditAccess& a : b.kernel_audit().modules.at(0).accesses)
      if (a.line == 86 && a.op == "ttg.async_copy_global_to_local") return a;
    static const AuditAccess none;
    ADD_FAILURE() << "no copy on line 86";
    return none;
  };
  EXPECT_TRUE(line_86().note.find("its mask %acc_53 not evaluated: it reads %N, not given") != std::string::npos)
      << line_86().note;

  type_and_enter("M=128 N=96, K=256 sa=256 sb=128");
  EXPECT_EQ(b.kernel_audit().arguments, "M=128 N=96, K=256 sa=256 sb=128");
  EXPECT_TRUE(b.kernel_audit().error.empty()) << b.kernel_audit().error;
  const AuditReport cli =
      audit_module(slurp(edge), path.string(), "", {{"M", 128}, {"N", 96}, {"K", 256}, {"sa", 256}, {"sb", 128}});
  ASSERT_EQ(b.kernel_audit().modules.at(0).accesses.size(), cli.accesses.size());
  for (std::size_t i = 0; i < cli.accesses.size(); ++i) {
    EXPECT_EQ(b.kernel_audit().modules.at(0).accesses[i].note, cli.accesses[i].note) << i;
    EXPECT_EQ(b.kernel_audit().modules.at(0).accesses[i].issued_wavefronts, cli.accesses[i].issued_wavefronts) << i;
  }
  ASSERT_TRUE(line_86().issued_wavefronts);
  EXPECT_EQ(*line_86().issued_wavefronts, 8.0);  // B's copy with 8 of 32 lanes past N: the H200's count
  frames(2);
  screenshot_if_asked("SWZ_GUI_KERNEL_ARGUMENTS_PNG");

  // Bad text and an unknown name: shown, the last audit kept.
  type_and_enter("N");
  EXPECT_NE(b.kernel_audit().error.find("Arguments: 'N': expected NAME=VALUE with an integer VALUE"), std::string::npos)
      << b.kernel_audit().error;
  EXPECT_EQ(b.kernel_audit().arguments, "M=128 N=96, K=256 sa=256 sb=128");
  EXPECT_EQ(*line_86().issued_wavefronts, 8.0);
  type_and_enter("Q=1");
  EXPECT_NE(b.kernel_audit().error.find("the kernel has no integer argument or program id %Q"), std::string::npos)
      << b.kernel_audit().error;
  EXPECT_EQ(*line_86().issued_wavefronts, 8.0);
  // Another kernel starts with no arguments.
  ASSERT_TRUE(b.open_kernel(copy_of("transpose_conflict.ttgir"))) << b.error();
  EXPECT_EQ(b.kernel_audit().arguments, "");
}

// SASS... asks for the kernel's listing; with it the kernel is audited as `swizzle audit --sass` audits
// it (int8 128x128x64, H200: its first stage's LDGSTS read P0 and count their ideal, 4, where rule 5
// says 8), the x drops it, and a file that is not this kernel's SASS is shown and keeps the last audit.
TEST_F(KernelViewTest, SassAuditsTheKernelAsTheCliDoes) {
  Workbench& b = open();
  const std::string kept = std::string(SWZ_TEST_DATA_DIR) + "/triton/copies/h200-20261128/matmul_int8_128x128x64_w4s3";
  const auto dir = temp_dir("kernel-sass");
  std::filesystem::copy_file(kept + ".ttgir", dir / "int8.ttgir");
  std::filesystem::copy_file(kept + ".sass", dir / "int8.sass");
  ASSERT_TRUE(b.open_kernel(dir / "int8.ttgir")) << b.error();
  ASSERT_TRUE(b.set_kernel_arguments("K=256"));
  frames(2);
  click("kernel.sass");
  EXPECT_EQ(b.file_dialog().title, "Open the kernel's SASS (cuobjdump -sass, Triton's asm[\"sass\"])");
  key(GLFW_KEY_ESCAPE);
  auto line_61 = [&]() -> const AuditAccess& {
    for (const AuditAccess& a : b.kernel_audit().modules.at(0).accesses)
      if (a.line == 61 && a.op == "ttg.async_copy_global_to_local") return a;
    static const AuditAccess none;
    ADD_FAILURE() << "no copy on line 61";
    return none;
  };
  EXPECT_EQ(*line_61().wavefronts, 8.0);
  ASSERT_TRUE(b.set_kernel_sass(dir / "int8.sass")) << b.kernel_audit().error;
  frames(2);
  EXPECT_EQ(*line_61().wavefronts, 4.0);
  const sass::Listing listing = sass::read_listing(slurp(dir / "int8.sass"), (dir / "int8.sass").string());
  const AuditReport cli = audit_module(slurp(dir / "int8.ttgir"), (dir / "int8.ttgir").string(), "", {{"K", 256}}, &listing);
  ASSERT_EQ(b.kernel_audit().modules.at(0).accesses.size(), cli.accesses.size());
  for (std::size_t i = 0; i < cli.accesses.size(); ++i) {
    EXPECT_EQ(b.kernel_audit().modules.at(0).accesses[i].note, cli.accesses[i].note) << i;
    EXPECT_EQ(b.kernel_audit().modules.at(0).accesses[i].wavefronts, cli.accesses[i].wavefronts) << i;
  }
  screenshot_if_asked("SWZ_GUI_KERNEL_SASS_PNG");
  // Not a listing: shown, the last audit kept.
  EXPECT_FALSE(b.set_kernel_sass(dir / "int8.ttgir"));
  EXPECT_NE(b.kernel_audit().error.find("SASS: " + (dir / "int8.ttgir").string() + ": no function in it"), std::string::npos)
      << b.kernel_audit().error;
  EXPECT_EQ(*line_61().wavefronts, 4.0);
  frames(2);  // the error drawn: the row moves down
  click("kernel.drop_sass");
  frames(2);
  EXPECT_FALSE(b.kernel_audit().sass);
  EXPECT_EQ(*line_61().wavefronts, 8.0);
  EXPECT_EQ(b.kernel_audit().arguments, "K=256");
}

// Clicking an LDSM row loads it: the reader issues ldmatrix .x4 over the rows its lanes address.
// The window is kept as a PNG to look at (SWZ_GUI_SCALES_DIR).
TEST_F(KernelViewTest, ClickingAnLdmatrixRowLoadsLdmatrix) {
  Workbench& b = open();
  b.apply(cmd::show_panel("problem", true));
  ASSERT_TRUE(b.open_kernel(copy_of("triton36/dot_16x16_fp16.ttgir"))) << b.error();
  frames(3);
  const AuditReport& r = b.kernel_audit().modules.at(0);
  int ldsm = -1;
  for (int i = 0; i < static_cast<int>(r.accesses.size()) && ldsm < 0; ++i)
    if (r.accesses[static_cast<std::size_t>(i)].instruction.rfind("LDSM", 0) == 0) ldsm = i;
  ASSERT_GE(ldsm, 0);
  click(fmt::format("kernel.row.{}", ldsm));
  frames(2);
  EXPECT_EQ(b.kernel_audit().selected, ldsm);
  const AuditAccess& a = r.accesses[static_cast<std::size_t>(ldsm)];
  EXPECT_EQ(a.instruction, "LDSM." + b.session().problem.read_matrix);
  EXPECT_EQ(b.model().analysis.read.instruction, a.instruction);
  EXPECT_EQ(problem_line(b, "read").rfind(fmt::format("Read: {} x{}", a.instruction, a.instructions), 0), 0u)
      << problem_line(b, "read");
  std::filesystem::create_directories(SWZ_GUI_SCALES_DIR);
  for (const char* view : {"kernel", "problem"}) {  // the row chosen, then the Problem panel alone
    if (std::string(view) == "problem") {
      b.apply(cmd::show_panel("kernel", false));
      b.set_focus("problem");
    }
    int w = 0, h = 0;
    const auto px = capture(w, h);
    std::string error;
    EXPECT_TRUE(write_png(fmt::format("{}/ldsm-row-{}.png", SWZ_GUI_SCALES_DIR, view), px, w, h, error)) << error;
  }
  EXPECT_EQ(problem_line(b, "read").rfind(fmt::format("Read: {} x{}", a.instruction, a.instructions), 0), 0u);
}

TEST_F(KernelViewTest, EachSuggestionHasARowOfItsOwnWithTheInstructionAfter) {
  Workbench& b = open();
  ASSERT_TRUE(b.open_kernel(copy_of("triton36/matmul_tf32.ttgir"))) << b.error();
  frames(3);
  const AuditReport& r = b.kernel_audit().modules.at(0);
  int shown = 0;
  for (std::size_t i = 0; i < r.accesses.size(); ++i) {
    const AuditAccess& a = r.accesses[i];
    ASSERT_TRUE(b.probe(fmt::format("kernel.text.{}.3", i))) << "no instruction cell for row " << i;
    if (!a.suggestion_index) continue;
    ++shown;
    EXPECT_TRUE(b.probe(fmt::format("kernel.suggestion.{}", i))) << "row " << i;
    const auto after = b.probe(fmt::format("kernel.text.{}.suggestion.3", i));
    ASSERT_TRUE(after) << "row " << i;
    EXPECT_GT(after->max.x - after->min.x, 0.0f);
  }
  EXPECT_GE(shown, 1);  // the B copy's copy-layout suggestion
}

// Also the lanes-walk-K module, whose copy lines carry the longest notes (the warps predicated off).
TEST_F(KernelViewTest, NoColumnClipsItsTextAtScalesOneAndOnePointSix) {
  for (const std::string kernel : {"triton36/matmul_tf32", "matmul_tf32_lanes_walk_k"})
    for (const float scale : {1.0f, 1.6f}) {
      SCOPED_TRACE(kernel + " " + std::to_string(scale));
      Workbench& b = open();
      b.apply(cmd::set_ui_scale(scale));
      ASSERT_TRUE(b.open_kernel(copy_of(kernel + ".ttgir"))) << b.error();
      frames(4);
      int cells = 0;
      for (const std::string& id : b.probe_ids()) {
        if (id.rfind("kernel.text.", 0) != 0) continue;
        const auto text = b.probe(id);
        const auto cell = b.probe("kernel.cell." + id.substr(12));
        ASSERT_TRUE(text && cell) << id;
        EXPECT_LE(text->max.x, cell->max.x + 0.5f) << id << " is clipped";
        ++cells;
      }
      EXPECT_GT(cells, 9 * 5);
      int w = 0, h = 0;
      const auto px = capture(w, h);
      std::filesystem::create_directories(SWZ_GUI_SCALES_DIR);
      std::string error;
      const std::string name = kernel.substr(kernel.find('/') + 1);
      EXPECT_TRUE(write_png(fmt::format("{}/kernel-{}-{:.1f}.png", SWZ_GUI_SCALES_DIR, name, scale), px, w, h, error)) << error;
    }
}

TEST_F(KernelViewTest, ApplyFixAsksWhereAndWritesThePatchedModule) {
  Workbench& b = open();
  const auto source = copy_of("transpose_conflict.ttgir");
  const std::string original = slurp(source);
  ASSERT_TRUE(b.open_kernel(source)) << b.error();
  frames(3);
  click("kernel.apply_fix");
  EXPECT_EQ(b.file_dialog().title, "Save fixed module as");
  EXPECT_TRUE(b.file_dialog().saving);
  EXPECT_EQ(std::filesystem::path(b.file_dialog().path_text), source.parent_path() / "transpose_conflict.fixed.ttgir");
  key(GLFW_KEY_ESCAPE);

  const auto out = source.parent_path() / "fixed.ttgir";
  ASSERT_TRUE(b.save_kernel_fix(out)) << b.error();
  EXPECT_EQ(slurp(source), original);  // the source is left alone
  const std::string fixed = slurp(out);
  EXPECT_NE(fixed.find("maxPhase = 32"), std::string::npos);
  EXPECT_EQ(count_accesses(audit_module(fixed, out.string())).conflicted, 0);

  // A folder is refused with a message, and nothing is written.
  EXPECT_FALSE(b.save_kernel_fix(source.parent_path()));
  EXPECT_NE(b.error().find("it is a directory"), std::string::npos);
}

TEST_F(KernelViewTest, ModuleOfADumpIsFixedAlone) {
  Workbench& b = open();
  ASSERT_TRUE(b.open_kernel(copy_of("mlir_dump.mlir"))) << b.error();
  ASSERT_EQ(b.kernel_audit().modules.size(), 3u);
  b.show_kernel_module(1);  // the tf32 matmul
  const auto out = temp_dir("dumpfix") / "matmul.ttgir";
  ASSERT_TRUE(b.save_kernel_fix(out)) << b.error();
  const std::string fixed = slurp(out);
  // The module alone, under its own dump header.
  EXPECT_EQ(fixed.find("IR Dump Before TritonGPUReduceDataDuplication"), 11u);
  EXPECT_EQ(fixed.find("IR Dump", 12), std::string::npos);
  EXPECT_NE(fixed.find("tt.func public @matmul"), std::string::npos);
  EXPECT_NE(fixed.find("threadsPerWarp = [2, 16]"), std::string::npos);
}

}  // namespace
}  // namespace swz::gui::test
