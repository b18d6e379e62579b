// User formats where they live: the user's format directory, read at start, and the registry
// of the formats added at run time (detected after the built-in ones). The format file itself,
// its patterns and its reading are in userformat.cpp.
#include "core/formats/userformat.h"

#include "core/formats/formatregistry.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>

namespace sv {

std::filesystem::path userFormatDirectory(const char* xdgConfigHome, const char* home) {
    if (xdgConfigHome && *xdgConfigHome == '/')
        return std::filesystem::path(xdgConfigHome) / "scaleview" / "formats";
    if (home && *home) return std::filesystem::path(home) / ".config" / "scaleview" / "formats";
    return {};
}

std::filesystem::path userFormatDirectory() {
    return userFormatDirectory(std::getenv("XDG_CONFIG_HOME"), std::getenv("HOME"));
}

std::vector<std::shared_ptr<const UserFormat>>
readUserFormats(const std::filesystem::path& dir, std::vector<UserFormatError>* errors) {
    std::vector<std::shared_ptr<const UserFormat>> out;
    std::error_code ec;
    if (dir.empty() || !std::filesystem::is_directory(dir, ec)) return out;
    std::vector<std::filesystem::path> files;
    for (auto it = std::filesystem::directory_iterator(dir, ec);
         !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
        if (it->path().extension() == ".json") files.push_back(it->path());
    std::sort(files.begin(), files.end());
    for (const auto& p : files) {
        UserFormatError e;
        if (auto f = UserFormat::load(p, &e))
            out.push_back(std::move(f));
        else if (errors)
            errors->push_back(std::move(e));
    }
    return out;
}

namespace {
std::mutex& registryMutex() {
    static std::mutex m;
    return m;
}
std::vector<std::shared_ptr<const UserFormat>>& registry() {
    static std::vector<std::shared_ptr<const UserFormat>> r;
    return r;
}
} // namespace

const LogFormat* registerUserFormat(std::shared_ptr<const UserFormat> format, std::string* why) {
    std::lock_guard lock(registryMutex());
    for (const auto& r : registry())
        if (r->id() == format->id()) {
            if (r->json() == format->json()) return findLogFormat(r->id());
            if (why)
                *why = "the id '" + format->id() + "' is already the user format of " + r->file();
            return nullptr;
        }
    if (const LogFormat* builtin = findLogFormat(format->id())) {
        (void)builtin;
        if (why) *why = "'" + format->id() + "' is a built-in format's id";
        return nullptr;
    }
    registry().push_back(format);
    return &registerLogFormat(format->logFormat());
}

std::shared_ptr<const UserFormat> registeredUserFormat(std::string_view id) {
    std::lock_guard lock(registryMutex());
    for (const auto& r : registry())
        if (r->id() == id) return r;
    return nullptr;
}

std::vector<std::shared_ptr<const UserFormat>> registeredUserFormats() {
    std::lock_guard lock(registryMutex());
    return registry();
}

void loadUserFormats(std::vector<std::string>* problems) {
    std::vector<UserFormatError> errors;
    for (auto& f : readUserFormats(userFormatDirectory(), &errors)) {
        std::string why;
        if (!registerUserFormat(f, &why) && problems) problems->push_back(f->file() + ": " + why);
    }
    if (problems)
        for (const auto& e : errors)
            problems->push_back(e.text());
}

} // namespace sv
