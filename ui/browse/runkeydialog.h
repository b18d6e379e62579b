#pragma once
// "Set batch, GPUs, precision… for this log": the keys a log does not state (batch "?", GPUs
// unknown) or states wrongly, set by the user and written into the scaleview.json beside it
// (core/load/sidecarwriter.h) off the GUI thread. The fields start from the run's current key;
// only the fields the user changes are written. A write that fails leaves the dialog open with the
// reason, the user's file as it was.

#ifndef Q_MOC_RUN
#include "core/load/runidentity.h"
#include "core/model/runkey.h"
#endif

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace sv::ui {

class RunKeyDialog : public QDialog {
    Q_OBJECT
  public:
    // log: the log's absolute path; root: the directory open (sidecars are looked for up to it).
    RunKeyDialog(const QString& log, const QString& root, const RunKey& key,
                 QWidget* parent = nullptr);

    QSpinBox* nodesBox() const { return m_nodes; }
    QSpinBox* gpusPerNodeBox() const { return m_gpusPerNode; }
    QSpinBox* batchBox() const { return m_batch; }
    QComboBox* precisionBox() const { return m_precision; }
    QLineEdit* modelEdit() const { return m_model; }
    QLabel* whereLabel() const { return m_where; }
    QLabel* errorLabel() const { return m_error; }
    QPushButton* saveButton() const;
    // The scaleview.json written to.
    const QString& sidecar() const { return m_sidecar; }
    // The fields changed from the run's key, as they will be written.
    SidecarEntry changes() const;
    // Writes changes() on a worker thread; saved() or failed() follows.
    void save();

  signals:
    void saved(const QString& sidecar);
    void failed(const QString& error);

  private:
    void lockWhatTheLogOrPathSays(const RunKey& key);
    void buildForm(const RunKey& key);

    QString m_log, m_root, m_sidecar;
    RunKey m_key;
    QSpinBox* m_nodes;
    QSpinBox* m_gpusPerNode;
    QSpinBox* m_batch;
    QComboBox* m_precision;
    QLineEdit* m_model;
    QLabel* m_where;
    QLabel* m_error;
    QDialogButtonBox* m_buttons;
    bool m_saving = false;
};

} // namespace sv::ui
