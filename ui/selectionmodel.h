#pragma once

#include "core/ir/value.h"
#include "ui/common/itemroles.h"

#include <QObject>
#include <functional>

namespace ps {

class Operation;

/// The one selection of the main window: an op or a value of one of the programs shown (the
/// origin program, or the forward or backward program of the split). Every panel that shows a
/// selection follows changed() (graphs, Ops list, Properties, split view, the debugger's
/// Executed ops, Values and inspector), and every panel where the user can pick an op or a value
/// calls select*(). Selecting what is already selected emits nothing, so a panel that follows
/// and reports the same selection does not loop.
///
/// The model holds raw pointers into the programs: whoever replaces a program clears the
/// selection first (MainWindow does on a new document or pipeline snapshot).
class SelectionModel : public QObject
{
    Q_OBJECT

public:
    struct Selection
    {
        ProgramSide side = ProgramSide::Origin;
        /// The selected op; with a value, the op it was picked at (the op whose operand or result
        /// row was clicked) or its producer; null for a block argument or keyword argument.
        const Operation *op = nullptr;
        /// The selected value; null when an op was selected.
        Value value;

        bool empty() const { return !op && !value; }
        friend bool operator==(const Selection &, const Selection &) = default;
    };

    /// Why the selection changed. Panels keep what the user chose (the inspector keeps a value
    /// the user picked) when the selection only follows the program (a debugger stop).
    enum class Cause { User, Follow };
    Q_ENUM(Cause)

    /// Finds the program an op (or a value without an op) belongs to; Origin when unset.
    using SideResolver = std::function<ProgramSide(const Operation *op, Value value)>;

    explicit SelectionModel(QObject *parent = nullptr);

    void setSideResolver(SideResolver resolver) { m_resolver = std::move(resolver); }

    /// Selects `op` (null clears) in the program the resolver finds.
    void selectOp(const Operation *op, Cause cause = Cause::User);
    void selectOp(ProgramSide side, const Operation *op, Cause cause = Cause::User);
    /// Selects `value` (null clears), picked at `at` (an op using or producing it; null: its
    /// producer).
    void selectValue(Value value, const Operation *at = nullptr, Cause cause = Cause::User);
    void selectValue(ProgramSide side, Value value, const Operation *at = nullptr, Cause cause = Cause::User);
    void clear(Cause cause = Cause::User);

    const Selection &current() const { return m_current; }
    const Operation *currentOp() const { return m_current.op; }
    Value currentValue() const { return m_current.value; }
    ProgramSide currentSide() const { return m_current.side; }
    bool isEmpty() const { return m_current.empty(); }

signals:
    void changed(const ps::SelectionModel::Selection &current, ps::SelectionModel::Cause cause);

private:
    void set(const Selection &selection, Cause cause);
    ProgramSide resolve(const Operation *op, Value value) const;

    Selection m_current;
    SideResolver m_resolver;
};

} // namespace ps

Q_DECLARE_METATYPE(ps::SelectionModel::Selection)
