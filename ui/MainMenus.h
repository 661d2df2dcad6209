#pragma once

class QDockWidget;
class QSplitter;
class QTabWidget;

namespace attnlab::ui {

class LiveComparisonView;
class MainWindow;
class PresentationMode;
class ResultsMatrixView;
class RunActions;
class RunDifferencesView;
class RunListPanel;
class SetupPanel;

// The main window's menu bar: File (run databases, your own data, configurations, export), Train (train,
// stop, side by side, advanced settings), Runs (history, filters, weights, the run actions), View (the
// workspace's tabs, the docks, presentation mode), Help (ui/AboutDialog). Every action has an object name, and the frequent ones
// a shortcut; the actions call the window's public slots and its parts.
class MainMenus {
public:
    struct Parts {
        SetupPanel* setup;
        LiveComparisonView* live;
        RunListPanel* runList;
        RunActions* runActions;
        QDockWidget* designerDock;
        QDockWidget* runsDock;
        PresentationMode* presentation;
        QTabWidget* workspace;
        ResultsMatrixView* matrix;
        RunDifferencesView* differences;
        QSplitter* compareArea;
    };
    static void build(MainWindow& window, const Parts& p);
};

} // namespace attnlab::ui
