#pragma once

#include <QWidget>

namespace ps {

/// What the time overlay's colours mean (GraphStyle::timeShareColor, the NaN/Inf frame): a row
/// of swatches for the status bar, shown while the overlay is on.
class RunOverlayLegend : public QWidget
{
    Q_OBJECT

public:
    explicit RunOverlayLegend(QWidget *parent = nullptr);
};

} // namespace ps
