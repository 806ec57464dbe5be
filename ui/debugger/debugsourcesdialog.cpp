#include "ui/debugger/debugsourcesdialog.h"

#include "core/io/memorybudget.h"
#include "ui/common/dialogdirectory.h"
#include "ui/common/themecolors.h"
#include "ui/debugger/debugsession.h"
#include "ui/debugger/memorylimitsetting.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>

namespace ps {
namespace {

using Kind = DebugSources::Kind;

const QList<Kind> kAllKinds { Kind::Bundle, Kind::Pdiparams, Kind::PdiparamsFile, Kind::NpyDirectory,
    Kind::Image, Kind::Random, Kind::Zeros, Kind::Ones };

QWidget *pathRow(QLineEdit *edit, QToolButton *browse, QWidget *parent)
{
    auto *row = new QWidget(parent);
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(edit, 1);
    layout->addWidget(browse);
    return row;
}

} // namespace

DebugSourcesDialog::DebugSourcesDialog(const DebugSession *session, QWidget *parent)
    : QDialog(parent)
    , m_session(session)
    , m_inputs(makeCombo(false))
    , m_inputsPath(new QLineEdit(this))
    , m_inputsBrowse(new QToolButton(this))
    , m_normalize(new QCheckBox(tr("Normalise with the ImageNet mean/std (else [0, 1])"), this))
    , m_params(makeCombo(true))
    , m_paramsPath(new QLineEdit(this))
    , m_paramsBrowse(new QToolButton(this))
    , m_seed(new QSpinBox(this))
    , m_memoryLimit(new QLineEdit(this))
    , m_error(new QLabel(this))
{
    setWindowTitle(tr("Inputs and Parameters"));
    setObjectName(QStringLiteral("debugSourcesDialog"));
    m_inputs->setObjectName(QStringLiteral("inputsKind"));
    m_params->setObjectName(QStringLiteral("paramsKind"));
    m_inputsPath->setObjectName(QStringLiteral("inputsPath"));
    m_paramsPath->setObjectName(QStringLiteral("paramsPath"));
    m_inputsPath->setClearButtonEnabled(true);
    m_paramsPath->setClearButtonEnabled(true);
    m_inputsBrowse->setText(tr("Browse…"));
    m_paramsBrowse->setText(tr("Browse…"));
    m_normalize->setToolTip(
        tr("The image is resized bilinearly to the input's height and width, scaled to [0, 1] and "
           "then normalised per channel with mean (0.485, 0.456, 0.406) and std (0.229, 0.224, 0.225)"));
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_seed->setToolTip(tr("Seed of the random inputs and parameters"));
    m_memoryLimit->setObjectName(QStringLiteral("memoryLimit"));
    m_memoryLimit->setClearButtonEnabled(true);
    m_memoryLimit->setPlaceholderText(MemoryLimitSetting::defaultText());
    m_memoryLimit->setText(MemoryLimitSetting::stored());
    m_memoryLimit->setToolTip(
        tr("Most host memory the tensors of a session may take (4G, 512M, 50%); an op or file that needs "
           "more stops with an error instead of exhausting the machine. Now: %1")
            .arg(MemoryLimitSetting::currentText()));
    m_error->setObjectName(QStringLiteral("sourcesError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: %1").arg(ThemeColors::css(ThemeColors::current().error)));
    m_error->hide();

    auto *form = new QFormLayout;
    form->addRow(tr("Inputs:"), m_inputs);
    form->addRow(QString(), pathRow(m_inputsPath, m_inputsBrowse, this));
    form->addRow(QString(), m_normalize);
    form->addRow(tr("Parameters:"), m_params);
    form->addRow(QString(), pathRow(m_paramsPath, m_paramsBrowse, this));
    form->addRow(tr("Random seed:"), m_seed);
    // The default's explanation wraps under the field: a placeholder that long was cut off.
    auto *memoryNote = new QLabel(MemoryLimitSetting::defaultNote(), this);
    memoryNote->setObjectName(QStringLiteral("memoryLimitNote"));
    memoryNote->setWordWrap(true);
    memoryNote->setEnabled(false); // drawn dimmed: a hint, not a control
    auto *memoryCell = new QWidget(this);
    auto *memoryLayout = new QVBoxLayout(memoryCell);
    memoryLayout->setContentsMargins(0, 0, 0, 0);
    memoryLayout->setSpacing(0);
    memoryLayout->addWidget(m_memoryLimit);
    memoryLayout->addWidget(memoryNote);
    form->addRow(tr("Memory limit:"), memoryCell);
    buildShapeRows(form);

    auto *note = new QLabel(tr("Applied when the next session starts; a running session ends."), this);
    note->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(m_error);
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::accepted, this, &DebugSourcesDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &DebugSourcesDialog::reject);
    connect(m_inputs, &QComboBox::currentIndexChanged, this, &DebugSourcesDialog::updateRows);
    connect(m_params, &QComboBox::currentIndexChanged, this, &DebugSourcesDialog::updateRows);
    // An error speaks of what was refused: it goes as soon as the user changes anything.
    for (QComboBox *combo : { m_inputs, m_params })
        connect(combo, &QComboBox::currentIndexChanged, m_error, &QLabel::hide);
    for (QLineEdit *edit : { m_inputsPath, m_paramsPath, m_memoryLimit })
        connect(edit, &QLineEdit::textEdited, m_error, &QLabel::hide);
    for (const ShapeRow &row : m_shapeRows) {
        connect(row.edit, &QLineEdit::textEdited, m_error, &QLabel::hide);
        connect(row.edit, &QLineEdit::textEdited, this, &DebugSourcesDialog::updateShapeNotes);
    }
    connect(m_inputsBrowse, &QToolButton::clicked, this, [this] { browse(false); });
    connect(m_paramsBrowse, &QToolButton::clicked, this, [this] { browse(true); });

