#include "ui/debugger/elidingbutton.h"

#include <QStyle>
#include <QStyleOptionButton>

namespace ps {

ElidingButton::ElidingButton(QWidget *parent, int minChars, int maxChars)
    : QPushButton(parent)
    , m_minChars(minChars)
    , m_maxChars(maxChars)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void ElidingButton::setFullText(const QString &text)
{
    m_fullText = text;
    updateGeometry();
    elide();
}

QSize ElidingButton::sizeFor(int textWidth) const
{
    QStyleOptionButton option;
    initStyleOption(&option);
    const QSize content(textWidth, fontMetrics().height());
    return style()->sizeFromContents(QStyle::CT_PushButton, &option, content, this);
}

QSize ElidingButton::sizeHint() const
{
    const int cap = fontMetrics().averageCharWidth() * m_maxChars;
    return sizeFor(std::min(fontMetrics().horizontalAdvance(m_fullText), cap));
}

QSize ElidingButton::minimumSizeHint() const
{
    const int few = fontMetrics().averageCharWidth() * m_minChars;
    return sizeFor(std::min(fontMetrics().horizontalAdvance(m_fullText), few));
}

void ElidingButton::resizeEvent(QResizeEvent *event)
{
    QPushButton::resizeEvent(event);
    elide();
}

void ElidingButton::elide()
{
    // The text gets what the button's frame and margins leave; before a layout gave the button
    // its width, what it asks for.
    // (Styles give buttons a minimum width: measure the chrome on a wide text.)
    const int chrome = sizeFor(1000).width() - 1000;
    const int room = isVisible() ? width() - chrome : fontMetrics().averageCharWidth() * m_maxChars;
    const QString shown = fontMetrics().elidedText(m_fullText, Qt::ElideMiddle, std::max(0, room));
    if (shown != text())
        setText(shown);
}

} // namespace ps
