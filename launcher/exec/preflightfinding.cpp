#include "launcher/exec/preflightfinding.h"

namespace sv::launcher {

PreflightHeadline preflightHeadline(const std::vector<PreflightFinding>& findings) {
    PreflightHeadline h;
    const PreflightFinding* firstFailure = nullptr;
    const PreflightFinding* firstWarning = nullptr;
    for (const auto& f : findings) {
        if (!f.ok) {
            if (h.failures++ == 0) firstFailure = &f;
        } else if (f.warning) {
            if (h.warnings++ == 0) firstWarning = &f;
        }
    }
    const auto line = [](const PreflightFinding& f) {
        return f.host + " · " + f.check + ": " + f.message;
    };
    const auto count = [](int n, const char* one, const char* many) {
        return std::to_string(n) + " " + (n == 1 ? one : many);
    };
    if (firstFailure)
        h.text = "Preflight found " + count(h.failures, "problem", "problems") +
                 (h.warnings ? " and " + count(h.warnings, "warning", "warnings") : "") + ". " +
                 line(*firstFailure);
    else if (firstWarning)
        h.text = "Preflight: " + count(static_cast<int>(findings.size()), "check", "checks") +
                 " passed, but with " + count(h.warnings, "warning", "warnings") + ". " +
                 line(*firstWarning);
    else
        h.text = "Preflight: all " + count(static_cast<int>(findings.size()), "check", "checks") +
                 " passed.";
    return h;
}

} // namespace sv::launcher
