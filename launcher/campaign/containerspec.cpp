#include "launcher/campaign/containerspec.h"

#include "launcher/campaign/identifiers.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace sv::launcher {
namespace {

using nlohmann::json;

bool lowerAlnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}
bool alnum(char c) {
    return lowerAlnum(c) || (c >= 'A' && c <= 'Z');
}

// docker run -v splits its value on ':' and --mount on ','; ".." could climb out of what the
// user meant to share.
std::optional<std::string> mountPathProblem(const std::string& path) {
    if (!isValidPlainPath(path)) return "must be an absolute path without spaces or quotes";
    if (path.find_first_of(":,") != std::string::npos) return "must not hold ':' or ','";
    if (path.find("/../") != std::string::npos || path.ends_with("/..") ||
        path.find("/./") != std::string::npos || path.ends_with("/."))
        return "must not hold '.' or '..' components";
    return std::nullopt;
}

template <typename T> void take(json& j, const char* key, T& out) {
    auto it = j.find(key);
    if (it == j.end()) return;
    out = it->get<T>();
    j.erase(it);
}

} // namespace

bool isValidImageReference(std::string_view image) {
    if (image.empty() || image.size() > 255 || !alnum(image.front())) return false;
    std::string_view rest = image;
    if (const auto at = rest.find('@'); at != std::string_view::npos) {
        const std::string_view digest = rest.substr(at + 1);
        if (!digest.starts_with("sha256:") || digest.size() != 7 + 64) return false;
        for (char c : digest.substr(7))
            if (!lowerAlnum(c) || c > 'f') return false;
        rest = rest.substr(0, at);
    }
    // The tag: after the last ':' that follows the last '/' (a registry's port comes before).
    const auto slash = rest.rfind('/');
    if (const auto colon = rest.rfind(':');
        colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash)) {
        const std::string_view tag = rest.substr(colon + 1);
        if (tag.empty() || tag.size() > 128 || !alnum(tag.front())) return false;
        for (char c : tag)
            if (!alnum(c) && c != '_' && c != '.' && c != '-') return false;
        rest = rest.substr(0, colon);
    }
    // Components: the first may be a registry (letters of any case, '.', ':' port); the others
    // are lowercase names separated by '.', '_' or '-'.
    std::size_t from = 0;
    bool first = true;
    while (from <= rest.size()) {
        const auto to = std::min(rest.find('/', from), rest.size());
        const std::string_view part = rest.substr(from, to - from);
        if (part.empty()) return false;
        const bool registry =
            first && to < rest.size() &&
            (part.find_first_of(".:") != std::string_view::npos || part == "localhost");
        for (char c : part) {
            const bool ok = registry ? alnum(c) || c == '.' || c == '-' || c == ':'
                                     : lowerAlnum(c) || c == '.' || c == '_' || c == '-';
            if (!ok) return false;
        }
        if (!alnum(part.front()) || !alnum(part.back())) return false;
        first = false;
        from = to + 1;
    }
    return true;
}

