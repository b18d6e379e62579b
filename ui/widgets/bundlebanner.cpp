#include "ui/widgets/bundlebanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>

namespace sv::ui {

BundleBanner::BundleBanner(QWidget* parent)
    : QFrame(parent), m_text(new QLabel(this)),
      m_reasons(new QPushButton(tr("All Reasons…"), this)) {
    setObjectName(QStringLiteral("bundleBanner"));
    m_reasons->setObjectName(QStringLiteral("bundleReasons"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_reasons, 0, Qt::AlignTop);
    connect(m_reasons, &QPushButton::clicked, this, &BundleBanner::showReasons);
    hide();
}

void BundleBanner::showProvenance(const BundleProvenance& p) {
    if (!p.isOpen()) {
        hide();
        return;
    }
    m_notVerified = !p.verified;
    m_details = p.details();
    // Fixed colours, not the palette's tooltip roles: red and green are the message here. Text
    // and background are set together, so a dark theme stays readable.
    QPalette palette = this->palette();
    palette.setColor(QPalette::Window,
                     m_notVerified ? QColor(0xfd, 0xe7, 0xea) : QColor(0xe8, 0xf5, 0xe9));
    palette.setColor(QPalette::WindowText,
                     m_notVerified ? QColor(0x8b, 0x00, 0x1a) : QColor(0x1b, 0x5e, 0x20));
    setPalette(palette);
    QFont font = m_text->font();
    font.setBold(m_notVerified);
    m_text->setFont(font);
    m_text->setText(p.bannerText());
    setToolTip(m_details);
    m_text->setToolTip(m_details);
    m_reasons->setText(m_notVerified ? tr("All Reasons…") : tr("Details…"));
    show();
}

QString BundleBanner::text() const {
    return m_text->text();
}

void BundleBanner::showReasons() {
    auto* box = new QMessageBox(m_notVerified ? QMessageBox::Warning : QMessageBox::Information,
                                m_notVerified ? tr("Bundle not verified") : tr("Bundle verified"),
                                m_details.section(QLatin1Char('\n'), 0, 0), QMessageBox::Ok, this);
    box->setDetailedText(m_details);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open(); // not exec(): the window goes on
}

} // namespace sv::ui
