#include "ui/AboutDialog.h"

#include "core/platform/BuildInfo.h"
#include "core/training/ComputeDevice.h"
#include "ui/StdStrings.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QTabWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <string>
#include <utility>
#include <vector>

namespace attnlab {
// Generated from LICENSE and THIRD-PARTY.md by cmake/EmbedTextFiles.cmake (ui/CMakeLists.txt).
const std::vector<std::pair<std::string, std::string>>& embeddedAboutTexts();
} // namespace attnlab

namespace attnlab::ui {

QString AboutDialog::embeddedText(const QString& fileName)
{
    for (const auto& [name, text] : embeddedAboutTexts())
        if (qs(name) == fileName)
            return QString::fromUtf8(text.data(), static_cast<int>(text.size()));
    return {};
}

AboutDialog::AboutDialog(QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("aboutDialog"));
    setWindowTitle(tr("About Attention Lab"));
    auto* tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("aboutTabs"));

    auto* about = new QLabel(this);
    about->setObjectName(QStringLiteral("aboutText"));
    about->setWordWrap(true);
    about->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    about->setTextFormat(Qt::RichText);
    about->setOpenExternalLinks(true);
    about->setTextInteractionFlags(Qt::TextBrowserInteraction);
    about->setText(
        tr("<h2>Attention Lab %1</h2>"
           "<p>A desktop lab for self-attention: train an attention network and a recurrent one side by side, "
           "watch them learn, and look inside them.</p>"
           "<p>Version %1 (git %2)<br>%3<br>Qt %4</p>"
           "<p><b>Licence.</b> Attention Lab is free software: you can redistribute it and/or modify it under the "
           "terms of the GNU General Public License as published by the Free Software Foundation, either version 3 "
           "of the License, or (at your option) any later version. It is distributed in the hope that it will be "
           "useful, but WITHOUT ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS FOR A "
           "PARTICULAR PURPOSE. The <i>Licence</i> tab has the full text.</p>"
           "<p>Why version 3 or later: the window links QCustomPlot, which is GPL-3.0-or-later; Qt (LGPL-3.0), "
           "LibTorch (BSD-3-Clause) and the other libraries it links are compatible with it.</p>"
           "<p><b>Third-party software and data.</b> The libraries the lab links, and the datasets and the "
           "pretrained model it can download or import, keep their own licences and terms: the next tab lists each "
           "one.</p>")
            .arg(qs(BuildInfo::appVersion()), qs(BuildInfo::gitHash()), qs(ComputeDevice::buildDescription()),
                 QString::fromLatin1(qVersion())));
    auto* aboutPage = new QWidget(this);
    auto* aboutLayout = new QVBoxLayout(aboutPage);
    aboutLayout->addWidget(about);
    aboutLayout->addStretch();
    tabs->addTab(aboutPage, tr("&About"));

    auto* licence = new QTextBrowser(this);
    licence->setObjectName(QStringLiteral("licenceText"));
    licence->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    licence->setLineWrapMode(QTextEdit::NoWrap);
    licence->setPlainText(embeddedText(QStringLiteral("LICENSE")));
    tabs->addTab(licence, tr("&Licence"));

    auto* thirdParty = new QTextBrowser(this);
    thirdParty->setObjectName(QStringLiteral("thirdPartyText"));
    thirdParty->setOpenExternalLinks(true);
    thirdParty->setMarkdown(embeddedText(QStringLiteral("THIRD-PARTY.md")));
    tabs->addTab(thirdParty, tr("&Third-party software and data"));

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(tabs);
    layout->addWidget(buttons);
    resize(820, 600); // fits a projector's 1280x720 with the window around it
}

void AboutDialog::addHelpMenu(QMainWindow& window)
{
    QMenu* help = window.menuBar()->addMenu(tr("&Help"));
    QAction* about = help->addAction(tr("&About Attention Lab"), &window, [&window] {
        auto* dialog = new AboutDialog(&window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open(); // window-modal, not blocking
    });
    about->setObjectName(QStringLiteral("aboutAction"));
    about->setMenuRole(QAction::AboutRole);
    QAction* aboutQt = help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQt->setObjectName(QStringLiteral("aboutQtAction"));
    aboutQt->setMenuRole(QAction::AboutQtRole);
}

} // namespace attnlab::ui
