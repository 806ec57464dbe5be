#pragma once

#include <QFrame>

namespace ps {

/// A one-line label that shrinks: its minimum width is a few characters, the text is elided
/// (Qt::ElideRight by default) when narrower than it, and then the whole text is the tooltip.
/// For status texts in toolbars and the status bar, where a QLabel's minimum width (its whole
/// text) would set the window's minimum width or push toolbar buttons into the overflow menu.
class ElidedLabel : public QFrame
{
    Q_OBJECT

public:
    explicit ElidedLabel(QWidget *parent = nullptr);

    void setText(const QString &text);
    QString text() const { return m_text; }
    /// The text as painted now (elided or whole).
    QString shownText() const;
    void setElideMode(Qt::TextElideMode mode);
    /// Shown as the tooltip when the text is not elided (empty: none).
    void setDescription(const QString &description);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void updateToolTip();

    QString m_text;
    QString m_description;
    Qt::TextElideMode m_mode = Qt::ElideRight;
};

} // namespace ps