    setSources(session->sources());
    resize(qMax(sizeHint().width(), 520), sizeHint().height());
    fitHeight();
}

QComboBox *DebugSourcesDialog::makeCombo(bool params)
{
    auto *combo = new QComboBox(this);
    auto *model = new QStandardItemModel(combo);
    for (Kind kind : kAllKinds) {
        if (params ? !DebugSources::forParams(kind) : !DebugSources::forInputs(kind))
            continue;
        auto *item = new QStandardItem(QString::fromStdString(DebugSources::kindText(kind)));
        item->setData(int(kind), Qt::UserRole);
        if (!m_session->sourceAvailable(kind)) {
            item->setFlags(item->flags() & ~(Qt::ItemIsEnabled | Qt::ItemIsSelectable));
            item->setToolTip(kind == Kind::Bundle ? tr("No trace bundle is open")
                                                  : tr("There is no .pdiparams file next to the program"));
        }
        model->appendRow(item);
    }
    combo->setModel(model);
    return combo;
}

void DebugSourcesDialog::selectKind(QComboBox *combo, Kind kind)
{
    const int index = combo->findData(int(kind), Qt::UserRole);
    if (index >= 0)
        combo->setCurrentIndex(index);
}

Kind DebugSourcesDialog::kindOf(const QComboBox *combo)
{
    return Kind(combo->currentData(Qt::UserRole).toInt());
}

void DebugSourcesDialog::setSources(const DebugSources &sources)
{
    selectKind(m_inputs, sources.inputs);
    selectKind(m_params, sources.params);
    m_inputsPath->setText(QString::fromStdString(sources.inputsPath));
    m_paramsPath->setText(QString::fromStdString(sources.paramsPath));
    m_normalize->setChecked(sources.imageNetNormalization);
    m_seed->setValue(int(qMin<quint64>(quint64(sources.seed), quint64(std::numeric_limits<int>::max()))));
    updateRows();
}

DebugSources DebugSourcesDialog::sources() const
{
    DebugSources s;
    s.inputs = kindOf(m_inputs);
    s.params = kindOf(m_params);
    s.seed = quint64(m_seed->value());
    if (DebugSources::needsPath(s.inputs))
        s.inputsPath = m_inputsPath->text().trimmed().toStdString();
    if (DebugSources::needsPath(s.params))
        s.paramsPath = m_paramsPath->text().trimmed().toStdString();
    s.imageNetNormalization = m_normalize->isChecked();
    shapesFromFields(s.shapes, nullptr);
    return s;
}

