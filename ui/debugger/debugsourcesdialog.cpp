#include "ui/debugger/debugsourcesdialog.h"

#include "ui/debugger/debugsession.h"

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
    m_error->setObjectName(QStringLiteral("sourcesError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b"));
    m_error->hide();

    auto *form = new QFormLayout;
    form->addRow(tr("Inputs:"), m_inputs);
    form->addRow(QString(), pathRow(m_inputsPath, m_inputsBrowse, this));
    form->addRow(QString(), m_normalize);
    form->addRow(tr("Parameters:"), m_params);
    form->addRow(QString(), pathRow(m_paramsPath, m_paramsBrowse, this));
    form->addRow(tr("Random seed:"), m_seed);

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
    for (QLineEdit *edit : { m_inputsPath, m_paramsPath })
        connect(edit, &QLineEdit::textEdited, m_error, &QLabel::hide);
    connect(m_inputsBrowse, &QToolButton::clicked, this, [this] { browse(false); });
    connect(m_paramsBrowse, &QToolButton::clicked, this, [this] { browse(true); });

    setSources(session->sources());
    resize(qMax(sizeHint().width(), 520), sizeHint().height());
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
    return error;
}

void DebugSourcesDialog::accept()
{
    const QString error = validate();
    m_error->setText(error);
    m_error->setVisible(!error.isEmpty());
    if (error.isEmpty())
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
}

void DebugSourcesDialog::browse(bool params)
{
    const Kind kind = kindOf(params ? m_params : m_inputs);
    QLineEdit *edit = params ? m_paramsPath : m_inputsPath;
    QString path;
    if (kind == Kind::NpyDirectory)
        path = QFileDialog::getExistingDirectory(this, tr("Folder of .npy files"), edit->text());
    else if (kind == Kind::Image)
        path = QFileDialog::getOpenFileName(this, tr("Input image"), edit->text(),
            tr("Images (*.png *.jpg *.jpeg *.bmp *.ppm *.pgm *.pnm);;All files (*)"));
    else if (kind == Kind::PdiparamsFile)
        path = QFileDialog::getOpenFileName(
            this, tr("Parameters"), edit->text(), tr("Paddle parameters (*.pdiparams);;All files (*)"));
    if (!path.isEmpty())
        edit->setText(path);
}

} // namespace ps
