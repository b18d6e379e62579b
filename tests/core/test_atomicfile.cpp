// The one atomic write (core/model/atomicfile.h): a symlink planted at the output or at any name
// a writer used to take for its temporary is never written through, and nothing is left behind.

#include "core/model/atomicfile.h"

#include "tests/support/files.h"
#include "tests/support/logwriter.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

using namespace sv;
using namespace sv::test;

namespace fs = std::filesystem;

namespace {

// The folder's entries but the ones named.
std::vector<std::string> entriesOf(const fs::path& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir))
        out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

TEST(AtomicFile, WritesAndReplacesAWholeFileKeepingItsMode) {
    TempDir dir;
    const fs::path out = dir / "summary.json";
    ASSERT_FALSE(writeFileAtomically(out, "first\n"));
    EXPECT_EQ(readWhole(out), "first\n");
    ASSERT_EQ(::chmod(out.c_str(), 0600), 0);
    ASSERT_FALSE(writeFileAtomically(out, "second\n"));
    EXPECT_EQ(readWhole(out), "second\n");
    struct stat st {};
    ASSERT_EQ(::stat(out.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    EXPECT_EQ(entriesOf(dir.path()), std::vector<std::string>{"summary.json"}); // no temporary
}

// The names summarize, report and probes wrote their temporaries under, planted as symlinks to
// a file outside the folder: the write leaves the target as it was.
TEST(AtomicFile, PlantedSymlinksAtTheTemporaryNamesAreNeverWrittenThrough) {
    TempDir dir;
    const fs::path victim = dir / "victim.txt";
    writeFile(victim, "precious\n");
    fs::create_directory(dir / "shared");
    const fs::path out = dir / "shared" / "probes.json";
    const std::string pid = std::to_string(::getpid());
    for (const std::string& name :
         std::vector<std::string>{"probes.json.tmp", "probes.json.tmp-" + pid,
                                  ".probes.json." + pid, ".probes.json.tmp"})
        fs::create_symlink(victim, dir / "shared" / name);
    ASSERT_FALSE(writeFileAtomically(out, "{}\n"));
    EXPECT_EQ(readWhole(victim), "precious\n");
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(out)));
    EXPECT_EQ(readWhole(out), "{}\n");
}

TEST(AtomicFile, ASymlinkAtTheOutputIsReplacedNotFollowed) {
    TempDir dir;
    const fs::path victim = dir / "victim.txt";
    writeFile(victim, "precious\n");
    const fs::path out = dir / "report.html";
    fs::create_symlink(victim, out);
    ASSERT_FALSE(writeFileAtomically(out, "<html/>\n"));
    EXPECT_EQ(readWhole(victim), "precious\n");
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(out)));
    EXPECT_EQ(readWhole(out), "<html/>\n");
}

TEST(AtomicFile, ANewFileIsNeverPutOverOneThere) {
    TempDir dir;
    const fs::path out = dir / "table.json";
    writeFile(out, "theirs\n");
    const auto error = writeFileAtomically(out, "ours\n", {.mode = 0644, .replace = false});
    ASSERT_TRUE(error);
    EXPECT_EQ(*error, out.string() + " already exists");
    EXPECT_EQ(readWhole(out), "theirs\n");
    EXPECT_EQ(entriesOf(dir.path()), std::vector<std::string>{"table.json"});
    ASSERT_FALSE(writeFileAtomically(dir / "new.json", "ours\n", {.mode = 0644, .replace = false}));
    EXPECT_EQ(readWhole(dir / "new.json"), "ours\n");
}

TEST(AtomicFile, AFailureNamesTheFileAndWhy) {
    TempDir dir;
    const auto error = writeFileAtomically(dir / "missing" / "out.csv", "x");
    ASSERT_TRUE(error);
    EXPECT_NE(error->find((dir / "missing" / "out.csv").string()), std::string::npos) << *error;
    EXPECT_NE(error->find("No such file or directory"), std::string::npos) << *error;
}
