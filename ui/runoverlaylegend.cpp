#include "ui/runoverlaylegend.h"

#include "ui/render/graphstyle.h"

#include <QHBoxLayout>
#include <QLabel>

namespace ps {

namespace {

QLabel *swatch(const QString &style, const QString &text, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setTextFormat(Qt::RichText);
    label->setText(QStringLiteral("<span style=\"%1\">&nbsp;&nbsp;&nbsp;</span>&nbsp;%2")
                       .arg(style, text.toHtmlEscaped()));
    return label;
}

QString filled(const QColor &color)
{
    return QStringLiteral("background-color:%1").arg(color.name());
}

} // namespace

RunOverlayLegend::RunOverlayLegend(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("runOverlayLegend"));
    setToolTip(tr("The time overlay: each executed op is filled by its share of the run's device time "
                  "(all its executions; a closed layer: its ops' sum); an orange frame marks NaN or Inf "
                  "in its results. Ops that did not run keep their colours."));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(8);
    layout->addWidget(new QLabel(tr("Op time:"), this));
    const float *steps = GraphStyle::kTimeShareSteps;
    const QStringList names { tr("< 1%"), tr("1\u20135%"), tr("5\u201320%"), tr("\u2265 20%") };
    for (int i = 0; i < 4; ++i)
        layout->addWidget(swatch(filled(GraphStyle::timeShareColor(steps[i])), names[i], this));
    layout->addWidget(swatch(filled(GraphStyle::nonFiniteColor()), tr("NaN/Inf"), this));
}

} // namespace ps
