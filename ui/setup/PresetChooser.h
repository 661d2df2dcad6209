#pragma once
#include "ui/training/CoreMetaTypes.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QMenu;
class QToolButton;

namespace attnlab::ui {

// "Start from": the lessons (teaching scenarios trained side by side, or a pretrained model explored), the teaching
// presets and the thesis experiments (quick and full), or a configuration file the user saved. Choosing one fills the
// form (and, for a lesson, the side-by-side list); below it the form's differences from what was chosen are listed.
class PresetChooser : public QWidget {
    Q_OBJECT
public:
    explicit PresetChooser(QWidget* parent = nullptr);

    // The chosen preset's configuration and repeats (a lesson: its first preset); nullopt-like: empty name.
    QString chosenName() const { return chosenName_; }
    // Lists what `current` changes from the chosen preset ("steps 1500 → 600"), or says it matches.
    void showDifferences(const TrainConfig& current);
    // Selects the item of a preset, lesson or file by its name ("table5.3-lstm-quick", "lesson:san-vs-rnn").
    bool choose(const QString& name);
    QMenu* recentMenu() const { return recent_; }
    // A configuration file opened or saved: into the recent files (QSettings "designer/recentConfigs").
    void addRecentFile(const QString& path);
    QStringList recentFiles() const;

signals:
    void presetChosen(const attnlab::TrainConfig& config, int repeats);
    // A lesson: its presets' configurations, to be trained side by side.
    // `expected`: per configuration, what docs/RESULTS.md measured for its preset (empty where nothing was).
    void scenarioChosen(const std::vector<attnlab::TrainConfig>& configs, const QString& title, const QStringList& expected,
                        const QString& opens);
    // A lesson that trains nothing and opens a pretrained model (TeachingScenario::explore): its id.
    void explorationChosen(const QString& lessonId);
    void openRequested(const QString& path); // a recent file picked from the menu

private:
    void onActivated(int index);
    void fillRecent();

    QComboBox* combo_;
    QLabel* description_;
    QLabel* differences_;
    QMenu* recent_;
    QString chosenName_;
    TrainConfig chosen_;
    bool hasChosen_ = false;
};

} // namespace attnlab::ui
