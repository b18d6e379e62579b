#pragma once
// The Results table: sortable, copyable (Ctrl+C copies the selection as tab-separated text,
// headers included, ready for a spreadsheet).

#include "analysis.h"

#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace sv::ui {

class CaseTableModel;

class ResultsPage : public QWidget {
    Q_OBJECT
  public:
    explicit ResultsPage(QWidget* parent = nullptr);

    void setAnalysis(const AnalysisPtr& analysis);
    CaseTableModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    QString caption() const;
    QString selectionText() const; // what Copy puts on the clipboard
    void copySelection() const;

  private:
    CaseTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLabel* m_caption;
};

} // namespace sv::ui
