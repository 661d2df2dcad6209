#include "ui/setup/TrainingSection.h"

#include "ui/setup/FormWidgets.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>

#include <algorithm>
#include <climits>

namespace attnlab::ui {

using namespace form;

namespace {

// A spin box's row that writes and reads one integer or real member of TrainConfig.
template <class Box, class Member>
FormSetting number(const char* key, const QString& label, Box* box, Member TrainConfig::*member, bool advanced = false)
{
    return {{key},
            label,
            box,
            advanced,
            nullptr,
            {},
            [box, member](TrainConfig& c, const ModelSpec*) { c.*member = box->value(); },
            [box, member](const TrainConfig& c) { box->setValue(c.*member); }};
}

} // namespace

TrainingSection::TrainingSection(QWidget* parent) : FormSection(tr("Training"), parent)
{
    setObjectName(QStringLiteral("trainingSection"));
    addOptimizerRows();
    addBudgetRows();
}

void TrainingSection::addOptimizerRows()
{
    auto* optimizer = choices(this, "optimizerCombo", {{tr("Adam"), "adam"}, {tr("ADADELTA (ρ = 0.95)"), "adadelta"},
                                                       {tr("SGD + momentum"), "sgd"}});
    auto* learningRate = real(this, "learningRateSpin", 1e-5, 10.0, 5, 1e-4);
    add({{"optimizer"},
         tr("Optimizer"),
         optimizer,
         false,
         nullptr,
         {},
         [optimizer](TrainConfig& c, const ModelSpec*) { c.optimizer = currentId(optimizer); },
         [optimizer](const TrainConfig& c) { selectData(optimizer, c.optimizer); }}); // the stored rate wins, below
    connect(optimizer, &QComboBox::currentIndexChanged, this, [this, optimizer, learningRate] {
        if (!reading())
            learningRate->setValue(TrainConfig::defaultLearningRate(currentId(optimizer)));
        emit rowsChanged();
    });
    add(number("learning_rate", tr("Learning rate"), learningRate, &TrainConfig::learningRate));
    const auto sgd = [optimizer](const ModelSpec*, TaskKind) { return currentId(optimizer) == "sgd"; };
    FormSetting momentum = number("momentum", tr("Momentum"), real(this, "momentumSpin", 0.0, 0.999, 3, 0.05),
                                  &TrainConfig::momentum, true);
    momentum.shown = sgd;
    add(std::move(momentum));
    auto* schedule = choices(this, "scheduleCombo", {{tr("constant"), "constant"}, {tr("step decay"), "step"}, {tr("cosine"), "cosine"}});
    connect(schedule, &QComboBox::currentIndexChanged, this, &TrainingSection::rowsChanged);
    add({{"lr_schedule"},
         tr("Schedule"),
         schedule,
         true,
         nullptr,
         {},
         [schedule](TrainConfig& c, const ModelSpec*) { c.lrSchedule = currentId(schedule); },
         [schedule](const TrainConfig& c) { selectData(schedule, c.lrSchedule); }});
    const auto decays = [schedule](const ModelSpec*, TaskKind) { return currentId(schedule) == "step"; };
    FormSetting every = number("lr_decay_every", tr("Decay every"), spin(this, "decayEverySpin", 1, 10'000'000, 100),
                               &TrainConfig::lrDecayEvery, true);
    every.shown = decays;
    add(std::move(every));
    FormSetting gamma = number("lr_decay_gamma", tr("Decay factor"), real(this, "decayGammaSpin", 0.001, 1.0, 3, 0.05),
                               &TrainConfig::lrDecayGamma, true);
    gamma.shown = decays;
    add(std::move(gamma));
    add(number("warmup_steps", tr("Warm-up steps"), spin(this, "warmupSpin", 0, 10'000'000, 50), &TrainConfig::warmupSteps, true));
    auto* l2 = real(this, "l2Spin", 0.0, 10.0, 6, 1e-5);
    l2->setToolTip(tr("Thesis eq. 4.1: loss + γ · (1/n) Σ w² over the weight matrices"));
    add(number("l2", tr("L2 (eq. 4.1)"), l2, &TrainConfig::l2, true));
    auto* weightDecay = real(this, "weightDecaySpin", 0.0, 10.0, 5, 1e-3);
    weightDecay->setToolTip(tr("Decoupled weight decay per step (with Adam: AdamW)"));
    add(number("weight_decay", tr("Weight decay"), weightDecay, &TrainConfig::weightDecay, true));
    auto* clipNorm = real(this, "clipNormSpin", 0.0, 1000.0, 2, 0.5);
    clipNorm->setSpecialValueText(tr("off"));
    add(number("clip_norm", tr("Clip gradients"), clipNorm, &TrainConfig::clipNorm, true));
    auto* gradientNorms = check(this, "gradientNormsBox", tr("record per layer and by word distance"),
                                tr("At every log step the gradient's norm before clipping, in total and per layer; at every "
                                   "evaluation of a text classifier, how strongly the loss reaches each word by its distance "
                                   "from the last (Compare draws both)"));
    add({{"gradient_norms"},
         tr("Gradient norms"),
         gradientNorms,
         true,
         nullptr,
         {},
         [gradientNorms](TrainConfig& c, const ModelSpec*) { c.gradientNorms = gradientNorms->isChecked(); },
         [gradientNorms](const TrainConfig& c) { gradientNorms->setChecked(c.gradientNorms); }});
}

void TrainingSection::addBudgetRows()
{
    add(number("steps", tr("Steps"), spin(this, "stepsSpin", 1, 10'000'000, 100), &TrainConfig::steps));
    auto* epochs = spin(this, "epochsSpin", 0, 100000);
    epochs->setSpecialValueText(tr("off: use steps"));
    epochs->setToolTip(tr("Passes over the training set; replaces the step budget when set"));
    add(number("epochs", tr("Epochs"), epochs, &TrainConfig::epochs, true));
    auto* patience = spin(this, "patienceSpin", 0, 100000);
    patience->setSpecialValueText(tr("off"));
    patience->setToolTip(tr("Early stopping: dev evaluations without improvement before training stops"));
    add(number("patience", tr("Patience"), patience, &TrainConfig::patience, true));
    auto* sampling = choices(this, "samplingCombo", {{tr("random batches (thesis)"), "random"}, {tr("shuffled epochs"), "epochs"}});
    add({{"sampling"},
         tr("Batches"),
         sampling,
         true,
         nullptr,
         {},
         [sampling](TrainConfig& c, const ModelSpec*) { c.sampling = currentId(sampling); },
         [sampling](const TrainConfig& c) { selectData(sampling, c.sampling); }});
    add(number("batch_size", tr("Batch size"), spin(this, "batchSizeSpin", 1, 4096), &TrainConfig::batchSize));
    auto* evalEvery = spin(this, "evalEverySpin", 1, 1'000'000, 10);
    evalEvery->setToolTip(tr("Steps between dev evaluations and attention snapshots"));
    add(number("eval_every", tr("Eval every"), evalEvery, &TrainConfig::evalEvery));
    add(number("log_every", tr("Log every"), spin(this, "logEverySpin", 1, 1'000'000, 10), &TrainConfig::logEvery, true));
    auto* seed = spin(this, "seedSpin", 0, INT_MAX);
    add({{"seed"},
         tr("Seed"),
         seed,
         false,
         nullptr,
         {},
         [seed](TrainConfig& c, const ModelSpec*) { c.seed = static_cast<std::uint64_t>(seed->value()); },
         [seed](const TrainConfig& c) { seed->setValue(static_cast<int>(std::min<std::uint64_t>(c.seed, INT_MAX))); }});
    repeats_ = spin(this, "repeatsSpin", 1, 100);
    repeats_->setToolTip(tr("Runs with seeds seed, seed + 1, ...; mean ± sample std at the end, as the thesis reports"));
    add({{}, tr("Repeats"), repeats_, false, nullptr, {}, {}, {}});
    auto* probes = new QLineEdit(this);
    probes->setObjectName(QStringLiteral("probesEdit"));
    probes->setPlaceholderText(tr("one dev example per class"));
    probes->setToolTip(tr("Sentences whose attention every evaluation stores besides the probe sentence, separated by ';' "
                          "(the Explorer's timeline shows them). Empty: one short dev example per class."));
    add({{"probes"},
         tr("Probes"),
         probes,
         true,
         nullptr,
         [](const ModelSpec*, TaskKind task) { return task == TaskKind::Classification; },
         [probes](TrainConfig& c, const ModelSpec*) {
             for (const QString& probe : probes->text().split(QLatin1Char(';'), Qt::SkipEmptyParts))
                 if (!probe.trimmed().isEmpty())
                     c.probes.push_back(probe.trimmed().toStdString());
         },
         [probes](const TrainConfig& c) {
             QStringList list;
             for (const auto& p : c.probes)
                 list << QString::fromStdString(p);
             probes->setText(list.join(QStringLiteral("; ")));
         }});
    // A language model writes this many tokens from its prompt at every evaluation (its timeline of samples).
    auto* samples = spin(this, "sampleTokensSpin", 0, 10000, 50);
    samples->setSpecialValueText(tr("none"));
    samples->setToolTip(tr("Tokens the model writes from its dataset's prompt at each evaluation, seeded: the samples show "
                           "writing emerge as it trains"));
    const TrainConfig defaults;
    add({{"sample_tokens"},
         tr("Samples"),
         samples,
         true,
         nullptr,
         [](const ModelSpec*, TaskKind task) { return task == TaskKind::LanguageModel; },
         [samples, defaults](TrainConfig& c, const ModelSpec* m) {
             c.sampleTokens = m && m->servesTask(TaskKind::LanguageModel) ? samples->value() : defaults.sampleTokens;
         },
         [samples](const TrainConfig& c) { samples->setValue(c.sampleTokens); }});
}

int TrainingSection::repeats() const { return repeats_->value(); }
void TrainingSection::setRepeats(int repeats) { repeats_->setValue(std::max(1, repeats)); }

} // namespace attnlab::ui
