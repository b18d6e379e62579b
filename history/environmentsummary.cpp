#include "history/environmentsummary.h"

#include <algorithm>
#include <sstream>

namespace sv::history {
namespace {

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return {};
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

bool endsWith(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
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

// "    Driver Version        : 535.104.05" -> "535.104.05" when the key matches.
bool keyValue(const std::string& line, const char* key, std::string* value) {
    const auto colon = line.find(':');
    if (colon == std::string::npos || trim(line.substr(0, colon)) != key) return false;
    *value = trim(line.substr(colon + 1));
    return true;
}

} // namespace

EnvironmentSummary summarizeEnvironment(const std::vector<ReportFile>& files) {
    EnvironmentSummary out;
    std::vector<std::string> drivers, cudas, gpus, images;
    for (const auto& f : files) {
        if (f.name.rfind("environment/", 0) != 0 || !endsWith(f.name, ".txt")) continue;
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
                if (keyValue(line, "Driver Version", &value)) addDistinct(drivers, value);
                if (keyValue(line, "CUDA Version", &value)) addDistinct(cudas, value);
                if (keyValue(line, "Product Name", &value)) addDistinct(gpus, value);
            } else if (firstOfSection && section.rfind("container ", 0) == 0 &&
                       (section.find(" image ") != std::string::npos ||
                        endsWith(section, " image"))) {
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
    return out;
}

std::vector<EnvironmentChange> diffEnvironments(const EnvironmentSummary& a,
                                                const EnvironmentSummary& b) {
    std::vector<EnvironmentChange> out;
    auto add = [&](const char* what, const std::string& x, const std::string& y) {
        if (x != y) out.push_back({what, x, y});
    };
    add("driver", a.driver, b.driver);
    add("cuda", a.cuda, b.cuda);
    add("gpu_model", a.gpuModel, b.gpuModel);
    add("container_image", a.containerImage, b.containerImage);
    add("hosts", joined(a.hosts, " "), joined(b.hosts, " "));
    return out;
}

std::string describeChanges(const std::vector<EnvironmentChange>& changes) {
    if (changes.empty()) return "nothing recorded changed";
    std::string out;
    for (const auto& c : changes)
        out += (out.empty() ? "" : "; ") + c.what + " " + (c.a.empty() ? "(none)" : c.a) + " -> " +
               (c.b.empty() ? "(none)" : c.b);
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

} // namespace sv::history
