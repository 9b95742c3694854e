// The one file writer: regular files replaced atomically, links followed, devices and FIFOs
// written directly, directories refused.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <regex>
#include <thread>

#include <gtest/gtest.h>

#include "swz/io/atomic_file.h"
#include "swz/io/utc_time.h"
#include "swz/error.h"

namespace swz {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::path(::testing::TempDir()) / ("swz-atomic-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}
std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(AtomicFile, ReplacesARegularFileAndKeepsItsMode) {
  const fs::path d = fresh_dir("regular");
  const fs::path f = d / "out.h";
  write_file_atomically(f.string(), "one");
  EXPECT_EQ(read(f), "one");
  ::chmod(f.c_str(), 0640);
  write_file_atomically(f.string(), "two");
  EXPECT_EQ(read(f), "two");
  struct stat st {};
  ASSERT_EQ(::stat(f.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
  EXPECT_EQ(std::distance(fs::directory_iterator(d), fs::directory_iterator()), 1) << "a temporary file was left behind";
  fs::remove_all(d);
}

TEST(AtomicFile, WritesThroughSymbolicLinks) {
  const fs::path d = fresh_dir("links");
  write_file_atomically((d / "target.h").string(), "old");
  fs::create_symlink("target.h", d / "link.h");
  fs::create_symlink("link.h", d / "link2.h");  // a chain
  write_file_atomically((d / "link2.h").string(), "new");
  EXPECT_TRUE(fs::is_symlink(d / "link.h"));
  EXPECT_TRUE(fs::is_symlink(d / "link2.h"));
  EXPECT_EQ(read(d / "target.h"), "new");
  // A dangling link creates its target.
  fs::create_symlink("made.h", d / "dangling.h");
  write_file_atomically((d / "dangling.h").string(), "made");
  EXPECT_TRUE(fs::is_symlink(d / "dangling.h"));
  EXPECT_EQ(read(d / "made.h"), "made");
  fs::remove_all(d);
}

TEST(AtomicFile, WritesDevicesAndFifosDirectly) {
  write_file_atomically("/dev/null", "into the void");
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  const fs::path d = fresh_dir("fifo");
  const fs::path fifo = d / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = read(fifo); });
  write_file_atomically(fifo.string(), "through the pipe");
  reader.join();
  EXPECT_EQ(got, "through the pipe");
  EXPECT_TRUE(fs::is_fifo(fifo));
  fs::remove_all(d);
}

TEST(AtomicFile, RefusesDirectoriesAndMissingFolders) {
  const fs::path d = fresh_dir("refuse");
  try {
    write_file_atomically(d.string(), "x");
    FAIL() << "a directory was written";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("it is a directory"), std::string::npos);
  }
  EXPECT_THROW(write_file_atomically((d / "no" / "such" / "f.h").string(), "x"), Error);
  EXPECT_THROW(write_file_atomically("", "x"), Error);
  fs::remove_all(d);
}

// A new file's mode is what the umask leaves of the mode asked for, as for any program's file
// (open(2) with O_CREAT); before, every new file was 0644 whatever the umask.
TEST(AtomicFile, NewFilesHonourTheUmask) {
  const fs::path d = fresh_dir("umask");
  const mode_t saved = ::umask(027);
  const auto mode_of = [](const fs::path& f) {
    struct stat st {};
    EXPECT_EQ(::stat(f.c_str(), &st), 0);
    return st.st_mode & 0777;
  };
  EXPECT_EQ(process_umask(), 027u);
  write_file_atomically((d / "group.h").string(), "x");
  EXPECT_EQ(mode_of(d / "group.h"), 0640u);
  ::umask(077);
  EXPECT_EQ(process_umask(), 077u);
  write_file_atomically((d / "mine.h").string(), "x");
  EXPECT_EQ(mode_of(d / "mine.h"), 0600u);
  ::umask(022);
  write_file_atomically((d / "private.jsonl").string(), "x", kPrivateFileMode);
  EXPECT_EQ(mode_of(d / "private.jsonl"), 0600u) << "a private file stays the owner's under a lax umask";
  write_file_atomically((d / "ordinary.h").string(), "x");
  EXPECT_EQ(mode_of(d / "ordinary.h"), 0644u);
  // A file already there keeps its mode: the umask and the mode asked for are for new files.
  ::chmod((d / "mine.h").c_str(), 0664);
  write_file_atomically((d / "mine.h").string(), "y", kPrivateFileMode);
  EXPECT_EQ(mode_of(d / "mine.h"), 0664u);
  ::umask(saved);
  fs::remove_all(d);
}

}  // namespace
}  // namespace swz

// The clock the project writes down is UTC, in ISO 8601, and the date is the timestamp's first ten
// characters (a call straddling midnight UTC aside).
TEST(UtcTime, TimestampAndDateAreIsoUtc) {
  const std::string stamp = swz::utc_timestamp(), date = swz::utc_date();
  EXPECT_TRUE(std::regex_match(stamp, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"))) << stamp;
  EXPECT_TRUE(std::regex_match(date, std::regex(R"(\d{4}-\d\d-\d\d)"))) << date;
  if (stamp.substr(11, 5) != "23:59" && stamp.substr(11, 5) != "00:00") EXPECT_EQ(stamp.substr(0, 10), date);
}
