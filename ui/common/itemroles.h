#pragma once

#include "core/ir/value.h"

#include <QModelIndex>
#include <QVariant>

namespace ps {

class Operation;

/// Item-data roles shared by the panel models: the op or value a row stands for, so views
/// can synchronise the selection without knowing the model.
enum ItemRole {
    OpRole = Qt::UserRole + 1, ///< quintptr of an Operation*
    ValueRole, ///< quintptr of a ValueImpl*
    GroupRole, ///< index of an inplace group
    SideRole, ///< int(ProgramSide) of the program the row's op or value lives in
    BackwardValueRole, ///< quintptr of a ValueImpl* in the backward program (the cut's kwargs)
};

/// Which of the shown programs something belongs to: the origin program (the "Program" tab) or
/// one of the two split programs.
enum class ProgramSide { Origin, Forward, Backward };

inline QVariant opVariant(const Operation *op)
{
    return op ? QVariant::fromValue(quintptr(op)) : QVariant();
}

inline QVariant valueVariant(Value v)
{
    return v ? QVariant::fromValue(quintptr(v.impl())) : QVariant();
}

inline Operation *opFromIndex(const QModelIndex &index)
{
    return reinterpret_cast<Operation *>(index.data(OpRole).value<quintptr>());
}

inline Value valueFromIndex(const QModelIndex &index, int role = ValueRole)
{
    return Value(reinterpret_cast<ValueImpl *>(index.data(role).value<quintptr>()));
}

/// The row's SideRole, Origin when it has none.
inline ProgramSide sideFromIndex(const QModelIndex &index)
{
    const QVariant v = index.data(SideRole);
    return v.isValid() ? ProgramSide(v.toInt()) : ProgramSide::Origin;
}

} // namespace ps
