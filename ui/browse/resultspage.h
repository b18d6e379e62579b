#pragma once
// The Results table: sortable, copyable (Ctrl+C copies the selection as tab-separated text,
// headers included, ready for a spreadsheet). With several series, the comparison table above it.

#include "ui/analysis/analysis.h"
#include "ui/analysis/devicewords.h"

#include <QWidget>

#include <set>
#include <string>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace sv::ui {

class CaseTableModel;
class ComparisonTableModel;

class ResultsPage : public QWidget {
    Q_OBJECT
  public:
    explicit ResultsPage(QWidget* parent = nullptr);

    void setAnalysis(const AnalysisPtr& analysis);
    CaseTableModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    // With several series (directories, or frameworks): each case's medians, ratio and verdict.
    ComparisonTableModel* comparisonModel() const { return m_comparisonModel; }
    QTableView* comparisonView() const { return m_comparisonView; }
    QString comparisonCaption() const;
    QString caption() const;
    QString selectionText() const; // what Copy puts on the clipboard
    void copySelection() const;
    void fitComparisonColumns();

  private:
    void setCaption(const Analysis& analysis, const std::set<std::string>& formats,
                    const DeviceWords& words);

    CaseTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLabel* m_caption;
    ComparisonTableModel* m_comparisonModel;
    QSortFilterProxyModel* m_comparisonProxy;
    QTableView* m_comparisonView;
    QLabel* m_comparisonCaption;
    QWidget* m_comparisonBox;
};

} // namespace sv::ui