QString DebugSourcesDialog::validate() const
{
    const DebugSources s = sources();
    auto check = [](Kind kind, const QString &path, const QString &what) -> QString {
        if (!DebugSources::needsPath(kind))
            return {};
        if (path.isEmpty())
            return tr("%1: choose a %2.").arg(what, kind == Kind::NpyDirectory ? tr("folder") : tr("file"));
        const QFileInfo info(path);
        if (kind == Kind::NpyDirectory && !info.isDir())
            return tr("%1: %2 is not a folder.").arg(what, path);
        if (kind != Kind::NpyDirectory && !info.isFile())
            return tr("%1: there is no file %2.").arg(what, path);
        return {};
    };
    QString error = check(s.inputs, QString::fromStdString(s.inputsPath), tr("Inputs"));
    if (error.isEmpty())
        error = check(s.params, QString::fromStdString(s.paramsPath), tr("Parameters"));
    std::map<std::string, std::vector<int64_t>> shapes;
    if (error.isEmpty() && !shapesFromFields(shapes, &error))
        return error;
    if (error.isEmpty()) {
        std::vector<std::string> errors;
        for (const InputShape &shape : s.inputShapes(m_session->target(), errors))
            if (!shape.resolved())
                return tr("Shape of %1: this input has dynamic dims (%2) and no default; enter its shape, "
                          "e.g. %3.")
                    .arg(QString::fromStdString(shape.name),
                        QString::fromStdString(InputShapes::dimsText(shape.declared)),
                        QString::fromStdString(InputShapes::example(shape).substr(shape.name.size() + 1)));
    }
    std::string why;
    if (error.isEmpty() && !m_memoryLimit->text().trimmed().isEmpty()
        && !MemoryBudget::parseSize(m_memoryLimit->text().trimmed().toStdString(), why))
        error = tr("Memory limit: %1").arg(QString::fromStdString(why));
    return error;
}

void DebugSourcesDialog::accept()
{
    const QString error = validate();
    showError(error);
    if (error.isEmpty() && MemoryLimitSetting::apply(m_memoryLimit->text()))
        QDialog::accept();
}

void DebugSourcesDialog::updateRows()
{
    const Kind inputs = kindOf(m_inputs);
    const Kind params = kindOf(m_params);
    m_inputsPath->parentWidget()->setVisible(DebugSources::needsPath(inputs));
    m_paramsPath->parentWidget()->setVisible(DebugSources::needsPath(params));
    m_normalize->setVisible(inputs == Kind::Image);
    m_inputsPath->setPlaceholderText(inputs == Kind::Image ? tr("image file (.png, .jpg, .bmp, .ppm, .pgm)")
                                                           : tr("folder of <input name>.npy files"));
    m_paramsPath->setPlaceholderText(
        params == Kind::PdiparamsFile ? tr(".pdiparams file") : tr("folder of <parameter name>.npy files"));
    m_seed->setEnabled(inputs == Kind::Random || inputs == Kind::Image || params == Kind::Random);
    updateShapeNotes();
}

void DebugSourcesDialog::browse(bool params)
{
    const Kind kind = kindOf(params ? m_params : m_inputs);
    QLineEdit *edit = params ? m_paramsPath : m_inputsPath;
    const QString start
        = edit->text().isEmpty() ? DialogDirectory::get(QStringLiteral("inputs")) : edit->text();
    QString path;
    if (kind == Kind::NpyDirectory)
        path = QFileDialog::getExistingDirectory(this, tr("Folder of .npy files"), start);
    else if (kind == Kind::Image)
        path = QFileDialog::getOpenFileName(this, tr("Input image"), start,
            tr("Images (*.png *.jpg *.jpeg *.bmp *.ppm *.pgm *.pnm);;All files (*)"));
    else if (kind == Kind::PdiparamsFile)
        path = QFileDialog::getOpenFileName(
            this, tr("Parameters"), start, tr("Paddle parameters (*.pdiparams);;All files (*)"));
    if (path.isEmpty())
        return;
    DialogDirectory::remember(QStringLiteral("inputs"), path);
    edit->setText(path);
}

void DebugSourcesDialog::buildShapeRows(QFormLayout *form)
{
    const DebugSources current = m_session->sources();
    m_otherShapes = current.shapes;
    for (const InputShape &shape : defaultShapes()) {
        if (!shape.dynamic())
            continue;
        ShapeRow row;
        row.name = shape.name;
        if (shape.resolved())
            row.defaultText = QString::fromStdString(InputShapes::dimsText(shape.shape));
        row.edit = new QLineEdit(this);
        row.edit->setObjectName(QStringLiteral("shape_") + QString::fromStdString(shape.name));
        row.edit->setPlaceholderText(tr("e.g. %1").arg(
            QString::fromStdString(InputShapes::example(shape).substr(shape.name.size() + 1))));
        row.edit->setToolTip(tr("Dims separated by x; the input declares %1 (? is dynamic)")
                                 .arg(QString::fromStdString(InputShapes::dimsText(shape.declared))));
        auto it = current.shapes.find(shape.name);
        row.edit->setText(it != current.shapes.end()
                ? QString::fromStdString(InputShapes::dimsText(it->second))
                : row.defaultText);
        m_otherShapes.erase(shape.name);
        row.note = new QLabel(this);
        row.note->setObjectName(QStringLiteral("shapeNote_") + QString::fromStdString(shape.name));
        row.note->setWordWrap(true);
        row.note->setEnabled(false); // drawn dimmed: a hint, not a control
        auto *cell = new QWidget(this);
        auto *layout = new QVBoxLayout(cell);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->setSpacing(0);
        layout->addWidget(row.edit);
        layout->addWidget(row.note);
        form->addRow(tr("Shape of %1 (%2):")
                         .arg(QString::fromStdString(shape.name),
                             QString::fromStdString(InputShapes::dimsText(shape.declared))),
            cell);
        m_shapeRows.push_back(row);
    }
}

