#include "core/reference/devicecatalog.h"
#include "core/reference/cataloguefile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace sv {
namespace embedded {
extern const std::string_view peak_catalogue;
}

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    return out;
}

std::string trimmed(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) return {};
    return std::string(s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1));
}

// nvidia-smi's name compared as drivers print it: R465 and later prefix A100's with "NVIDIA ".
std::string comparable(std::string_view name) {
    std::string s = lower(trimmed(name));
    if (s.rfind("nvidia ", 0) == 0) s = s.substr(7);
    return s;
}

struct Refusal {
    std::string what;
};
[[noreturn]] void refuse(const std::string& where, const std::string& why) {
    throw Refusal{where + ": " + why};
}

std::string text(const nlohmann::json& j, const char* key, const std::string& where,
                 bool required) {
    if (!j.contains(key)) {
        if (required) refuse(where + key, "missing");
        return {};
    }
    if (j[key].is_null()) return {};
    if (!j[key].is_string()) refuse(where + key, "not a string");
    return j[key].get<std::string>();
}

double positive(const nlohmann::json& j, const char* key, const std::string& where) {
    if (!j.contains(key)) refuse(where + key, "missing");
    const auto& v = j[key];
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() <= 0.0)
        refuse(where + key, "not a positive number");
    return v.get<double>();
}

std::vector<std::string> strings(const nlohmann::json& j, const char* key,
                                 const std::string& where) {
    std::vector<std::string> out;
    if (!j.contains(key)) return out;
    if (!j[key].is_array()) refuse(where + key, "not a list of strings");
    for (const auto& v : j[key]) {
        if (!v.is_string()) refuse(where + key, "not a list of strings");
        out.push_back(v.get<std::string>());
    }
    return out;
}

DeviceEntry readDevice(const nlohmann::json& d, const std::string& where) {
    if (!d.is_object()) refuse(where, "not an object");
    DeviceEntry e;
    e.id = text(d, "id", where + ".", true);
    const std::string at = where + " (" + e.id + ").";
    e.architecture = text(d, "architecture", at, false);
    e.names = strings(d, "names", at);
    if (!d.contains("peaks") || !d["peaks"].is_object())
        refuse(at + "peaks", "missing or not an object of format: {tflops, source}");
    for (const auto& [format, p] : d["peaks"].items()) {
        const std::string pw = at + "peaks." + format + ".";
        if (!p.is_object()) refuse(pw, "not an object {tflops, source}");
        e.peaks[format] = {positive(p, "tflops", pw), text(p, "source", pw, true),
                           text(p, "note", pw, false)};
    }
    return e;
}

ModelFlops readModel(const nlohmann::json& m, const std::string& where) {
    if (!m.is_object()) refuse(where, "not an object");
    ModelFlops f;
    f.id = text(m, "id", where + ".", true);
    const std::string at = where + " (" + f.id + ").";
    f.aliases = strings(m, "aliases", at);
    f.flopsPerSample = positive(m, "flops_per_sample", at);
    f.per = text(m, "per", at, false);
    if (m.contains("parameters")) f.parameters = positive(m, "parameters", at);
    f.source = text(m, "source", at, true);
    f.derivation = text(m, "derivation", at, true);
    return f;
}

bool wordBoundary(std::string_view text, std::size_t at) {
    return at >= text.size() || !(std::isalnum(static_cast<unsigned char>(text[at])) ||
                                  text[at] == '-' || text[at] == '_');
}

} // namespace

const DeviceCatalog& DeviceCatalog::builtin() {
    static const DeviceCatalog catalog = [] {
        std::string error;
        auto c = fromJson(embedded::peak_catalogue, {}, &error);
        // The built-in file is tested; a broken one must not pass silently.
        if (!c) throw std::logic_error("resources/peak-catalogue.json: " + error);
        return *c;
    }();
    return catalog;
}

std::optional<DeviceCatalog>
DeviceCatalog::fromJson(std::string_view json, const std::string& origin, std::string* error) {
    try {
        const auto j = nlohmann::json::parse(json);
        if (!j.is_object()) refuse("the document", "not an object");
        DeviceCatalog c;
        if (j.contains("sources")) {
            if (!j["sources"].is_object()) refuse("sources", "not an object");
            for (const auto& [id, s] : j["sources"].items()) {
                if (!s.is_object()) refuse("sources." + id, "not an object");
                c.m_sources[id] = {text(s, "title", "sources." + id + ".", true),
                                   text(s, "url", "sources." + id + ".", false),
                                   text(s, "where", "sources." + id + ".", false)};
            }
        }
        for (const char* list : {"devices", "models"}) {
            if (j.contains(list) && !j[list].is_array()) refuse(list, "not a list");
        }
        if (j.contains("devices"))
            for (std::size_t i = 0; i < j["devices"].size(); ++i) {
                c.m_devices.push_back(
                    readDevice(j["devices"][i], "devices[" + std::to_string(i) + "]"));
                c.m_devices.back().origin = origin;
            }
        if (j.contains("models"))
            for (std::size_t i = 0; i < j["models"].size(); ++i) {
                c.m_models.push_back(
                    readModel(j["models"][i], "models[" + std::to_string(i) + "]"));
                c.m_models.back().origin = origin;
            }
        return c;
    } catch (const Refusal& r) {
        if (error) *error = r.what;
    } catch (const nlohmann::json::exception& e) {
        if (error) *error = std::string("not JSON: ") + e.what();
    }
    return std::nullopt;
}

bool DeviceCatalog::addFile(const std::filesystem::path& file, std::string* error) {
    const auto text = readCatalogueFile(file, error);
    if (!text) return false;
    std::string why;
    auto user = fromJson(*text, file.string(), &why);
    if (!user) {
        if (error) *error = file.string() + ": " + why;
        return false;
    }
    // The user's entries first: the first match wins, so theirs replace ours.
    user->m_devices.insert(user->m_devices.end(), m_devices.begin(), m_devices.end());
    user->m_models.insert(user->m_models.end(), m_models.begin(), m_models.end());
    user->m_sources.insert(m_sources.begin(), m_sources.end()); // keeps the user's on a clash
    *this = std::move(*user);
    return true;
}

const DeviceEntry* DeviceCatalog::findDevice(std::string_view name) const {
    const std::string want = comparable(name);
    if (want.empty()) return nullptr;
    for (const auto& d : m_devices) {
        if (comparable(d.id) == want) return &d;
        for (const auto& n : d.names)
            if (comparable(n) == want) return &d;
    }
    return nullptr;
}

const DeviceEntry* DeviceCatalog::deviceInText(std::string_view text) const {
    const std::string hay = lower(text);
    for (const auto& d : m_devices)
        for (const auto& n : d.names) {
            const std::string needle = lower(trimmed(n));
            for (auto at = hay.find(needle); at != std::string::npos;
                 at = hay.find(needle, at + 1)) {
                if ((at == 0 || wordBoundary(hay, at - 1)) && wordBoundary(hay, at + needle.size()))
                    return &d;
            }
        }
    return nullptr;
}

const ModelFlops* DeviceCatalog::findModel(std::string_view model) const {
    const std::string want = lower(trimmed(model));
    for (const auto& m : m_models) {
        if (lower(m.id) == want) return &m;
        for (const auto& a : m.aliases)
            if (lower(a) == want) return &m;
    }
    return nullptr;
}

const CatalogueSource* DeviceCatalog::source(std::string_view id) const {
    const auto it = m_sources.find(id);
    return it == m_sources.end() ? nullptr : &it->second;
}

} // namespace sv
