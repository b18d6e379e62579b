#pragma once
// What the user chose to see: method, measured window, case group and reference overlays.
// Changing any of it recomputes from the RunLogs in memory, never from the files.

#include "core/stats/casestats.h"
#include "core/model/runresult.h"

#include "core/reference/referencecatalog.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sv::ui {

// One model / precision / batch size: what a chart or the Results table shows at a time. format
// picks one framework (log format) of a tree holding several; empty takes every framework, which
// in such a tree is the Compare frameworks view.
struct CaseGroup {
    std::string model;
    std::string precision;
    int batchPerDevice = 0;
    std::string format = {};
    bool contains(const CaseKey& k) const {
        return k.model == model && k.precision == precision && k.batchPerDevice == batchPerDevice &&
               (format.empty() || k.format == format);
    }
    std::string label() const {
        // A batch nobody states is "?", never "batch 0".
        return model + " " + precision + ", batch " +
               (batchPerDevice > 0 ? std::to_string(batchPerDevice) : std::string("?"));
    }
    bool operator==(const CaseGroup&) const = default;
};

struct AnalysisOptions {
    MeasureOptions measure;
    // Where measure comes from, said in exports: "dlperf", "campaign" (campaignFile's), "user".
    std::string windowSource;
    std::string campaignFile;
    Method method = Method::Time;
    std::optional<CaseGroup> group; // none, or not in the data: the first group
    // Overlays, "TABLE_ID" or "TABLE_ID:SERIES"; the first is also the Results table's
    // reference. With autoReferences the table matching the group's precision and batch is used.
    std::vector<std::string> references;
    bool autoReferences = true;
    // Leave the runs the launcher's monitor marked disturbed out of the statistics.
    bool excludeDisturbed = false;
    // The tables to compare with: the built-in ones, the user's saved ones and those imported
    // (File › Import Reference Table…); null: the built-in ones only.
    std::shared_ptr<const ReferenceCatalog> catalog;
    const ReferenceCatalog& referenceCatalog() const {
        return catalog ? *catalog : ReferenceCatalog::builtin();
    }
};

} // namespace sv::ui