std::vector<InputShape> DebugSourcesDialog::defaultShapes() const
{
    const DebugTarget &target = m_session->target();
    if (!target.inputProgram())
        return {};
    std::vector<std::string> ignored;
    return InputShapes::resolve(*target.inputProgram(), {}, target.config.get(), ignored);
}

QLineEdit *DebugSourcesDialog::shapeEdit(const QString &name) const
{
    for (const ShapeRow &row : m_shapeRows)
        if (QString::fromStdString(row.name) == name)
            return row.edit;
    return nullptr;
}

bool DebugSourcesDialog::shapesFromFields(
    std::map<std::string, std::vector<int64_t>> &shapes, QString *error) const
{
    shapes = m_otherShapes;
    for (const ShapeRow &row : m_shapeRows) {
        const QString text = row.edit->text().trimmed();
        if (text.isEmpty() || text == row.defaultText)
            continue; // the default applies
        std::string why;
        std::optional<std::vector<int64_t>> dims = InputShapes::parseDims(text.toStdString(), why);
        if (!dims) {
            if (error)
                *error = tr("Shape of %1: %2")
                             .arg(QString::fromStdString(row.name), QString::fromStdString(why));
            return false;
        }
        shapes[row.name] = *dims;
    }
    if (!error)
        return true;
    // A shape that does not fit the input (rank, a static dim) is refused here, not at the start.
    DebugSources s;
    s.shapes = shapes;
    std::vector<std::string> errors;
    s.inputShapes(m_session->target(), errors);
    if (!errors.empty()) {
        *error = tr("Shape %1").arg(QString::fromStdString(errors.front()));
        return false;
    }
    return true;
}

void DebugSourcesDialog::updateShapeNotes()
{
    if (m_shapeRows.empty())
        return;
    // What the current choice of inputs does with each input (files, the image, a default).
    DebugSources choice;
    choice.inputs = kindOf(m_inputs);
    choice.inputsPath = m_inputsPath->text().trimmed().toStdString();
    std::vector<std::string> ignored;
    const std::vector<InputShape> shapes = choice.inputShapes(m_session->target(), ignored);
    for (const ShapeRow &row : m_shapeRows) {
        const QString text = row.edit->text().trimmed();
        const auto shape = std::find_if(
            shapes.begin(), shapes.end(), [&](const InputShape &s) { return s.name == row.name; });
        QString note;
        if (shape == shapes.end())
            note.clear();
        else if (!text.isEmpty() && text != row.defaultText)
            note = shape->origin == InputShape::Origin::Files ? tr("chosen: the files must have this shape")
                                                              : tr("chosen");
        else if (shape->resolved())
            note = tr("%1%2").arg(QString::fromLatin1(InputShape::originText(shape->origin)),
                QString::fromStdString(shape->note.empty() ? std::string() : ": " + shape->note));
        else
            note = QString::fromStdString(shape->note);
        row.note->setText(note);
    }
}

void DebugSourcesDialog::showError(const QString &error)
{
    m_error->setText(error);
    m_error->setVisible(!error.isEmpty());
    fitHeight();
}

void DebugSourcesDialog::fitHeight()
{
    // Wrapped labels (the error, the shape notes) need their height for the dialog's width.
    layout()->activate();
    const int height
        = layout()->hasHeightForWidth() ? layout()->totalHeightForWidth(width()) : sizeHint().height();
    if (height > this->height())
        resize(width(), height);
}

void DebugSourcesDialog::askForShapes(const QStringList &inputs)
{
    QStringList fields;
    QLineEdit *first = nullptr;
    for (const QString &name : inputs)
        if (QLineEdit *edit = shapeEdit(name)) {
            fields << name;
            if (!first)
                first = edit;
        }
    showError(fields.isEmpty()
            ? QString()
            : tr("Choose the shape of %1: its dynamic dims have no default.").arg(fields.join(", ")));
    if (first)
        first->setFocus();
}

} // namespace ps
