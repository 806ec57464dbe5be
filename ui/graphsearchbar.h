#pragma once

#include <QFrame>

class QLabel;
class QLineEdit;
class QToolButton;

namespace ps {

/// The find bar of a graph view: a query field, "3 of 17", previous / next and close. Enter
/// and F3 go to the next match, Shift+Enter and Shift+F3 to the previous one, Escape closes.
/// The view does the finding; the bar only reports what the user asks for.
class GraphSearchBar : public QFrame
{
    Q_OBJECT

public:
    explicit GraphSearchBar(QWidget *parent = nullptr);

    QLineEdit *field() const { return m_field; }
    QString query() const;
    /// Shows the count: `current` < 0 before the first jump ("17 matches").
    void setCount(int current, int total);
    QString countText() const;
    /// Shows the bar, focused, with its text selected.
    void open();

signals:
    void queryChanged(const QString &query);
    void nextRequested();
    void previousRequested();
    void closed();

protected:
    void keyPressEvent(QKeyEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QLineEdit *m_field;
    QLabel *m_count;
    QToolButton *m_previous;
    QToolButton *m_next;
};

} // namespace ps
