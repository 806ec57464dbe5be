#pragma once

#include <Qt>

class QAbstractItemView;

namespace ps {

/// Sizes a table's or tree's columns to their contents: each column as wide as its header and
/// its widest text among the first rows (children of expanded-by-default rows included), at
/// most `maxChars` average characters, longer texts elided in the middle (the models give the
/// whole text as tooltip). The last column keeps stretching. Refits after every model reset.
/// O(min(rows, kSampleRows) x columns) per fit.
struct ColumnWidths
{
    static constexpr int kSampleRows = 400;

    /// Fits now and after each reset of the view's model.
    static void keepFitted(
        QAbstractItemView *view, int maxChars = 40, Qt::TextElideMode elide = Qt::ElideMiddle);
    static void fit(QAbstractItemView *view, int maxChars = 40);
};

} // namespace ps
