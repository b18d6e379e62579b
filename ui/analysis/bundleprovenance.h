#pragma once
// Where the campaign shown came from when it was opened from a .svbundle: verified or not, why
// not, and who bundled it when; and the words every page and export carries for it, so a bundle
// that is not verified is never shown or written out as good.

#include <QString>
#include <QStringList>

namespace sv::ui {

struct BundleProvenance {
    QString bundle;   // the .svbundle opened
    QString folder;   // the private folder it was extracted into
    QString campaign; // the campaign folder in it, the one shown
    bool verified = false;
    QStringList reasons; // what keeps it from being verified, the first first
    QStringList notes;   // said, but no reason to doubt (another ScaleView version)
    QString createdBy, created, scaleviewVersion, signedBy;
    int files = 0;

    bool isOpen() const { return !bundle.isEmpty(); }
    // "NOT VERIFIED: <bundle>: <first reason> (and 3 more)": one line for a chart's title, a CSV
    // comment, the window's title. "verified: …" for a verified bundle.
    QString mark() const;
    // The banner's text: the verdict, the first reasons (or the origin), in a few lines.
    QString bannerText() const;
    // Every reason and note, one a line (the banner's tooltip and its details).
    QString details() const;
    // "bundled by tester@site-a on 2026-12-06T00:00:00Z with ScaleView 1.2, signed with …".
    QString origin() const;
};

} // namespace sv::ui
