#include "core/model/runresult.h"

namespace sv {

std::string_view methodName(Method m) {
    return m == Method::Time ? "time" : "speed";
}

std::optional<Method> parseMethod(std::string_view name) {
    if (name == "time") return Method::Time;
    if (name == "speed") return Method::Speed;
    return std::nullopt;
}

std::string_view statusName(RunStatus s) {
    switch (s) {
    case RunStatus::Complete:
        return "complete";
    case RunStatus::Incomplete:
        return "incomplete";
    case RunStatus::Unusable:
        return "unusable";
    case RunStatus::Empty:
        return "empty";
    case RunStatus::Unreadable:
        return "unreadable";
    }
    return "unknown";
}

} // namespace sv
