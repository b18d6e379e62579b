// scaleview-cli formats: the table of log formats, for --log-format and for DLPerf users who
// want to know which of DLPerf's scripts ScaleView's --format dlperf reproduces; and the
// formats users teach it (formats add FILE, formats test FILE LOG...).

#include "core/formats/realworld.h"
#include "app/cli/commands.h"

#include "core/formats/formatregistry.h"
#include "core/formats/userformat.h"
#include "core/model/numerics.h"
#include "core/model/atomicfile.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace sv::cli {
namespace {

void listUserFormat(const UserFormat& f, const char* where) {
    std::printf("%s  [user format: %s]\n  framework: %s; throughput in %s\n", f.id().c_str(),
                where, f.name().c_str(), f.unit().c_str());
    std::printf("  line: %s\n", f.pattern().c_str());
    if (f.warmup())
        std::printf("  window: steps after %d up to %d\n", *f.warmup(), *f.iterations());
    else
        std::printf("  window: every value after the first %s %%\n",
                    formatFixed(f.dropFirst() * 100, 0).c_str());
}

int listFormats() {
    for (const LogFormat& f : logFormats()) {
        std::printf("%s\n  framework: %s; throughput in %s\n", std::string(f.id).c_str(),
                    std::string(f.framework).c_str(), std::string(f.unit).c_str());
        if (!f.speedScript.empty())
            std::printf("  --method speed: DLPerf %s\n", std::string(f.speedScript).c_str());
        if (!f.timeScript.empty())
            std::printf("  --method time: DLPerf %s\n", std::string(f.timeScript).c_str());
        std::printf("  defaults: warmup %d, iterations %d\n", f.defaultWarmup, f.defaultIterations);
    }
    // Logs outside DLPerf's layout that report their own throughput (issue 26).
    std::printf("\nLogs outside DLPerf's layout (read by content, any file name):\n");
    for (const LogFormat& f : realWorldFormats())
        std::printf("%s\n  framework: %s; throughput in %s\n  window: the log's own reports, "
                    "the first tenth left out, median of the rest (--warmup/--iterations: "
                    "reports W..I-1)\n",
                    std::string(f.id).c_str(), std::string(f.framework).c_str(),
                    std::string(f.unit).c_str());
    const auto dir = userFormatDirectory();
    std::vector<UserFormatError> refused;
    const auto user = readUserFormats(dir, &refused);
    if (!user.empty() || !refused.empty())
        std::printf("\nUser formats (%s):\n", dir.string().c_str());
    for (const auto& f : user)
        listUserFormat(*f, f->file().c_str());
    for (const auto& e : refused)
        std::fprintf(stderr, "warning: user format left out: %s\n", e.text().c_str());
    return 0;
}

// Validates FILE and copies it to the user's format directory as <id>.json.
int addFormat(const std::vector<std::string>& argv) {
    bool replace = false;
    std::vector<std::string> files;
    for (const auto& a : argv) {
        if (a == "--replace")
            replace = true;
        else if (a.rfind("--", 0) == 0) {
            std::fprintf(stderr, "scaleview-cli formats add: unknown option %s\n", a.c_str());
            return 2;
        } else
            files.push_back(a);
    }
    if (files.size() != 1) {
        std::fprintf(stderr, "scaleview-cli formats add: one FORMAT_FILE, please\n");
        return 2;
    }
    UserFormatError e;
    const auto format = UserFormat::load(files[0], &e);
    if (!format) {
        std::fprintf(stderr, "scaleview-cli formats add: %s\n", e.text().c_str());
        return 2;
    }
    const auto dir = userFormatDirectory();
    if (dir.empty()) {
        std::fprintf(stderr, "scaleview-cli formats add: neither XDG_CONFIG_HOME nor HOME is set\n");
        return 2;
    }
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
        std::fprintf(stderr, "scaleview-cli formats add: cannot create %s: %s\n",
                     dir.string().c_str(), ec.message().c_str());
        return 2;
    }
    const auto target = dir / (format->id() + ".json");
    if (std::filesystem::exists(target, ec) && !replace) {
        UserFormatError old;
        const auto existing = UserFormat::load(target, &old);
        if (existing && existing->json() == format->json()) {
            std::printf("%s is already there: %s\n", format->id().c_str(), target.string().c_str());
            return 0;
        }
        std::fprintf(stderr,
                     "scaleview-cli formats add: a user format '%s' is already in %s "
                     "(--replace replaces it)\n",
                     format->id().c_str(), target.string().c_str());
        return 2;
    }
    if (const auto failed = writeFileAtomically(target, format->json())) {
        std::fprintf(stderr, "scaleview-cli formats add: %s\n", failed->c_str());
        return 2;
    }
    std::printf("added %s: %s\n", format->id().c_str(), target.string().c_str());
    return 0;
}

// What FORMAT_FILE gives on each LOG: the lines it matches and the figure.
int testFormat(const std::vector<std::string>& argv) {
    if (argv.size() < 2) {
        std::fprintf(stderr, "scaleview-cli formats test: FORMAT_FILE LOG..., please\n");
        return 2;
    }
    UserFormatError e;
    const auto format = UserFormat::load(argv[0], &e);
    if (!format) {
        std::fprintf(stderr, "scaleview-cli formats test: %s\n", e.text().c_str());
        return 2;
    }
    int rc = 0;
    for (std::size_t i = 1; i < argv.size(); ++i) {
        const UserFormatPreview p = previewUserFormat(*format, argv[i]);
        if (p.readError) {
            std::fprintf(stderr, "scaleview-cli formats test: %s: %s\n", argv[i].c_str(),
                         p.readError->c_str());
            rc = 2;
            continue;
        }
        std::printf("%s: %lld of %lld lines match", argv[i].c_str(),
                    static_cast<long long>(p.matches), static_cast<long long>(p.lines));
        if (!p.matchLines.empty())
            std::printf(" (first at line %lld)", static_cast<long long>(p.matchLines.front()));
        if (p.figure)
            std::printf("; %s %s: %s\n", formatFixed(*p.figure, 2).c_str(),
                        format->unit().c_str(), p.rule.c_str());
        else
            std::printf("; no figure: %s\n", p.problem.c_str());
        if (p.facts.batch) std::printf("  batch: %d\n", *p.facts.batch);
        if (p.facts.gpus) std::printf("  gpus: %d\n", *p.facts.gpus);
        if (p.facts.precision) std::printf("  precision: %s\n", p.facts.precision->c_str());
        if (p.facts.model) std::printf("  model: %s\n", p.facts.model->c_str());
    }
    return rc;
}

} // namespace

int formatsCommand(const std::vector<std::string>& argv) {
    if (argv.empty()) return listFormats();
    const std::vector<std::string> rest(argv.begin() + 1, argv.end());
    if (argv[0] == "add") return addFormat(rest);
    if (argv[0] == "test") return testFormat(rest);
    std::fprintf(stderr, "scaleview-cli formats: '%s' is not a subcommand (formats, formats add "
                         "FORMAT_FILE, formats test FORMAT_FILE LOG...)\n",
                 argv[0].c_str());
    return 2;
}

} // namespace sv::cli
