#include "ui/memorypanel.h"

#include "core/session/memorymodel.h"
#include "ui/common/elidedlabel.h"
#include "ui/memorychart.h"

#include <QLocale>
#include <QVBoxLayout>

namespace ps {

namespace {

QString bytesText(int64_t bytes)
{
    return QLocale().formattedDataSize(bytes, 2, QLocale::DataSizeSIFormat);
}

} // namespace

MemoryPanel::MemoryPanel(QWidget *parent)
    : QWidget(parent)
    , m_summary(new ElidedLabel(this))
    , m_chart(new MemoryChart(this))
{
    setObjectName(QStringLiteral("memoryPanel"));
    m_summary->setObjectName(QStringLiteral("memorySummary"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(3);
    layout->addWidget(m_summary);
    layout->addWidget(m_chart, 1);
    setReport(nullptr, tr("No memory model: open a program"));
}

void MemoryPanel::setReport(std::shared_ptr<const MemoryReport> report, const QString &why)
{
    m_chart->setReport(report);
    if (!report) {
        m_summary->setText(why);
        return;
    }
    const MemoryReport &r = *report;
    QString text
        = tr("%1 \u00b7 peak %2 at %3 %4 \u00b7 baseline %5")
              .arg(r.mode == "train" ? tr("Train step (forward, then backward)") : tr("Inference run"),
                  bytesText(r.peakBytes), QString::fromStdString(r.peakOp),
                  QString::fromStdString(r.peakOpName), bytesText(r.baselineBytes));
    if (r.mode == "train")
        text += tr(" \u00b7 kept after the forward %1").arg(bytesText(r.keptAfterForwardBytes));
    text += tr(" \u00b7 after the step %1").arg(bytesText(r.afterStepBytes));
    if (!r.unknown.empty())
        text += tr(" \u00b7 %n value(s) of unknown size not counted", nullptr, int(r.unknown.size()));
    m_summary->setText(text);
    m_summary->setDescription(
        tr("As Paddle's executor allocates it on the CPU: each value freed after its last "
           "read, inplace ops reusing their input, the backward's inputs kept across the cut"));
}

} // namespace ps
