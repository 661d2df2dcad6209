#pragma once
#include <QDialog>

class QMainWindow;

namespace attnlab::ui {

// Help > About: the lab's version (the project's one version, as --version and the Debian package give it), its
// licence (GPL-3.0-or-later) and why, the licence's full text, and THIRD-PARTY.md: every library the lab links
// and every dataset or model it can download, with its licence or terms. LICENSE and THIRD-PARTY.md are compiled
// in (cmake/EmbedTextFiles.cmake), so an installed window shows the same files as the source tree.
class AboutDialog : public QDialog {
    Q_OBJECT
public:
    explicit AboutDialog(QWidget* parent = nullptr);

    // The Help menu of a main window: About Attention Lab (opens this dialog, window-modal and not blocking)
    // and About Qt.
    static void addHelpMenu(QMainWindow& window);
    // An embedded file's text ("LICENSE", "THIRD-PARTY.md"); empty when there is none of that name.
    static QString embeddedText(const QString& fileName);
};

} // namespace attnlab::ui
