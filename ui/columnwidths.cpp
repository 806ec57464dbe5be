#include "ui/columnwidths.h"

#include <QHeaderView>
#include <QTableView>
#include <QTreeView>
#include <algorithm>
#include <vector>

namespace ps {

namespace {

void measure(const QAbstractItemModel *model, const QModelIndex &parent, const QFontMetrics &fm, int depth,
    int indent, std::vector<int> &widths, int &budget)
{
    const int rows = model->rowCount(parent);
    for (int r = 0; r < rows && budget > 0; ++r, --budget) {
        for (int c = 0; c < int(widths.size()); ++c) {
            const QString text = model->index(r, c, parent).data(Qt::DisplayRole).toString();
            const int extra = c == 0 ? depth * indent : 0;
            widths[size_t(c)] = std::max(widths[size_t(c)], fm.horizontalAdvance(text) + extra);
        }
        const QModelIndex child = model->index(r, 0, parent);
        if (depth < 2 && model->hasChildren(child))
            measure(model, child, fm, depth + 1, indent, widths, budget);
    }
}

} // namespace

void ColumnWidths::fit(QAbstractItemView *view, int maxChars)
{
    const QAbstractItemModel *model = view->model();
    auto *tree = qobject_cast<QTreeView *>(view);
    auto *table = qobject_cast<QTableView *>(view);
    QHeaderView *header = tree ? tree->header() : table ? table->horizontalHeader() : nullptr;
    if (!model || !header)
        return;
    const int columns = model->columnCount();
    std::vector<int> widths(size_t(std::max(columns, 0)), 0);
    int budget = kSampleRows;
    const QFontMetrics fm = view->fontMetrics();
    // A tree's first column also holds the branch indicator and the indentation.
    const int indent = tree ? tree->indentation() : 0;
    measure(model, {}, fm, tree ? 1 : 0, indent, widths, budget);
    const int padding = fm.averageCharWidth() * 2 + 8;
    const int cap = fm.averageCharWidth() * maxChars;
    for (int c = 0; c + 1 < columns; ++c) {
        const int headerWidth = header->sectionSizeHint(c);
        header->resizeSection(c, std::max(headerWidth, std::min(widths[size_t(c)] + padding, cap)));
    }
}

void ColumnWidths::keepFitted(QAbstractItemView *view, int maxChars, Qt::TextElideMode elide)
{
    view->setTextElideMode(elide);
    fit(view, maxChars);
    QObject::connect(
        view->model(), &QAbstractItemModel::modelReset, view, [view, maxChars] { fit(view, maxChars); });
}

} // namespace ps
