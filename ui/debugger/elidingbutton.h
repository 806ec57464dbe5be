#pragma once

#include <QPushButton>

namespace ps {

/// A push button whose text shrinks with it: it asks for room for its whole text (up to
/// `maxChars` characters), accepts as little as `minChars`, and elides the middle of the text to
/// the width it gets. In a toolbar it gives way before any other control goes into the overflow.
class ElidingButton : public QPushButton
{
    Q_OBJECT

public:
    explicit ElidingButton(QWidget *parent = nullptr, int minChars = 12, int maxChars = 64);

    void setFullText(const QString &text);
    QString fullText() const { return m_fullText; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    QSize sizeFor(int textWidth) const;
    void elide();

    QString m_fullText;
    int m_minChars;
    int m_maxChars;
};

} // namespace ps
