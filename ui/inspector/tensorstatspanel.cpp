#include "ui/inspector/tensorstatspanel.h"

#include "ui/common/devicetext.h"
#include "ui/common/themecolors.h"

#include <QFormLayout>
#include <QLabel>
#include <QLocale>

namespace ps {

namespace {

const char *const kTensorRows[]
    = { QT_TR_NOOP("Shape"), QT_TR_NOOP("DType"), QT_TR_NOOP("Device"), QT_TR_NOOP("Count") };
const char *const kStatsRows[] = { QT_TR_NOOP("Min"), QT_TR_NOOP("Max"), QT_TR_NOOP("Mean"),
    QT_TR_NOOP("Std"), QT_TR_NOOP("NaN"), QT_TR_NOOP("+Inf"), QT_TR_NOOP("-Inf"), QT_TR_NOOP("Zeros") };

QString number(double v)
{
    return QString::asprintf("%.6g", v);
}

QString count(int64_t n)
{
    return QLocale::c().toString(qlonglong(n));
}

} // namespace

TensorStatsPanel::TensorStatsPanel(QWidget *parent)
    : QWidget(parent)
    , m_form(new QFormLayout(this))
{
    m_form->setContentsMargins(4, 4, 4, 4);
    m_form->setLabelAlignment(Qt::AlignRight);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto addRow = [&](const char *name) {
        auto *value = new QLabel(this);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value->setObjectName(QString::fromLatin1(name));
        m_form->addRow(tr(name) + QLatin1Char(':'), value);
        m_fields.insert(QString::fromLatin1(name), value);
    };
    for (const char *name : kTensorRows)
        addRow(name);
    for (const char *name : kStatsRows)
        addRow(name);
    clear();
}

void TensorStatsPanel::setField(const QString &label, const QString &text, bool alarm)
{
    QLabel *l = m_fields.value(label);
    if (!l)
        return;
    l->setText(text);
    l->setStyleSheet(alarm ? QStringLiteral("color: %1; font-weight: bold;")
                                 .arg(ThemeColors::css(ThemeColors::current().error))
                           : QString());
}

QString TensorStatsPanel::field(const QString &label) const
{
    const QLabel *l = m_fields.value(label);
    return l ? l->text() : QString();
}

void TensorStatsPanel::setStatsText(const QString &text)
{
    for (const char *name : kStatsRows)
        setField(QString::fromLatin1(name), text);
}

void TensorStatsPanel::clear()
{
    for (const char *name : kTensorRows)
        setField(QString::fromLatin1(name), QString());
    setStatsText(QString());
}

void TensorStatsPanel::setTensor(const Tensor &t)
{
    if (!t.defined()) {
        clear();
        return;
    }
    setField(QStringLiteral("Shape"), QString::fromStdString(shapeText(t.shape())));
    setField(QStringLiteral("DType"), QString::fromUtf8(phiName(t.dtype())));
    setField(QStringLiteral("Device"), DeviceText::of(t.device()));
    setField(QStringLiteral("Count"), count(t.numElements()));
    setStatsText(QStringLiteral("…"));
}

void TensorStatsPanel::setStats(const TensorStats &s)
{
    setField(QStringLiteral("Min"), number(s.min));
    setField(QStringLiteral("Max"), number(s.max));
    setField(QStringLiteral("Mean"), number(s.mean));
    setField(QStringLiteral("Std"), number(s.std));
    setField(QStringLiteral("NaN"), count(s.nanCount), s.nanCount > 0);
    setField(QStringLiteral("+Inf"), count(s.posInfCount), s.posInfCount > 0);
    setField(QStringLiteral("-Inf"), count(s.negInfCount), s.negInfCount > 0);
    setField(QStringLiteral("Zeros"), count(s.zeroCount));
}

void TensorStatsPanel::setStatsUnavailable(const QString &reason)
{
    setStatsText(QString());
    setField(QStringLiteral("Min"), reason);
}

} // namespace ps
