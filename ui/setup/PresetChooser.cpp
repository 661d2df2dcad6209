#include "ui/setup/PresetChooser.h"

#include "core/analysis/ConfigDiff.h"
#include "core/config/Registry.h"
#include "core/config/TeachingScenario.h"
#include "core/config/TrainPreset.h"
#include "core/results/RunRecord.h"
#include "ui/StdStrings.h"

#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QSettings>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <exception>

namespace attnlab::ui {
namespace {

const QString kLessonPrefix = QStringLiteral("lesson:");
const QString kRealSuffix = QStringLiteral(":real"); // "lesson:san-vs-rnn:real": the lesson on real data
const QString kRecentConfigsKey = QStringLiteral("designer/recentConfigs");
constexpr int kMaxRecent = 8;

// A bold, unselectable row that names the group below it.
void addHeading(QComboBox* combo, const QString& text)
{
    combo->addItem(text);
    if (auto* items = qobject_cast<QStandardItemModel*>(combo->model())) {
        QStandardItem* item = items->item(combo->count() - 1);
        item->setFlags(item->flags() & ~(Qt::ItemIsSelectable | Qt::ItemIsEnabled));
        QFont bold = item->font();
        bold.setBold(true);
        item->setFont(bold);
    }
}

bool isQuick(const std::string& name) { return name.size() > 6 && name.compare(name.size() - 6, 6, "-quick") == 0; }
bool isTeaching(const std::string& name) { return name.rfind("teach-", 0) == 0; }

} // namespace

PresetChooser::PresetChooser(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("presetChooser"));
    combo_ = new QComboBox(this);
    combo_->setObjectName(QStringLiteral("presetCombo"));
    combo_->addItem(tr("Your own settings"), QString());
    addHeading(combo_, tr("Lessons: trained side by side"));
    for (const auto& s : TeachingScenario::all()) {
        if (s.explore)
            continue;
        combo_->addItem(QStringLiteral("  ") + qs(s.title), kLessonPrefix + qs(s.id));
        combo_->setItemData(combo_->count() - 1, qs(s.description), Qt::ToolTipRole);
        if (!s.realPresets.empty()) {
            combo_->addItem(QStringLiteral("  ") + tr("%1 (real data, as measured)").arg(qs(s.realTitle)), kLessonPrefix + qs(s.id) + kRealSuffix);
            combo_->setItemData(combo_->count() - 1,
                                tr("%1\nNeeds %2 and the GloVe vectors: File → Datasets… fetches or imports them.")
                                    .arg(qs(s.realLesson), qs(s.realPresets.front()->config.dataset)),
                                Qt::ToolTipRole);
        }
    }
    addHeading(combo_, tr("Lessons: inside a real LLM (nothing trained)"));
    for (const auto& s : TeachingScenario::all())
        if (s.explore) {
            combo_->addItem(QStringLiteral("  ") + qs(s.title), kLessonPrefix + qs(s.id));
            combo_->setItemData(combo_->count() - 1,
                                tr("%1\nNeeds the model: File → Datasets… fetches it.").arg(qs(s.description)),
                                Qt::ToolTipRole);
        }
    const auto addPresets = [this](const QString& heading, auto keep) {
        addHeading(combo_, heading);
        for (const auto& p : TrainPreset::all())
            if (keep(p.name)) {
                combo_->addItem(QStringLiteral("  ") + qs(p.description.substr(0, p.description.find(" \xe2\x80\x94"))), qs(p.name));
                combo_->setItemData(combo_->count() - 1, qs(p.name + ": " + p.description), Qt::ToolTipRole);
            }
    };
    addPresets(tr("Teaching presets (no download)"), [](const std::string& n) { return isTeaching(n); });
    addPresets(tr("Thesis experiments, quick (minutes on 2 cores)"), [](const std::string& n) { return !isTeaching(n) && isQuick(n); });
    addPresets(tr("Thesis experiments, full budget (hours)"), [](const std::string& n) { return !isTeaching(n) && !isQuick(n); });
    combo_->setMaxVisibleItems(24);
    combo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo_->setMinimumContentsLength(24);

    description_ = new QLabel(this);
    description_->setObjectName(QStringLiteral("presetDescription"));
    description_->setWordWrap(true);
    description_->setVisible(false);
    differences_ = new QLabel(this);
    differences_->setObjectName(QStringLiteral("presetDifferences"));
    differences_->setWordWrap(true);
    differences_->setTextFormat(Qt::RichText);
    differences_->setVisible(false);

    recent_ = new QMenu(tr("Open &recent configuration"), this);
    recent_->setObjectName(QStringLiteral("recentConfigsMenu"));
    fillRecent();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(combo_);
    layout->addWidget(description_);
    layout->addWidget(differences_);

