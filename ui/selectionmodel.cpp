#include "ui/selectionmodel.h"

namespace ps {

SelectionModel::SelectionModel(QObject *parent)
    : QObject(parent)
{
}

ProgramSide SelectionModel::resolve(const Operation *op, Value value) const
{
    return m_resolver ? m_resolver(op, value) : ProgramSide::Origin;
}

void SelectionModel::selectOp(const Operation *op, Cause cause)
{
    selectOp(op ? resolve(op, Value()) : m_current.side, op, cause);
}

void SelectionModel::selectOp(ProgramSide side, const Operation *op, Cause cause)
{
    set(Selection { side, op, Value() }, cause);
}

void SelectionModel::selectValue(Value value, const Operation *at, Cause cause)
{
    const Operation *op = at ? at : value.definingOp();
    selectValue(value ? resolve(op, value) : m_current.side, value, at, cause);
}

void SelectionModel::selectValue(ProgramSide side, Value value, const Operation *at, Cause cause)
{
    if (!value) {
        clear(cause);
        return;
    }
    set(Selection { side, at ? at : value.definingOp(), value }, cause);
}

void SelectionModel::clear(Cause cause)
{
    set(Selection { m_current.side, nullptr, Value() }, cause);
}

void SelectionModel::set(const Selection &selection, Cause cause)
{
    if (selection == m_current)
        return;
    m_current = selection;
    emit changed(m_current, cause);
}

} // namespace ps
