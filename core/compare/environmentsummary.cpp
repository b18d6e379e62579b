#include "core/compare/environmentsummary.h"

#include "core/model/textscan.h"

#include <algorithm>
#include <sstream>

namespace sv {
namespace {

std::string trim(std::string_view s) {
    return std::string(trimBlanks(s));
}

void addDistinct(std::vector<std::string>& to, const std::string& value) {
    if (!value.empty() && std::find(to.begin(), to.end(), value) == to.end()) to.push_back(value);
}

std::string joined(const std::vector<std::string>& values, const char* separator) {
    std::string out;
    for (const auto& v : values)
        out += (out.empty() ? "" : separator) + v;
    return out;
}

} // namespace

bool capturedValue(const std::string& line, const char* key, std::string* value) {
    const auto colon = line.find(':');
    if (colon == std::string::npos || trim(line.substr(0, colon)) != key) return false;
    *value = trim(line.substr(colon + 1));
    return true;
}

EnvironmentSummary summarizeEnvironment(const std::vector<ReportFile>& files) {
    EnvironmentSummary out;
    std::vector<std::string> drivers, cudas, gpus, images, frameworks, mpis;
    for (const auto& f : files) {
        if (f.name.rfind("environment/", 0) != 0 || !f.name.ends_with(".txt")) continue;
        std::istringstream in(f.text);
        std::string line, section;
        bool firstOfSection = false;
        while (std::getline(in, line)) {
            if (line.rfind("== ", 0) == 0) {
                section = trim(line.substr(3));
                firstOfSection = true;
                continue;
            }
            const std::string text = trim(line);
            if (text.empty()) continue;
            std::string value;
            if (section == "hostname" && firstOfSection) {
                addDistinct(out.hosts, text);
            } else if (section == "nvidia-smi -q") {
                if (capturedValue(line, "Driver Version", &value)) addDistinct(drivers, value);
                if (capturedValue(line, "CUDA Version", &value)) addDistinct(cudas, value);
                if (capturedValue(line, "Product Name", &value)) addDistinct(gpus, value);
            } else if (section == "python" && text.rfind("torch ", 0) == 0) {
                addDistinct(frameworks, text);
            } else if (section == "mpirun" && firstOfSection &&
                       text.find("not found") == std::string::npos) {
                addDistinct(mpis, text);
            } else if (firstOfSection && section.rfind("container ", 0) == 0 &&
                       (section.find(" image ") != std::string::npos ||
                        section.ends_with(" image"))) {
                // `docker image inspect --format '{{.Id}} {{json .RepoDigests}}'` or
                // `docker inspect --format '{{.Image}}'`: the id is the first word.
                addDistinct(images, text.substr(0, text.find(' ')));
            }
            firstOfSection = false;
        }
    }
    out.driver = joined(drivers, " / ");
    out.cuda = joined(cudas, " / ");
    out.gpuModel = joined(gpus, " / ");
    out.containerImage = joined(images, " / ");
    out.framework = joined(frameworks, " / ");
    out.mpi = joined(mpis, " / ");
    return out;
}

RecordedFacts environmentFacts(const EnvironmentSummary& env) {
    return {{"driver", env.driver},           {"cuda", env.cuda},
            {"gpu_model", env.gpuModel},      {"container_image", env.containerImage},
            {"framework", env.framework},     {"mpi", env.mpi},
            {"hosts", joined(env.hosts, " ")}};
}

std::vector<EnvironmentChange> diffFacts(const RecordedFacts& a, const RecordedFacts& b) {
    auto valueIn = [](const RecordedFacts& facts, const std::string& what) {
        for (const auto& f : facts)
            if (f.what == what) return f.value;
        return std::string();
    };
    std::vector<EnvironmentChange> out;
    std::vector<std::string> seen;
    auto compare = [&](const std::string& what) {
        if (std::find(seen.begin(), seen.end(), what) != seen.end()) return;
        seen.push_back(what);
        const std::string x = valueIn(a, what), y = valueIn(b, what);
        if (x != y) out.push_back({what, x, y});
    };
    for (const auto& f : a)
        compare(f.what);
    for (const auto& f : b)
        compare(f.what);
    return out;
}

std::vector<EnvironmentChange> diffEnvironments(const EnvironmentSummary& a,
                                                const EnvironmentSummary& b) {
    return diffFacts(environmentFacts(a), environmentFacts(b));
}

// The log parameters only one side prints are named together ("3 log parameters only one side
// prints: lr, wd, momentum"), never each as "(none) -> value".
std::string describeChanges(const std::vector<EnvironmentChange>& changes) {
    if (changes.empty()) return "nothing recorded changed";
    std::string out;
    // A log parameter only one side's logs print (another framework's dump, a newer trainer's
    // extra line) is no change of its value: named once, together, not as "(none) -> value".
    std::vector<std::string> oneSided;
    for (const auto& c : changes) {
        if (c.what.rfind("log.", 0) == 0 && (c.a.empty() || c.b.empty())) {
            oneSided.push_back(c.what.substr(4));
            continue;
        }
        out += (out.empty() ? "" : "; ") + c.what + " " + (c.a.empty() ? "(none)" : c.a) + " -> " +
               (c.b.empty() ? "(none)" : c.b);
    }
    if (!oneSided.empty()) {
        constexpr std::size_t kNamed = 4;
        std::string names;
        for (std::size_t i = 0; i < oneSided.size() && i < kNamed; ++i)
            names += (i ? ", " : "") + oneSided[i];
        if (oneSided.size() > kNamed)
            names += " and " + std::to_string(oneSided.size() - kNamed) + " more";
        out += (out.empty() ? "" : "; ") +
               (oneSided.size() == 1
                    ? std::string("a log parameter only one side prints: ")
                    : std::to_string(oneSided.size()) + " log parameters only one side prints: ") +
               names;
    }
    return out;
}

std::string describeEnvironment(const EnvironmentSummary& env) {
    std::vector<std::string> parts;
    if (!env.gpuModel.empty()) parts.push_back(env.gpuModel);
    if (!env.driver.empty()) parts.push_back("driver " + env.driver);
    if (!env.cuda.empty()) parts.push_back("CUDA " + env.cuda);
    if (!env.containerImage.empty()) parts.push_back("image " + env.containerImage);
    return joined(parts, ", ");
}

} // namespace sv
