#pragma once
// The controls every view follows: method, measured window, case group, reference overlays.
// Emits the edited options; reflects each new Analysis without echoing it back.

#include "analysis.h"

#include <QWidget>

class QComboBox;
class QTreeView;
class QSpinBox;

namespace sv::ui {

class ReferenceListModel;

class ControlPanel : public QWidget {
    Q_OBJECT
  public:
    explicit ControlPanel(QWidget* parent = nullptr);

    void setOptions(const AnalysisOptions& options);
    void setAnalysis(const AnalysisPtr& analysis);
    AnalysisOptions options() const { return m_options; }

    QComboBox* methodBox() const { return m_method; }
    QComboBox* groupBox() const { return m_group; }
    QSpinBox* warmupBox() const { return m_warmup; }
    QSpinBox* iterationsBox() const { return m_iterations; }
    ReferenceListModel* references() const { return m_references; }
    QTreeView* referenceView() const { return m_referenceView; }

  signals:
    void optionsEdited(const sv::ui::AnalysisOptions& options);

  private:
    void edited();

    AnalysisOptions m_options;
    std::vector<CaseGroup> m_groups;
    bool m_updating = false;
    QComboBox* m_method;
    QSpinBox* m_warmup;
    QSpinBox* m_iterations;
    QComboBox* m_group;
    ReferenceListModel* m_references;
    QTreeView* m_referenceView;
};

} // namespace sv::ui
