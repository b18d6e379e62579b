#include "history/campaignrecord.h"

#include "core/load/campaignwindow.h"
#include "core/report/reportdocument.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <charconv>

namespace sv::history {
namespace fs = std::filesystem;

namespace {

// The logs' bytes and relative paths decide the identity: moving or copying a campaign keeps
// it, a log appended to or rerun changes it. Nothing else (window, method) enters it, so the
// same logs read another way are still the same campaign.
std::optional<std::string> contentIdentity(const Summary& s, std::string* newestTime,
                                           std::string* error) {
    std::vector<std::string> paths;
    for (const auto& r : s.runs)
        paths.push_back(r.path);
    std::sort(paths.begin(), paths.end());
    paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
    QCryptographicHash all(QCryptographicHash::Sha256);
    QDateTime newest;
    for (const auto& rel : paths) {
        const QString file = QString::fromStdString((fs::path(s.root) / rel).string());
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly)) {
            *error = "cannot read " + file.toStdString() + ": " + f.errorString().toStdString();
            return std::nullopt;
        }
        QCryptographicHash one(QCryptographicHash::Sha256);
        if (!one.addData(&f)) {
            *error = "cannot read " + file.toStdString();
            return std::nullopt;
        }
        all.addData(QByteArray::fromStdString(rel));
        all.addData(QByteArray(1, '\0'));
        all.addData(one.result());
        const QDateTime m = QFileInfo(file).lastModified();
        if (!newest.isValid() || m > newest) newest = m;
    }
    if (newest.isValid()) *newestTime = newest.toUTC().toString(Qt::ISODate).toStdString();
    return all.result().toHex().toStdString();
}

} // namespace

void addStoredCaseFact(CaseRecord& k, RecordedFact fact) {
    if (fact.what != kDisturbedRunsFact) {
        k.parameters.push_back(std::move(fact));
        return;
    }
    // A count out of range (a hand-edited row) counts as none rather than refusing the case.
    int n = 0;
    const auto [end, error] =
        std::from_chars(fact.value.data(), fact.value.data() + fact.value.size(), n);
    k.disturbed = error == std::errc() && end == fact.value.data() + fact.value.size() && n >= 0 &&
                          n <= k.runs
                      ? n
                      : 0;
}

CampaignReading recordFromSummary(const Summary& s) {
    CampaignReading out;
    for (const auto& w : s.warnings)
        out.warnings.push_back(w.text());
    CampaignRecord r;
    r.path = fs::absolute(s.root).lexically_normal().string();
    fs::path p(r.path);
    if (!p.has_filename()) p = p.parent_path();
    r.label = p.filename().string();
    // A campaign's logs sit in OUT/logs: the campaign is OUT, and so is its name.
    if (const CampaignWindowLookup found = findCampaignWindow(s.root); found.window)
        r.label = fs::path(found.window->file).parent_path().filename().string();
    r.method = std::string(methodName(s.options.method));
    r.warmup = s.load.measure.warmup;
    r.iterations = s.load.measure.iterations;
    for (const auto& c : s.cases) {
        if (!c.median || c.values.empty()) continue;
        // Cases whose GPUs are unknown are apart by their logs (CaseKey::ownCase), which the
        // history's key does not hold: the first is kept, a second of the same key is said.
        if (std::any_of(r.cases.begin(), r.cases.end(), [&](const CaseRecord& k) {
                return k.key.model == c.key.model && k.key.precision == c.key.precision &&
                       k.key.batchPerDevice == c.key.batchPerDevice &&
                       k.key.topology == c.key.topology && k.key.format == c.key.format;
            })) {
            out.warnings.push_back("not recorded: " + c.key.ownCase +
                                   " (GPUs ?): the history keeps one case of unknown GPUs per "
                                   "model, precision and batch; set its GPUs to record it");
            continue;
        }
        CaseRecord cr;
        cr.key = c.key;
        cr.runs = static_cast<int>(c.values.size());
        cr.median = *c.median;
        cr.min = c.min.value_or(*c.median);
        cr.max = c.max.value_or(*c.median);
        cr.mean = c.mean;
        cr.stdev = c.stdev;
        cr.values = c.values;
        cr.parameters = caseParameterFacts(s.root, c);
        for (const RunResult& run : s.runs)
            if (run.disturbed &&
                std::find(c.paths.begin(), c.paths.end(), run.path) != c.paths.end())
                ++cr.disturbed;
        r.cases.push_back(std::move(cr));
    }
    if (r.cases.empty()) {
        out.error = s.root + ": no case with a usable median";
        return out;
    }
    auto identity = contentIdentity(s, &r.time, &out.error);
    if (!identity) return out;
    r.identity = *identity;
    r.environment = summarizeEnvironment(capturedFiles(s.root));
    std::string probeError;
    r.nodeProbes = nodeProbesIn(s.root, &probeError);
    if (!probeError.empty()) out.warnings.push_back("node probes not recorded: " + probeError);
    out.record = std::move(r);
    return out;
}

CampaignReading readCampaign(const fs::path& dir, Method method) {
    LoadOptions load;
    SummaryOptions options;
    options.method = method;
    const CampaignWindowLookup found = findCampaignWindow(dir);
    if (found.window) load.measure = found.window->measure;
    load.measure.formatDefaults = !found.window;
    Summary s = summarizeDirectory(dir, load, options);
    if (s.error) {
        CampaignReading out;
        out.error = *s.error;
        return out;
    }
    if (s.runs.empty()) {
        CampaignReading out;
        out.error = "no DLPerf logs in " + dir.string();
        return out;
    }
    CampaignReading out = recordFromSummary(s);
    if (found.error) out.warnings.insert(out.warnings.begin(), *found.error);
    return out;
}

} // namespace sv::history
