#pragma once

#include "core/session/debugsources.h"
#include "core/session/inputshapes.h"

#include <QDialog>
#include <map>
#include <vector>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;
class QToolButton;

namespace ps {

class DebugSession;

/// Chooses where the next debug session takes its inputs (bundle .npy, random with a seed,
/// zeros, ones, a .npy folder, an image file) and parameters (bundle .npy, the .pdiparams next to
/// the program, a chosen .pdiparams file or .npy folder, random), the shape of each input with
/// dynamic dims (one field per such input, showing the default: the `.yml` beside the program,
/// batch 1, and where it comes from, empty where there is none) and the host-memory limit (a
/// setting kept across runs). Kinds the target cannot offer are listed disabled with the reason.
/// OK checks that the chosen paths exist, that every input the choice generates has a shape and
/// that the limit is a size, and applies the limit; what is inside the files is checked when the
/// session starts (errors go to the Problems panel).
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
    /// The shape field of input `name`, or nullptr when it has no dynamic dims.
    QLineEdit *shapeEdit(const QString &name) const;
    /// Says that `inputs` need a shape (the start was refused) and focuses the first field.
    void askForShapes(const QStringList &inputs);
    /// The host-memory limit (MemoryLimitSetting): empty for the default.
    QLineEdit *memoryLimitEdit() const { return m_memoryLimit; }

    void accept() override;

private:
    QComboBox *makeCombo(bool params);
    void selectKind(QComboBox *combo, DebugSources::Kind kind);
    static DebugSources::Kind kindOf(const QComboBox *combo);
    void updateRows();
    void browse(bool params);
    void buildShapeRows(QFormLayout *form);
    /// The fields' shapes: chosen where a field differs from its default; false with `error`.
    bool shapesFromFields(std::map<std::string, std::vector<int64_t>> &shapes, QString *error) const;
    void updateShapeNotes();
    void showError(const QString &error);
    /// Grows the dialog to the height its wrapped labels need at its width.
    void fitHeight();
    /// The target's inputs with their default shapes (no choice, whatever the input kind).
    std::vector<InputShape> defaultShapes() const;

    const DebugSession *m_session;
    QComboBox *m_inputs;
    QLineEdit *m_inputsPath;
    QToolButton *m_inputsBrowse;
    QCheckBox *m_normalize;
    QComboBox *m_params;
    QLineEdit *m_paramsPath;
    QToolButton *m_paramsBrowse;
    QSpinBox *m_seed;
    QLineEdit *m_memoryLimit;
    QLabel *m_error;
    struct ShapeRow
    {
        std::string name;
        QLineEdit *edit = nullptr;
        QLabel *note = nullptr;
        QString defaultText; ///< the default shape ("1x3x736x736"), empty when there is none
    };
    std::vector<ShapeRow> m_shapeRows;
    /// Shapes chosen before for inputs this target lacks: kept as they were.
    std::map<std::string, std::vector<int64_t>> m_otherShapes;
};

} // namespace ps
