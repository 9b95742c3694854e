// Workbench::open_file: the one call a file handed over whole goes through (the browser's file
// picker and drops, host.h). A TTGIR module opens the Kernel audit on its report without asking
// for a file; a shared-layout file loads as the shared layout; a file it cannot read says why.
#include <fstream>

#include "gui_fixture.h"
#include "swz/kernel/audit.h"

namespace swz::gui::test {

TEST_F(GuiTest, OpenFileAuditsATtgirModuleWithoutAskingForAFile) {
  Workbench& b = open();
  const std::string path = std::string(SWZ_GUI_TEST_DATA_DIR) + "/ttgir/transpose_conflict.ttgir";
  ASSERT_TRUE(b.open_file(path)) << b.error();
  frames(3);
  ASSERT_EQ(b.kernel_audit().modules.size(), 1u);
  const AuditReport& shown = b.kernel_audit().modules[0];
  const AuditReport want = audit_module(read_text_file(path), path);
  ASSERT_EQ(shown.accesses.size(), want.accesses.size());
  for (std::size_t i = 0; i < want.accesses.size(); ++i)
    EXPECT_EQ(shown.accesses[i].wavefronts, want.accesses[i].wavefronts) << "row " << i;
  EXPECT_TRUE(b.panel_visible("kernel"));
  EXPECT_TRUE(b.probe("kernel.row.0").has_value());
  EXPECT_FALSE(ImGui::IsPopupOpen("Open kernel (TTGIR)", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel));
}

TEST_F(GuiTest, OpenFileLoadsASharedLayoutAndNamesAFileItCannotRead) {
  Workbench& b = open();
  ASSERT_TRUE(b.open_file(std::string(SWZ_GUI_TEST_DATA_DIR) + "/../cli/data/row_major_shared.json")) << b.error();
  ASSERT_TRUE(b.session().problem.shared.has_value());
  EXPECT_EQ(b.session().problem.shared->origin, "row_major_shared.json");

  const std::filesystem::path bad = std::filesystem::temp_directory_path() / "swz-open-file-test.mlir";
  std::ofstream(bad) << "this is not a Triton module\n";
  EXPECT_FALSE(b.open_file(bad));
  EXPECT_NE(b.error().find(bad.string()), std::string::npos) << b.error();
  std::filesystem::remove(bad);
}

}  // namespace swz::gui::test
