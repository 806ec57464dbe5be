#pragma once

#include "core/session/debugsources.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QToolButton;

namespace ps {

class DebugSession;

/// Chooses where the next debug session takes its inputs (bundle .npy, random with a seed,
/// zeros, ones, a .npy folder, an image file) and parameters (bundle .npy, the .pdiparams next to
/// the program, a chosen .pdiparams file or .npy folder, random). Kinds the target cannot offer
/// are listed disabled with the reason. OK checks that the chosen paths exist; what is inside
/// them is checked when the session starts (errors go to the debugger's status).
class DebugSourcesDialog : public QDialog
{
    Q_OBJECT

public:
    explicit DebugSourcesDialog(const DebugSession *session, QWidget *parent = nullptr);

    /// The choice in the widgets.
    DebugSources sources() const;
    void setSources(const DebugSources &sources);
    /// Empty when the choice can be applied, else why not (also shown in the dialog).
    QString validate() const;

    QComboBox *inputsCombo() const { return m_inputs; }
    QComboBox *paramsCombo() const { return m_params; }
    QLineEdit *inputsPathEdit() const { return m_inputsPath; }
    QLineEdit *paramsPathEdit() const { return m_paramsPath; }
    QCheckBox *normalizeCheck() const { return m_normalize; }
    QSpinBox *seedSpin() const { return m_seed; }
    QLabel *errorLabel() const { return m_error; }

    void accept() override;

private:
    QComboBox *makeCombo(bool params);
    void selectKind(QComboBox *combo, DebugSources::Kind kind);
    static DebugSources::Kind kindOf(const QComboBox *combo);
    void updateRows();
    void browse(bool params);

    const DebugSession *m_session;
    QComboBox *m_inputs;
    QLineEdit *m_inputsPath;
    QToolButton *m_inputsBrowse;
    QCheckBox *m_normalize;
    QComboBox *m_params;
    QLineEdit *m_paramsPath;
    QToolButton *m_paramsBrowse;
    QSpinBox *m_seed;
    QLabel *m_error;
};

} // namespace ps
