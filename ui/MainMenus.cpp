#include "ui/MainMenus.h"

#include "ui/AboutDialog.h"
#include "ui/MainWindow.h"
#include "ui/analysis/ResultsMatrixView.h"
#include "ui/analysis/RunDifferencesView.h"
#include "ui/presentation/PresentationMode.h"
#include "ui/runs/RunActions.h"
#include "ui/runs/RunListPanel.h"
#include "ui/setup/PresetChooser.h"
#include "ui/setup/SetupPanel.h"
#include "ui/training/LiveComparisonView.h"

#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>

namespace attnlab::ui {

void MainMenus::build(MainWindow& window, const Parts& p)
{
    QMenu* file = window.menuBar()->addMenu(MainWindow::tr("&File"));
    QAction* open = file->addAction(MainWindow::tr("&Open run database…"), &window, [&window] {
        const QString path = QFileDialog::getOpenFileName(&window, MainWindow::tr("Open run database"), QFileInfo(window.storePath()).absolutePath(),
                                                          MainWindow::tr("Run databases (*.sqlite *.db);;All files (*)"));
        if (!path.isEmpty())
            window.openStore(path);
    });
    open->setObjectName(QStringLiteral("openStoreAction"));
    open->setShortcut(QKeySequence::Open);
    QAction* import = file->addAction(MainWindow::tr("&Import runs…"), &window, [&window] {
        const QString path = QFileDialog::getOpenFileName(
            &window, MainWindow::tr("Import runs"), QFileInfo(window.storePath()).absolutePath(),
            MainWindow::tr("Run databases and exports (*.sqlite *.db *.json);;All files (*)"));
        if (!path.isEmpty())
            window.importRuns(path);
    });
    import->setObjectName(QStringLiteral("importRunsAction"));
    file->addSeparator();
    QAction* ownData = file->addAction(MainWindow::tr("Train on &your own data…"), &window, &MainWindow::importOwnData);
    ownData->setObjectName(QStringLiteral("importOwnDataAction"));
    ownData->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    QAction* datasets = file->addAction(MainWindow::tr("&Datasets…"), &window, &MainWindow::showDatasets);
    datasets->setObjectName(QStringLiteral("datasetsAction"));
    datasets->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    QAction* openConfig = file->addAction(MainWindow::tr("Open &configuration…"), &window, [&window] {
        const QString path = QFileDialog::getOpenFileName(&window, MainWindow::tr("Open configuration"), QString(),
                                                          MainWindow::tr("Configurations (*.json);;All files (*)"));
        if (!path.isEmpty())
            window.openConfiguration(path);
    });
    openConfig->setObjectName(QStringLiteral("openConfigAction"));
    openConfig->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    file->addMenu(p.setup->presets()->recentMenu());
    QAction* saveConfig = file->addAction(MainWindow::tr("&Save configuration as…"), &window, [&window] {
        const QString path = QFileDialog::getSaveFileName(&window, MainWindow::tr("Save configuration"), QStringLiteral("experiment.json"),
                                                          MainWindow::tr("Configurations (*.json)"));
        if (!path.isEmpty())
            window.saveConfiguration(path);
    });
    saveConfig->setObjectName(QStringLiteral("saveConfigAction"));
    saveConfig->setShortcut(QKeySequence::SaveAs);
    file->addSeparator();
    QAction* quit = file->addAction(MainWindow::tr("&Quit"), &window, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* trainMenu = window.menuBar()->addMenu(MainWindow::tr("&Train"));
    QAction* trainAction = trainMenu->addAction(MainWindow::tr("&Train"), &window, &MainWindow::startTraining);
    trainAction->setObjectName(QStringLiteral("trainAction"));
    trainAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    QAction* stopAction = trainMenu->addAction(MainWindow::tr("&Stop"), &window, &MainWindow::stopTraining);
    stopAction->setObjectName(QStringLiteral("stopAction"));
    stopAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    // Space starts and stops, as in a media player; a focused text field or spin box keeps its space.
    QAction* startStop = trainMenu->addAction(MainWindow::tr("Start or stop"), &window, &MainWindow::startOrStop);
    startStop->setObjectName(QStringLiteral("startStopAction"));
    startStop->setShortcut(QKeySequence(Qt::Key_Space));
    trainMenu->addSeparator();
    QAction* add = trainMenu->addAction(MainWindow::tr("&Add to side by side"), &window, &MainWindow::addToComparison);
    add->setObjectName(QStringLiteral("addToComparisonAction"));
    add->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    QAction* compare = trainMenu->addAction(MainWindow::tr("&Compare side by side"), &window, &MainWindow::startComparison);
    compare->setObjectName(QStringLiteral("compareAction"));
    compare->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Return));
    QAction* stopAll = trainMenu->addAction(MainWindow::tr("Stop &every compared run"), p.live, &LiveComparisonView::stopAll);
    stopAll->setObjectName(QStringLiteral("stopComparisonAction"));
    trainMenu->addSeparator();
    QAction* advanced = trainMenu->addAction(MainWindow::tr("Show &advanced settings"));
    advanced->setObjectName(QStringLiteral("advancedAction"));
    advanced->setCheckable(true);
    QObject::connect(advanced, &QAction::toggled, p.setup, &SetupPanel::setAdvancedShown);
    QObject::connect(p.setup->findChild<QCheckBox*>(QStringLiteral("advancedBox")), &QCheckBox::toggled, advanced, &QAction::setChecked);

