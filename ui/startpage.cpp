#include "ui/startpage.h"

#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace ps {

StartPage::StartPage(QWidget *parent)
    : QWidget(parent)
    , m_open(new QPushButton(tr("&Open Program\u2026"), this))
    , m_bundle(new QPushButton(tr("Open Trace &Bundle Folder\u2026"), this))
    , m_example(new QPushButton(tr("Open the Bundled &Example (LeNet)"), this))
    , m_recentTitle(new QLabel(tr("<b>Recent</b>"), this))
    , m_recent(new QListWidget(this))
{
    setObjectName(QStringLiteral("startPage"));
    m_open->setObjectName(QStringLiteral("startOpen"));
    m_bundle->setObjectName(QStringLiteral("startBundle"));
    m_example->setObjectName(QStringLiteral("startExample"));
    m_recent->setObjectName(QStringLiteral("startRecent"));
    m_open->setToolTip(tr("A PIR program: JSON from paddle.jit.save, or the text print(program) writes"));
    m_bundle->setToolTip(tr("A folder written by tools/export_paddle_trace.py, with inputs, parameters "
                            "and Paddle's own results to compare with"));
    m_example->setToolTip(
        tr("A small conv net traced and saved with PaddlePaddle 3.3.1, with its parameters"));

    auto *title = new QLabel(tr("<h2>PIRScope</h2>Open a PaddlePaddle PIR program to see it as a graph, "
                                "split it as dy2static does and run it op by op."),
        this);
    title->setWordWrap(true);
    auto *drop = new QLabel(tr("or drop a program (.json, .txt) or a trace bundle folder anywhere on "
                               "this window"),
        this);
    drop->setObjectName(QStringLiteral("startDropHint"));
    drop->setAlignment(Qt::AlignCenter);
    drop->setWordWrap(true);
    drop->setFrameShape(QFrame::StyledPanel);
    drop->setFrameShadow(QFrame::Sunken);
    drop->setMinimumHeight(drop->fontMetrics().height() * 3);
    drop->setForegroundRole(QPalette::PlaceholderText);

    auto *buttons = new QVBoxLayout;
    for (QPushButton *b : { m_open, m_bundle, m_example })
        buttons->addWidget(b);
    m_recent->setFrameShape(QFrame::NoFrame);
    m_recent->setTextElideMode(Qt::ElideMiddle);
    m_recent->setMinimumHeight(m_recent->fontMetrics().height() * 3);

    auto *column = new QVBoxLayout;
    column->addWidget(title);
    column->addSpacing(8);
    column->addLayout(buttons);
    column->addSpacing(8);
    column->addWidget(drop);
    column->addSpacing(8);
    column->addWidget(m_recentTitle);
    column->addWidget(m_recent, 1);

    // A readable column in the middle of whatever room there is.
    auto *panel = new QWidget(this);
    panel->setLayout(column);
    panel->setMaximumWidth(fontMetrics().averageCharWidth() * 80);
    auto *centre = new QHBoxLayout;
    centre->addStretch(1);
    centre->addWidget(panel, 4);
    centre->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->addStretch(1);
    layout->addLayout(centre, 8);
    layout->addStretch(1);

    connect(m_open, &QPushButton::clicked, this, &StartPage::openRequested);
    connect(m_bundle, &QPushButton::clicked, this, &StartPage::openBundleRequested);
    connect(m_example, &QPushButton::clicked, this, &StartPage::exampleRequested);
    // A click or Enter opens; a style that also activates on the click must not open twice (once
    // a file is open the page is hidden).
    auto open = [this](QListWidgetItem *item) {
        if (isVisible())
            emit fileRequested(item->data(Qt::UserRole).toString());
    };
    connect(m_recent, &QListWidget::itemActivated, this, open);
    connect(m_recent, &QListWidget::itemClicked, this, open);
    setRecentFiles({});
}

void StartPage::setRecentFiles(const QStringList &paths)
{
    m_recent->clear();
    for (const QString &path : paths) {
        const QFileInfo info(path);
        auto *item
            = new QListWidgetItem(tr("%1   \u2014 %2").arg(info.fileName(), info.absolutePath()), m_recent);
        item->setData(Qt::UserRole, path);
        item->setToolTip(path);
        if (!info.exists()) {
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
            item->setToolTip(tr("%1 (no longer there)").arg(path));
        }
    }
    m_recentTitle->setVisible(!paths.isEmpty());
    m_recent->setVisible(!paths.isEmpty());
}

void StartPage::setExampleAvailable(bool available)
{
    m_example->setVisible(available);
}

} // namespace ps