std::vector<std::string> validateContainer(const Container& c) {
    std::vector<std::string> e;
    if (c.runtime != "none" && c.runtime != "docker") {
        e.push_back("container.runtime: '" + c.runtime + "' is neither none nor docker");
        return e;
    }
    if (c.runtime == "none") {
        if (!c.name.empty() || !c.image.empty())
            e.push_back("container: a name or image needs \"runtime\": \"docker\"");
        return e;
    }
    if (c.name.empty() == c.image.empty())
        e.push_back("container: give either a running container's name or an image to start, "
                    "not both or neither");
    if (!c.name.empty() && !isValidContainerName(c.name))
        e.push_back("container.name: '" + c.name + "' is not a container name");
    if (!c.image.empty() && !isValidImageReference(c.image))
        e.push_back("container.image: '" + c.image +
                    "' is not an image reference (e.g. nvidia_rn50_mx:20.03, "
                    "nvcr.io/nvidia/mxnet:20.03-py3)");
    for (std::size_t i = 0; i < c.mounts.size(); ++i) {
        const std::string where = "container.mounts[" + std::to_string(i) + "]";
        if (auto why = mountPathProblem(c.mounts[i].source))
            e.push_back(where + ".source: '" + c.mounts[i].source + "' " + *why);
        if (auto why = mountPathProblem(c.mounts[i].target))
            e.push_back(where + ".target: '" + c.mounts[i].target + "' " + *why);
        else if (c.mounts[i].target == "/")
            e.push_back(where + ".target: '/' would hide the image's whole file system");
    }
    for (std::size_t i = 0; i < c.runArgs.size(); ++i) {
        const std::string& a = c.runArgs[i];
        const std::string where = "container.runArgs[" + std::to_string(i) + "]: '" + a + "' ";
        bool printable = true;
        for (char ch : a)
            printable = printable && static_cast<unsigned char>(ch) >= 0x20 && ch != 0x7f;
        const std::string name = a.substr(0, a.find('='));
        if (!a.starts_with("--") || a.size() < 3 || !printable)
            e.push_back(where + "must be one option word, --name or --name=value");
        else if (name == "--name" || name == "--rm" || name == "--detach" || name == "--entrypoint")
            e.push_back(where + "is set by the launcher itself");
    }
    if (c.program != "docker" && !isValidPlainPath(c.program))
        e.push_back("container.program: '" + c.program +
                    "' must be docker or an absolute path without spaces or quotes");
    if (!c.host.empty() && (c.host.find("://") == std::string::npos || !alnum(c.host.front()) ||
                            !isValidPlainPath("/" + c.host)))
        e.push_back("container.host: '" + c.host +
                    "' is not a docker host (unix:///run/docker.sock, tcp://HOST:PORT)");
    if (!c.managed() && (!c.mounts.empty() || !c.runArgs.empty() || c.keep))
        e.push_back("container: mounts, runArgs and keep apply only to an image the launcher "
                    "starts");
    return e;
}

void readContainer(json k, Container& c) {
    if (!k.is_object()) throw std::runtime_error("container: not a JSON object");
    take(k, "runtime", c.runtime);
    take(k, "name", c.name);
    take(k, "image", c.image);
    if (auto it = k.find("mounts"); it != k.end()) {
        for (json m : *it) {
            ContainerMount mount;
            if (m.is_string()) { // "SRC:DST[:ro]", as on the command line
                std::string why;
                auto parsed = parseContainerMount(m.get<std::string>(), &why);
                if (!parsed) throw std::runtime_error("container.mounts: " + why);
                mount = *parsed;
            } else {
                take(m, "source", mount.source);
                take(m, "target", mount.target);
                take(m, "readOnly", mount.readOnly);
                if (!m.empty())
                    throw std::runtime_error("container.mounts: unknown key '" + m.begin().key() +
                                             "'");
            }
            c.mounts.push_back(mount);
        }
        k.erase(it);
    }
    take(k, "runArgs", c.runArgs);
    take(k, "keep", c.keep);
    take(k, "program", c.program);
    take(k, "host", c.host);
    if (!k.empty()) throw std::runtime_error("container: unknown key '" + k.begin().key() + "'");
}

json writeContainer(const Container& c) {
    json j{{"runtime", c.runtime}};
    if (!c.name.empty()) j["name"] = c.name;
    if (!c.image.empty()) {
        j["image"] = c.image;
        j["mounts"] = json::array();
        for (const auto& m : c.mounts)
            j["mounts"].push_back(
                {{"source", m.source}, {"target", m.target}, {"readOnly", m.readOnly}});
        j["runArgs"] = c.runArgs;
        j["keep"] = c.keep;
    }
    if (c.program != "docker") j["program"] = c.program;
    if (!c.host.empty()) j["host"] = c.host;
    return j;
}

std::optional<ContainerMount> parseContainerMount(const std::string& text, std::string* error) {
    ContainerMount m;
    const auto first = text.find(':');
    const auto second = first == std::string::npos ? first : text.find(':', first + 1);
    if (first == std::string::npos) {
        *error = "'" + text + "' is not SOURCE:TARGET[:ro]";
        return std::nullopt;
    }
    m.source = text.substr(0, first);
    m.target = text.substr(first + 1, second == std::string::npos ? second : second - first - 1);
    if (second != std::string::npos) {
        const std::string mode = text.substr(second + 1);
        if (mode != "ro" && mode != "rw") {
            *error = "'" + text + "': the mode after the target is ro or rw, not '" + mode + "'";
            return std::nullopt;
        }
        m.readOnly = mode == "ro";
    }
    return m;
}

} // namespace sv::launcher
