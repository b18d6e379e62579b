#include "ui/window/bundleopener.h"

#include "async/backgroundtask.h"
#include "launcher/session/campaignbundle.h"

#include <QDir>
#include <QFileInfo>

#include <filesystem>
#include <system_error>

namespace sv::ui {
namespace {

namespace fs = std::filesystem;

struct Checked {
    BundleProvenance provenance;
    QString refusal; // empty: opened
};

QStringList toList(const std::vector<std::string>& v) {
    QStringList out;
    for (const auto& s : v)
        out << QString::fromStdString(s);
    return out;
}

void removeFolder(const QString& folder) {
    if (folder.isEmpty()) return;
    std::error_code ec;
    fs::remove_all(folder.toStdString(), ec);
}

// Blocking: reads, extracts and recomputes the whole bundle, and runs ssh-keygen when signed.
Checked check(const QString& bundle) {
    Checked out;
    out.provenance.bundle = bundle;
    std::string error;
    const auto folder = makePrivateFolder(&error);
    if (!folder) {
        out.refusal = QString::fromStdString(error);
        return out;
    }
    const CampaignBundleCheck c =
        checkCampaignBundle(bundle.toStdString(), *folder, SCALEVIEW_UI_VERSION);
    const OpenedBundle& opened = c.verdict.opened;
    out.provenance.folder = QString::fromStdString(folder->string());
    if (opened.refused) {
        out.refusal = QString::fromStdString(*opened.refused);
        removeFolder(out.provenance.folder);
        return out;
    }
    BundleProvenance& p = out.provenance;
    p.campaign = QString::fromStdString((opened.folder / "campaign").string());
    p.verified = c.verified();
    p.reasons = toList(c.reasons);
    p.notes = toList(c.verdict.notes);
    p.createdBy = QString::fromStdString(opened.manifest.createdBy);
    p.created = QString::fromStdString(opened.manifest.created);
    p.scaleviewVersion = QString::fromStdString(opened.manifest.scaleviewVersion);
    p.signedBy = QString::fromStdString(c.signedBy);
    p.files = static_cast<int>(opened.manifest.files.size());
    return out;
}

} // namespace

BundleOpener::BundleOpener(QObject* parent) : QObject(parent) {}

BundleOpener::~BundleOpener() {
    // The app is ending: the folder goes now, there is no later.
    removeFolder(m_current.folder);
}

bool BundleOpener::isBundle(const QString& path) {
    return path.endsWith(QLatin1String(".svbundle"), Qt::CaseInsensitive) &&
           QFileInfo(path).isFile();
}

void BundleOpener::open(const QString& bundle) {
    const quint64 generation = ++m_generation;
    m_opening = true;
    const QString path = QFileInfo(bundle).absoluteFilePath();
    emit started(path);
    async::runInBackground(
        this, [path] { return check(path); },
        [this, generation](Checked c) { finish(generation, std::move(c.provenance), c.refusal); });
}

void BundleOpener::finish(quint64 generation, BundleProvenance result, const QString& refusal) {
    if (generation != m_generation) {
        // Another bundle was asked for meanwhile: this one's folder is nobody's.
        const QString stale = result.folder;
        if (refusal.isEmpty())
            async::runInBackground(
                this, [stale] { return (removeFolder(stale), 0); }, [](int) {});
        return;
    }
    m_opening = false;
    if (!refusal.isEmpty()) {
        emit refused(result.bundle, refusal);
        return;
    }
    close();
    m_current = std::move(result);
    emit opened(m_current);
}

void BundleOpener::close() {
    const QString folder = std::exchange(m_current, BundleProvenance{}).folder;
    if (!folder.isEmpty())
        async::runInBackground(
            this, [folder] { return (removeFolder(folder), 0); }, [](int) {});
}

} // namespace sv::ui
