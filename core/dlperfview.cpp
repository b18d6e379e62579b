#include "dlperfview.h"

namespace sv {

DlperfView dlperfView(const Summary& in, Method method) {
    DlperfView view;
    view.summary = in;
    for (const auto& r : in.runs)
        if (!r.key.format.empty()) {
            view.format = findLogFormat(r.key.format);
            break;
        }
    if (!view.format) view.format = &ngcMxnetFormat();
    const LogFormat& f = *view.format;
    std::string_view script = method == Method::Time ? f.timeScript : f.speedScript;
    if (script.empty()) {
        // DLPerf has one script for this format: that one is what the user can compare with.
        script = method == Method::Time ? f.speedScript : f.timeScript;
        method = method == Method::Time ? Method::Speed : Method::Time;
        view.notes.push_back(
            "DLPerf has no --method " +
            std::string(methodName(method == Method::Time ? Method::Speed : Method::Time)) +
            " script for " + std::string(f.id) + "; this is " + std::string(script) + "'s output");
    }
    view.script = std::string(script);
    view.summary.options.method = method;
    for (auto& r : view.summary.runs) {
        if (r.dlperfThroughput) {
            // The script's figure replaces ScaleView's; a file it records 0 for counts as 0.
            r.status = RunStatus::Complete;
            r.timeThroughput = r.speedThroughput = r.dlperfThroughput;
        } else if (!r.dlperfNote.empty()) {
            // A script that skips the file (MindSpore's "cost time is 0") prints the others.
            const bool fileOnly = r.dlperfNote.find("records no entry") != std::string::npos;
            view.notes.push_back(r.path + ": " + r.dlperfNote +
                                 (fileOnly ? ": ScaleView leaves this run out too"
                                           : ": the script prints nothing for this directory; "
                                             "ScaleView leaves this run out"));
            r.status = RunStatus::Unusable;
        }
    }
    recomputeCases(view.summary);
    return view;
}

} // namespace sv
