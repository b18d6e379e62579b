// The ui's folders as floors (docs/architecture.md): each file's includes of another ui folder
// go down, never up or sideways, and every folder has its floor (a new one must be given one).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>

namespace {

namespace fs = std::filesystem;

// Lowest first; folders on one floor include none of one another.
const std::map<std::string, int> kFloors = {
    {"analysis", 0}, {"charts", 1}, {"settings", 1}, {"models", 1}, {"widgets", 1}, {"export", 2},
    {"compare", 2},  {"browse", 3}, {"history", 3},  {"run", 3},    {"window", 4},
};

} // namespace

TEST(UiFloors, NoFolderIncludesOneAboveOrBesideIt) {
    const fs::path ui = fs::path(SCALEVIEW_SOURCE_DIR) / "ui";
    const std::regex include(R"(^\s*#\s*include\s+"ui/([a-z]+)/[^"]+")");
    int files = 0;
    int downward = 0;
    for (const auto& entry : fs::recursive_directory_iterator(ui)) {
        const fs::path& path = entry.path();
        if (!entry.is_regular_file() || (path.extension() != ".h" && path.extension() != ".cpp"))
            continue;
        const std::string folder = path.parent_path().filename().string();
        ASSERT_TRUE(kFloors.count(folder)) << "ui/" << folder << " has no floor: give it one here "
                                           << "and in docs/architecture.md";
        ++files;
        std::ifstream in(path);
        std::string line;
        for (int number = 1; std::getline(in, line); ++number) {
            std::smatch m;
            if (!std::regex_search(line, m, include) || m[1] == folder) continue;
            const std::string target = m[1];
            ASSERT_TRUE(kFloors.count(target)) << path << ":" << number << ": ui/" << target;
            EXPECT_LT(kFloors.at(target), kFloors.at(folder))
                << path << ":" << number << ": ui/" << folder << " includes ui/" << target
                << ", which is not below it";
            ++downward;
        }
    }
    // The walk found the tree, and its includes: an empty pass would prove nothing.
    EXPECT_GT(files, 100);
    EXPECT_GT(downward, 100);
}
