#include "ui/shortcutsheet.h"

#include "ui/common/themecolors.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace ps {

namespace {

QString row(const QString &key, const QString &what)
{
    return QStringLiteral("<tr><td style='padding-right:18px'><b>%1</b></td><td>%2</td></tr>")
        .arg(key.toHtmlEscaped(), what);
}

QString plainText(QString text)
{
    text.remove(QLatin1Char('&'));
    return text.remove(QStringLiteral("\u2026"));
}

void addMenu(QString &html, const QMenu *menu)
{
    QString rows;
    for (QAction *a : menu->actions()) {
        if (a->menu()) {
            addMenu(html, a->menu());
            continue;
        }
        QStringList keys;
        for (const QKeySequence &k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        if (!keys.isEmpty())
            rows += row(keys.join(QStringLiteral(", ")), plainText(a->text()).toHtmlEscaped());
    }
    if (!rows.isEmpty())
        html += QStringLiteral("<h3>%1</h3><table>%2</table>")
                    .arg(plainText(menu->title()).toHtmlEscaped(), rows);
}

QString swatch(const QColor &fill, const QColor &border, bool dashed = false)
{
    return QStringLiteral("<span style='background:%1; border:1px %3 %2'>&nbsp;&nbsp;&nbsp;&nbsp;</span>")
        .arg(ThemeColors::css(fill), ThemeColors::css(border),
            dashed ? QStringLiteral("dashed") : QStringLiteral("solid"));
}

} // namespace

QString ShortcutSheet::html(QWidget *window)
{
    QString html;
    if (auto *bar = window ? window->findChild<QMenuBar *>() : nullptr)
        for (QAction *a : bar->actions())
            if (a->menu())
                addMenu(html, a->menu());

    html
        += QObject::tr("<h3>Graph</h3><table>%1%2%3%4%5%6</table>")
               .arg(row(QObject::tr("Wheel"), QObject::tr("zoom at the mouse")),
                   row(QObject::tr("Drag"), QObject::tr("pan")),
                   row(QObject::tr("F, Ctrl+0"), QObject::tr("fit the graph")),
                   row(QObject::tr("+ / \u2212"), QObject::tr("zoom in / out")),
                   row(QObject::tr("Click"),
                       QObject::tr("select an op (a box) or a value (an edge or a chip): every panel "
                                   "follows")),
                   row(QObject::tr("Hover"),
                       QObject::tr("an op's operands and results, a value's type, names and users, and "
                                   "once the debugger computed it its shape, min, max, mean and NaN count")));
    html += QObject::tr("<h3>Lists</h3><table>%1%2</table>")
                .arg(row(QObject::tr("\u2191 / \u2193"),
                         QObject::tr("move the selection in the Ops, Executed ops, Values, Call stack, "
                                     "Breakpoints, cut and name lists: every panel follows")),
                    row(QObject::tr("Enter, double click"),
                        QObject::tr("in Properties and Value names: go to the op or value of the row")));
    html += QObject::tr("<h3>Panels</h3><table>%1%2</table>")
                .arg(row(QObject::tr("\u25be, double-click a title"),
                         QObject::tr("fold a panel to its title (a strip at the window's side when it is "
                                     "alone there), and unfold it to the size it had")),
                    row(QObject::tr("Drag a title"), QObject::tr("move a panel, or float it")));

    const ThemeColors &c = ThemeColors::current();
    const std::pair<NodeKind, QString> kinds[] = {
        { NodeKind::Data, QObject::tr("input (pd_op.data, block and keyword arguments)") },
        { NodeKind::Parameter, QObject::tr("parameter") },
        { NodeKind::Constant, QObject::tr("constant (pd_op.full, assign_value, ...)") },
        { NodeKind::Compute, QObject::tr("compute op") },
        { NodeKind::Grad, QObject::tr("grad op (backward)") },
        { NodeKind::ControlFlow, QObject::tr("control flow (if, while) with its regions") },
        { NodeKind::Output, QObject::tr("output (shadow_output, fetch, set_parameter)") },
    };
    QString legend;
    for (const auto &[kind, text] : kinds)
        legend += row(QString(), swatch(c.kindFill(kind), c.outline) + QStringLiteral("&nbsp; ") + text);
    legend += row(QObject::tr("ghost"),
        swatch(ThemeColors::mix(c.kindFill(NodeKind::Parameter), c.background, 0.8), c.outline, true)
            + QObject::tr("&nbsp; a dashed box or a chip inside its user's box: a copy of a value used by "
                          "many ops (parameters, constants, inputs) or defined far away, drawn at each "
                          "user instead of one long edge. The status bar counts them."));
    legend
        += row(QObject::tr("+N"), QObject::tr("after the first result's shape: the op has N more results"));
    legend += row(QObject::tr("?x16"), QObject::tr("a dynamic dimension (-1 in the program)"));
    legend += row(
        QObject::tr("dashed edge"), QObject::tr("from a ghost, or from a control-flow op to its region"));
    legend += row(QObject::tr("debugger"),
        QObject::tr("<span style='color:%1'>green frame</span>: the next op; "
                    "<span style='color:%2'>red dot</span>: breakpoint; "
                    "<span style='color:%2'>red frame</span>: failed; "
                    "<span style='color:%3'>orange frame</span>: produced NaN/Inf; badge: its time")
            .arg(ThemeColors::css(c.success), ThemeColors::css(c.error), ThemeColors::css(c.warning)));
    legend += row(QObject::tr("2x3xf32"),
        QObject::tr("in blue italics: the shape the run made, where the program's type has dynamic dims"));
    legend += row(QObject::tr("time overlay"),
        QObject::tr("View \u25b8 Time Overlay: executed ops filled from pale yellow to red by their "
                    "share of the run's time (the legend in the status bar)"));
    html += QObject::tr("<h3>Legend</h3><table>%1</table>").arg(legend);
    return html;
}

ShortcutSheet::ShortcutSheet(QWidget *window, QWidget *parent)
    : QDialog(parent)
    , m_browser(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("shortcutSheet"));
    setWindowTitle(tr("Keyboard Shortcuts and Legend"));
    m_browser->setHtml(html(window));
    m_browser->setOpenLinks(false);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_browser, 1);
    layout->addWidget(buttons);
    const QFontMetrics fm = fontMetrics();
    QSize size(fm.averageCharWidth() * 90, fm.height() * 40);
    if (QScreen *s = window ? window->screen() : screen())
        size = size.boundedTo(s->availableGeometry().size() * 0.9);
    resize(size);
}

} // namespace ps
