// MainWindow: the one selection (SelectionModel) — what each panel reports and how each follows.

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "ui/debugger/valuesummary.h"
#include "ui/graphnodeitem.h"
#include "ui/graphscene.h"
#include "ui/graphtooltips.h"
#include "ui/graphview.h"
#include "ui/inplacegroupsmodel.h"
#include "ui/mainwindow.h"
#include "ui/mainwindowdebugger.h"
#include "ui/oplistpanel.h"
#include "ui/pipelinesnapshot.h"
#include "ui/programdocument.h"
#include "ui/programpickerpanel.h"
#include "ui/propertiesmodel.h"
#include "ui/selectionmodel.h"
#include "ui/splitview.h"
#include "ui/valuenamemapmodel.h"

#include <QItemSelectionModel>
#include <QScopedValueRollback>
#include <QTableView>
#include <QTreeView>

namespace ps {

using Cause = SelectionModel::Cause;

void MainWindow::connectSelection()
{
    m_selection->setSideResolver(
        [this](const Operation *op, Value value) { return op ? sideOf(op) : sideOf(value); });
    connect(m_selection, &SelectionModel::changed, this, &MainWindow::showSelection);

    // A pick in a graph leaves that graph where it is; one anywhere else brings it into view.
    GraphScene *scene = m_graphView->graphScene();
    connect(scene, &GraphScene::opSelected, this, [this](Operation *op) {
        const QScopedValueRollback picking(m_pickedInGraph, true);
        m_selection->selectOp(ProgramSide::Origin, op);
    });
    connect(scene, &GraphScene::valueSelected, this, [this](Value v) {
        const QScopedValueRollback picking(m_pickedInGraph, true);
        m_selection->selectValue(ProgramSide::Origin, v);
    });
    connect(m_splitView, &SplitView::opSelected, this, [this](ProgramSide side, Operation *op) {
        const QScopedValueRollback picking(m_pickedInGraph, true);
        m_selection->selectOp(side, op);
    });
    connect(m_splitView, &SplitView::valueSelected, this, [this](ProgramSide side, Value v) {
        const QScopedValueRollback picking(m_pickedInGraph, true);
        m_selection->selectValue(side, v);
    });
    connect(m_opList, &OpListPanel::opSelected, this,
        [this](Operation *op) { m_selection->selectOp(m_activeSide, op); });
    // Enter (or a double click) on an Ops row drills in: the op in its graph, which takes the keys.
    connect(m_opList, &OpListPanel::opActivated, this, [this](Operation *op) {
        m_selection->selectOp(m_activeSide, op);
        if (GraphView *view = viewOf(m_activeSide)) {
            view->bringOpsIntoView({ op });
            view->setFocus(Qt::OtherFocusReason);
        }
    });
    connect(m_propertiesView, &QTreeView::activated, this,
        [this](const QModelIndex &index) { onNavigate(index, m_activeSide); });
    connect(m_nameMapView, &QTableView::activated, this,
        [this](const QModelIndex &index) { onNavigate(index, m_namesPicker->side()); });
    connect(m_nameMapView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) {
            if (Value v = valueFromIndex(current))
                m_selection->selectValue(m_namesPicker->side(), v);
        });
    connect(m_inplaceView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &MainWindow::onInplaceGroupSelected);
    connect(m_attributesView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &MainWindow::onAttributeSelected);
    connect(m_attributesView, &QTreeView::activated, this, &MainWindow::onAttributeSelected);
    connect(m_namesPicker, &ProgramPickerPanel::sideChanged, this,
        [this](ProgramSide side) { m_nameMap->setDocument(documentOf(side)); });
    connect(m_inplacePicker, &ProgramPickerPanel::sideChanged, this,
        [this](ProgramSide side) { m_inplace->setDocument(documentOf(side)); });

