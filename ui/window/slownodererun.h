#pragma once
// The campaign again without the node the probes named slow (the Speedup page's Rerun without):
// the directory's campaign.json read off the GUI thread, the node taken out with the reason
// kept, and the result on the Run tab, into a fresh output directory, for the user to check and
// run.

#include <QObject>
#include <QString>

class QLabel;

namespace sv::ui {

class LoadController;
class PageStack;

class SlowNodeRerun : public QObject {
    Q_OBJECT
  public:
    SlowNodeRerun(LoadController* loader, PageStack* pages, QLabel* status, QObject* parent);

    void rerunWithout(const QString& node, const QString& why);

  private:
    LoadController* m_loader;
    PageStack* m_pages;
    QLabel* m_status;
};

} // namespace sv::ui
