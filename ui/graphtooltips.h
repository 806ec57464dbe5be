#pragma once

#include "core/ir/value.h"

#include <QString>
#include <functional>

class QGraphicsItem;

namespace ps {

class GraphNodeItem;
class Operation;
class ProgramDocument;

/// What hovering a graph item tells beyond its label: for an op its position, layer, operands
/// and results with their types (and what "+N" on the box means), for a value edge, ghost chip
/// or argument node the value's id, names, type, producer and users, each with what the debugger
/// holds for it now (statistics once computed) and the debugger's marks.
struct GraphToolTips
{
    /// One line about a value's runtime state (ValueSummary::text), empty when there is none.
    using LiveText = std::function<QString(Value)>;

    /// The tooltip of a GraphNodeItem or GraphEdgeItem of `document`'s graph; empty for others.
    static QString text(const QGraphicsItem *item, const ProgramDocument &document, const LiveText &live);
    static QString valueText(Value value, const ProgramDocument &document, const LiveText &live);
    static QString opText(const GraphNodeItem &node, const ProgramDocument &document, const LiveText &live);
    /// "pd_op.conv2d #14".
    static QString opLabel(const Operation *op, const ProgramDocument &document);
};

} // namespace ps
