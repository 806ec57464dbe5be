#include "ui/graphsearchbar.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

namespace ps {

GraphSearchBar::GraphSearchBar(QWidget *parent)
    : QFrame(parent)
    , m_field(new QLineEdit(this))
    , m_count(new QLabel(this))
    , m_previous(new QToolButton(this))
    , m_next(new QToolButton(this))
{
    setObjectName(QStringLiteral("graphSearchBar"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    m_field->setObjectName(QStringLiteral("graphSearchField"));
    m_field->setPlaceholderText(tr("Find op, value name, %id or layer"));
    m_field->setClearButtonEnabled(true);
    m_field->setMinimumWidth(220);
    m_field->installEventFilter(this);
    m_count->setObjectName(QStringLiteral("graphSearchCount"));
    m_count->setMinimumWidth(m_count->fontMetrics().horizontalAdvance(QStringLiteral("9999 of 9999")));
    m_previous->setArrowType(Qt::UpArrow);
    m_previous->setToolTip(tr("Previous match (Shift+Enter, Shift+F3)"));
    m_next->setArrowType(Qt::DownArrow);
    m_next->setToolTip(tr("Next match (Enter, F3)"));
    auto *close = new QToolButton(this);
    close->setText(QStringLiteral("\u2715"));
    close->setToolTip(tr("Close (Escape)"));
    close->setAutoRaise(true);
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(6, 3, 3, 3);
    row->setSpacing(4);
    row->addWidget(m_field);
    row->addWidget(m_count);
    row->addWidget(m_previous);
    row->addWidget(m_next);
    row->addWidget(close);
    connect(m_field, &QLineEdit::textChanged, this, &GraphSearchBar::queryChanged);
    connect(m_previous, &QToolButton::clicked, this, &GraphSearchBar::previousRequested);
    connect(m_next, &QToolButton::clicked, this, &GraphSearchBar::nextRequested);
    connect(close, &QToolButton::clicked, this, [this] {
        hide();
        emit closed();
    });
    setCount(-1, 0);
    hide();
}

QString GraphSearchBar::query() const
{
    return m_field->text().trimmed();
}

void GraphSearchBar::setCount(int current, int total)
{
    QString text;
    if (query().isEmpty())
        text.clear();
    else if (total == 0)
        text = tr("No matches");
    else if (current < 0)
        text = total == 1 ? tr("1 match") : tr("%1 matches").arg(total);
    else
        text = tr("%1 of %2").arg(current + 1).arg(total);
    m_count->setText(text);
    QPalette p = m_count->palette();
    p.setColor(QPalette::WindowText,
        total == 0 && !query().isEmpty() ? QColor(0xc0, 0x20, 0x20) : palette().color(QPalette::WindowText));
    m_count->setPalette(p);
    m_previous->setEnabled(total > 0);
    m_next->setEnabled(total > 0);
}

QString GraphSearchBar::countText() const
{
    return m_count->text();
}

void GraphSearchBar::open()
{
    show();
    raise();
    m_field->setFocus(Qt::ShortcutFocusReason);
    m_field->selectAll();
}

void GraphSearchBar::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape) {
        hide();
        emit closed();
        return;
    }
    QFrame::keyPressEvent(event);
}

bool GraphSearchBar::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_field && event->type() == QEvent::KeyPress) {
        auto *key = static_cast<QKeyEvent *>(event);
        const bool back = key->modifiers() & Qt::ShiftModifier;
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter || key->key() == Qt::Key_F3) {
            back ? emit previousRequested() : emit nextRequested();
            return true;
        }
        if (key->key() == Qt::Key_Escape) {
            hide();
            emit closed();
            return true;
        }
    }
    return QFrame::eventFilter(watched, event);
}

} // namespace ps
