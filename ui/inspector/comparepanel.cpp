#include "ui/inspector/comparepanel.h"

#include "ui/common/themecolors.h"
#include "ui/inspector/tensorheatmap.h"

#include <QDoubleValidator>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace ps {

ComparePanel::ComparePanel(QWidget *parent)
    : QWidget(parent)
    , m_rtol(new QLineEdit(this))
    , m_atol(new QLineEdit(this))
    , m_summary(new QLabel(this))
    , m_heatmap(new TensorHeatmap)
{
    auto *controls = new QHBoxLayout;
    auto *button = new QPushButton(tr("Compare with .npy…"), this);
    controls->addWidget(button);
    controls->addSpacing(12);
    for (auto [label, edit] : { std::pair { tr("rtol:"), m_rtol }, std::pair { tr("atol:"), m_atol } }) {
        controls->addWidget(new QLabel(label, this));
        auto *validator = new QDoubleValidator(0, 1e300, 20, edit);
        validator->setNotation(QDoubleValidator::ScientificNotation);
        edit->setValidator(validator);
        edit->setMaximumWidth(90);
        controls->addWidget(edit);
        connect(edit, &QLineEdit::editingFinished, this, &ComparePanel::tolerancesChanged);
    }
    controls->addStretch(1);
    m_rtol->setObjectName(QStringLiteral("rtol"));
    m_atol->setObjectName(QStringLiteral("atol"));
    m_summary->setObjectName(QStringLiteral("compareSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_heatmap->setColorMap(ColorMap::Kind::Diverging);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    // The summary and the difference heatmap scroll when they are bigger than the room (the
    // heatmap keeps a pixel per element), so the panel does not set the inspector's minimum size.
    auto *body = new QWidget(this);
    auto *bodyLayout = new QVBoxLayout(body);
    bodyLayout->setContentsMargins(0, 0, 0, 0);
    bodyLayout->addWidget(m_summary);
    bodyLayout->addWidget(m_heatmap, 1);
    auto *scroll = new QScrollArea(this);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setWidget(body);
    scroll->setMinimumSize(80, 30);
    layout->addWidget(scroll, 1);
    connect(button, &QPushButton::clicked, this, &ComparePanel::compareFileRequested);
    setTolerances(TensorCompare::Options().rtol, TensorCompare::Options().atol);
    clear();
}

double ComparePanel::rtol() const
{
    return m_rtol->text().toDouble();
}

double ComparePanel::atol() const
{
    return m_atol->text().toDouble();
}

void ComparePanel::setTolerances(double rtol, double atol)
{
    m_rtol->setText(QString::number(rtol, 'g', 6));
    m_atol->setText(QString::number(atol, 'g', 6));
}

QString ComparePanel::summaryText() const
{
    return m_summary->text();
}

void ComparePanel::clear()
{
    m_diff = Tensor();
    m_summary->setText(tr("Compare this tensor with a .npy file, or with a reference tensor given by the "
                          "debugger (another device, Paddle's output)."));
    m_heatmap->clear(tr("no comparison"));
}

void ComparePanel::setMessage(const QString &message)
{
    m_summary->setText(message);
}

void ComparePanel::setResult(const TensorCompare::Result &result)
{
    QString text = QString::fromStdString(result.summary());
    if (result.ok)
        text = (result.allClose() ? tr("<b>Match.</b> ")
                                  : tr("<b style='color:%1'>Mismatch.</b> ")
                                        .arg(ThemeColors::css(ThemeColors::current().error)))
            + text.toHtmlEscaped()
            + tr(" Heatmap: %1 − %2.")
                  .arg(QString::fromStdString(result.nameA).toHtmlEscaped(),
                      QString::fromStdString(result.nameB).toHtmlEscaped());
    else
        text = tr("<b>Cannot compare:</b> ") + text.toHtmlEscaped();
    m_summary->setText(text);
    m_diff = result.diff;
    if (m_diff.defined())
        updateDiff();
    else
        m_heatmap->clear(tr("no difference to show"));
}

void ComparePanel::setSliceGeometry(int rowAxis, int columnAxis, const std::vector<int64_t> &fixed)
{
    m_rowAxis = rowAxis;
    m_columnAxis = columnAxis;
    m_fixed = fixed;
    if (m_diff.defined())
        updateDiff();
}

void ComparePanel::updateDiff()
{
    TensorSlice slice(m_diff);
    if (m_fixed.size() == m_diff.rank()) {
        slice.setAxes(m_rowAxis, m_columnAxis);
        for (size_t i = 0; i < m_fixed.size(); ++i)
            slice.setFixedIndex(int(i), m_fixed[i]);
    }
    m_heatmap->setSlice(slice);
}

} // namespace ps
