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
};

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

inline Value valueFromIndex(const QModelIndex &index)
{
    return Value(reinterpret_cast<ValueImpl *>(index.data(ValueRole).value<quintptr>()));
}

} // namespace ps