    QMenu* runMenu = window.menuBar()->addMenu(MainWindow::tr("&Runs"));
    runMenu->addAction(MainWindow::tr("&Refresh history"), QKeySequence::Refresh, &window, &MainWindow::refreshRuns);
    runMenu->addSeparator();
    QAction* filter = runMenu->addAction(MainWindow::tr("&Filter runs"), QKeySequence::Find, p.runList, &RunListPanel::focusFilter);
    filter->setObjectName(QStringLiteral("filterRunsAction"));
    QAction* selectShown = runMenu->addAction(MainWindow::tr("Select all &shown"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A),
                                              p.runList, &RunListPanel::selectAllShown);
    selectShown->setObjectName(QStringLiteral("selectShownAction"));
    runMenu->addMenu(p.runList->savedFiltersMenu());
    runMenu->addSeparator();
    // Every run can be explored later unless the user turns it off (disk use: a few MB per text run).
    QAction* keep = runMenu->addAction(MainWindow::tr("&Keep each run's weights"));
    keep->setObjectName(QStringLiteral("keepCheckpointsAction"));
    keep->setCheckable(true);
    keep->setChecked(QSettings().value(QStringLiteral("training/keepCheckpoints"), true).toBool());
    keep->setToolTip(MainWindow::tr("Save the best-dev and final weights with the vocabulary in checkpoints/ beside the run "
                        "database, so the Explorer can run typed sentences through them"));
    QObject::connect(keep, &QAction::toggled, &window, [](bool on) { QSettings().setValue(QStringLiteral("training/keepCheckpoints"), on); });
    runMenu->addSeparator();
    p.runActions->addTo(runMenu);

    // The workspace's tabs, and exporting the analyst's tables.
    QMenu* view = window.menuBar()->addMenu(MainWindow::tr("&View"));
    const QStringList tabs = {MainWindow::tr("&Training"),
                              MainWindow::tr("E&xplorer: the selected run's model"),
                              MainWindow::tr("&Compare selected runs"),
                              MainWindow::tr("Results &matrix"),
                              MainWindow::tr("Run &details"),
                              MainWindow::tr("&Side by side training"),
                              MainWindow::tr("&Pretrained transformer (MiniLM): its heads on your sentence"),
                              MainWindow::tr("A real &LLM (SmolLM2): its heads, logit lens and induction heads")};
    for (int i = 0; i < tabs.size(); ++i) {
        QAction* show = view->addAction(tabs[i], p.workspace, [p, i] { p.workspace->setCurrentIndex(i); });
        show->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)));
        show->setObjectName(QStringLiteral("showWorkspace%1").arg(i));
    }
    view->addSeparator();
    view->addAction(p.designerDock->toggleViewAction());
    view->addAction(p.runsDock->toggleViewAction());
    p.designerDock->toggleViewAction()->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    view->addSeparator();
    QAction* present = view->addAction(MainWindow::tr("&Presentation mode"), p.presentation, &PresentationMode::toggle);
    present->setObjectName(QStringLiteral("presentationAction"));
    present->setShortcut(QKeySequence(Qt::Key_F11));
    present->setCheckable(true);
    QObject::connect(p.presentation, &PresentationMode::activeChanged, present, &QAction::setChecked);
    QAction* zoomIn = view->addAction(MainWindow::tr("Presentation zoom &in"), p.presentation, &PresentationMode::zoomIn);
    zoomIn->setObjectName(QStringLiteral("zoomInAction"));
    zoomIn->setShortcut(QKeySequence::ZoomIn);
    QAction* zoomOut = view->addAction(MainWindow::tr("Presentation zoom &out"), p.presentation, &PresentationMode::zoomOut);
    zoomOut->setObjectName(QStringLiteral("zoomOutAction"));
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    QMenu* exportMenu = new QMenu(MainWindow::tr("&Export table"), file);
    file->insertMenu(quit, exportMenu);
    file->insertSeparator(quit);
    exportMenu->addAction(MainWindow::tr("Results &matrix…"), p.matrix, &ResultsMatrixView::exportTable);
    exportMenu->addAction(MainWindow::tr("Run &differences…"), &window, [p] {
        p.workspace->setCurrentWidget(p.compareArea);
        p.differences->findChild<QPushButton*>(QStringLiteral("differencesExport"))->click();
    });

    AboutDialog::addHelpMenu(window); // Help: About Attention Lab (version, licence, third-party terms), About Qt
}

} // namespace attnlab::ui