    // Hovering a node, ghost chip or edge describes it, with the debugger's live statistics.
    const GraphToolTips::LiveText live
        = [this](Value v) { return m_debugger ? m_debugger->valueSummary()->text(v) : QString(); };
    for (ProgramSide side : { ProgramSide::Origin, ProgramSide::Forward, ProgramSide::Backward }) {
        viewOf(side)->graphScene()->setToolTipProvider([this, side, live](const QGraphicsItem *item) {
            const std::shared_ptr<const ProgramDocument> doc = documentOf(side);
            return doc ? GraphToolTips::text(item, *doc, live) : QString();
        });
    }
}

void MainWindow::selectOp(const Operation *op)
{
    m_selection->selectOp(op);
}

void MainWindow::selectValue(Value value)
{
    m_selection->selectValue(value);
}

void MainWindow::showSelection(const SelectionModel::Selection &s)
{
    if (s.empty()) {
        for (GraphView *view : { m_graphView, m_splitView->forwardView(), m_splitView->backwardView() })
            view->graphScene()->selectOp(nullptr);
        m_opList->selectOp(nullptr);
        m_properties->clear();
        return;
    }
    setActiveSide(s.side);
    if (s.side == ProgramSide::Origin) {
        if (currentTab() != Tab::Program)
            showTab(Tab::Program);
        GraphScene *scene = m_graphView->graphScene();
        // A value is shown at the op it was picked at; one without an op by its own node.
        if (s.value && !s.value.definingOp())
            scene->selectValue(s.value);
        else
            scene->selectOp(s.op);
        if (s.value)
            scene->highlight({}, { s.value });
        else
            scene->clearHighlight();
        if (m_pickedInGraph)
            m_graphView->reveal(s.value && !s.op ? scene->itemForValue(s.value) : scene->itemForOp(s.op));
        else if (s.op)
            m_graphView->bringOpsIntoView({ s.op });
        else
            m_graphView->bringValueIntoView(s.value);
    } else {
        if (currentTab() != Tab::Split)
            showTab(Tab::Split);
        const SplitView::Reveal reveal
            = m_pickedInGraph ? SplitView::Reveal::Keep : SplitView::Reveal::Readable;
        if (s.value)
            m_splitView->selectValue(s.side, s.value, s.op, reveal);
        else
            m_splitView->selectOp(s.side, s.op, reveal);
    }
    m_opList->selectOp(s.op);
    if (s.value)
        m_properties->showValue(s.value);
    else
        m_properties->showOp(s.op);
}

void MainWindow::onNavigate(const QModelIndex &index, ProgramSide side)
{
    if (Operation *op = opFromIndex(index); op && !valueFromIndex(index))
        m_selection->selectOp(side, op);
    else if (Value v = valueFromIndex(index))
        m_selection->selectValue(side, v);
}

void MainWindow::onInplaceGroupSelected(const QModelIndex &index)
{
    const ProgramSide side = m_inplacePicker->side();
    const std::shared_ptr<const ProgramDocument> doc = documentOf(side);
    if (!doc || !index.isValid())
        return;
    const QModelIndex first = index.siblingAtColumn(0);
    if (first.parent().isValid()) {
        m_selection->selectValue(side, valueFromIndex(first));
        return;
    }
    // A whole group is highlighted, not selected: it is many ops and values.
    const InplaceGroup &group = doc->inplaceGroups().groups()[size_t(first.row())];
    std::vector<const Operation *> ops;
    for (Value v : group.members)
        if (const Operation *def = v.definingOp())
            ops.push_back(def);
    for (const InplaceEdge &e : group.edges)
        ops.push_back(e.op);
    if (side != ProgramSide::Origin)
        showTab(Tab::Split);
    GraphView *view = viewOf(side);
    view->graphScene()->highlight(ops, group.members);
    if (!ops.empty())
        view->centerOnOp(ops.front());
}

void MainWindow::onAttributeSelected(const QModelIndex &index)
{
    const Value v = valueFromIndex(index);
    const Operation *op = opFromIndex(index);
    if (!index.isValid() || (!v && !op))
        return; // a key row, or the fake value
    const ProgramSide side = sideFromIndex(index);
    if (v)
        m_selection->selectValue(side, v, op);
    else
        m_selection->selectOp(side, op);
}

} // namespace ps