    connect(combo_, &QComboBox::activated, this, &PresetChooser::onActivated);
}

bool PresetChooser::choose(const QString& name)
{
    const int index = combo_->findData(name);
    if (index < 0)
        return false;
    combo_->setCurrentIndex(index);
    onActivated(index);
    return true;
}

void PresetChooser::onActivated(int index)
{
    const QString name = combo_->itemData(index).toString();
    chosenName_ = name;
    hasChosen_ = !name.isEmpty();
    if (name.startsWith(kLessonPrefix)) {
        const bool real = name.endsWith(kRealSuffix);
        const QString id = name.mid(kLessonPrefix.size(), name.size() - kLessonPrefix.size() - (real ? kRealSuffix.size() : 0));
        const TeachingScenario* s = TeachingScenario::find(id.toStdString());
        if (!s || (real && s->realPresets.empty()))
            return;
        if (s->explore) { // nothing to train: the form and the side-by-side list stay as they are
            hasChosen_ = false;
            differences_->setVisible(false);
            description_->setText(tr("%1 %2").arg(qs(s->description), qs(s->lesson)));
            description_->setVisible(true);
            emit explorationChosen(id);
            return;
        }
        const auto& presets = real ? s->realPresets : s->presets;
        std::vector<TrainConfig> configs;
        QStringList expected, expectedLines;
        for (const TrainPreset* p : presets) {
            configs.push_back(p->config);
            expected << qs(p->expected.text());
            if (!p->expected.empty())
                expectedLines << tr("%1: %2").arg(qs(Registry::modelLabel(p->config.model.model, p->config.model.position)),
                                                  qs(p->expected.text()));
        }
        description_->setText(real ? tr("%1 Measured (%2): %3.").arg(qs(s->realLesson), qs(presets.front()->expected.source),
                                                                     expectedLines.join(QStringLiteral("; ")))
                                   : tr("%1 %2").arg(qs(s->description), qs(s->lesson)));
        description_->setVisible(true);
        chosen_ = configs.front();
        emit presetChosen(chosen_, 1);
        emit scenarioChosen(configs, real ? qs(s->realTitle) : qs(s->title), expected, qs(s->opens));
        return;
    }
    if (const TrainPreset* p = TrainPreset::find(name.toStdString())) {
        description_->setText(qs(p->description) + (p->repeats > 1 ? tr(" (%1 runs, seeds %2…%3)").arg(p->repeats).arg(p->config.seed).arg(p->config.seed + p->repeats - 1) : QString())
                              + (p->expected.empty() ? QString() : tr(" Expected: %1 (%2).").arg(qs(p->expected.text()), qs(p->expected.source))));
        description_->setVisible(true);
        chosen_ = p->config;
        emit presetChosen(chosen_, p->repeats);
        return;
    }
    description_->setVisible(false);
    differences_->setVisible(false);
}

void PresetChooser::showDifferences(const TrainConfig& current)
{
    if (!hasChosen_) {
        differences_->setVisible(false);
        return;
    }
    RunRecord preset, form;
    preset.configJson = chosen_.toJson();
    form.configJson = current.toJson();
    const auto diffs = ConfigDiff::of({preset, form});
    QStringList changed;
    for (const FieldDiff& d : diffs) {
        // Where the window stores checkpoints, and how many threads, is the window's business, not the preset's.
        if (d.key == "checkpoint_dir" || d.key == "data_dir" || d.key == "threads")
            continue;
        const QString was = d.values[0].empty() ? tr("(default)") : qs(d.values[0]).toHtmlEscaped();
        const QString now = d.values[1].empty() ? tr("(default)") : qs(d.values[1]).toHtmlEscaped();
        changed << QStringLiteral("%1 %2 → <b>%3</b>").arg(qs(d.key), was, now);
    }
    differences_->setText(changed.isEmpty() ? tr("<i>As the preset.</i>")
                                            : tr("Changed from the preset: %1").arg(changed.join(QStringLiteral(", "))));
    differences_->setToolTip(changed.join(QLatin1Char('\n')));
    differences_->setVisible(true);
}

QStringList PresetChooser::recentFiles() const { return QSettings().value(kRecentConfigsKey).toStringList(); }

void PresetChooser::addRecentFile(const QString& path)
{
    QStringList files = recentFiles();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecent)
        files.removeLast();
    QSettings().setValue(kRecentConfigsKey, files);
    fillRecent();
}

void PresetChooser::fillRecent()
{
    recent_->clear();
    const QStringList files = recentFiles();
    for (const QString& file : files)
        recent_->addAction(QFileInfo(file).fileName(), this, [this, file] { emit openRequested(file); })->setToolTip(file);
    recent_->setEnabled(!files.isEmpty());
}

} // namespace attnlab::ui
