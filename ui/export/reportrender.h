#pragma once
// A report page (the XHTML `report` writes) drawn to an image without a browser: Qt's rich-text
// engine lays out the text and tables, and each inline SVG chart, which that engine cannot
// draw, is rendered with Qt SVG and put in its place. For documentation screenshots where no
// headless browser is installed.

#include <QImage>
#include <QString>

namespace sv::ui {

class ReportRender {
  public:
    // width: the page's width in pixels; the image is as tall as the page, up to maxHeight.
    static QImage render(const QString& html, int width, int maxHeight);
};

} // namespace sv::ui
