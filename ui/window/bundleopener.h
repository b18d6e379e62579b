#pragma once
// Opens a .svbundle off the GUI thread: a private folder made, the bundle checked the whole way
// (launcher/session/campaignbundle.h: every file, the recomputed figures, the signature) and
// extracted into it. The folder of the bundle shown lives as long as it is shown: another
// bundle opened, close(), or the opener's end removes it. A bundle opened while another is
// being checked drops the stale result.

#include "ui/analysis/bundleprovenance.h"

#include <QObject>

namespace sv::ui {

class BundleOpener : public QObject {
    Q_OBJECT
  public:
    explicit BundleOpener(QObject* parent = nullptr);
    ~BundleOpener() override;

    void open(const QString& bundle);
    // The bundle shown is no longer: its folder goes (off the GUI thread).
    void close();
    bool isOpening() const { return m_opening; }
    // The bundle shown (isOpen() false when none).
    const BundleProvenance& current() const { return m_current; }
    // What ends the file name of a bundle.
    static bool isBundle(const QString& path);

  signals:
    void started(const QString& bundle);
    // Checked and extracted, verified or not: provenance.campaign is the folder to show.
    void opened(const sv::ui::BundleProvenance& provenance);
    // Not opened at all (unsafe, malformed, truncated, a future version): nothing is shown.
    void refused(const QString& bundle, const QString& reason);

  private:
    void finish(quint64 generation, BundleProvenance result, const QString& refusal);

    BundleProvenance m_current;
    quint64 m_generation = 0;
    bool m_opening = false;
};

} // namespace sv::ui
