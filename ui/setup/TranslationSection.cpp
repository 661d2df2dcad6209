#include "ui/setup/TranslationSection.h"

#include "core/config/Registry.h"
#include "ui/setup/FormWidgets.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSpinBox>

namespace attnlab::ui {

using namespace form;

TranslationSection::TranslationSection(QWidget* parent) : QGroupBox(tr("Encoder-decoder"), parent)
{
    setObjectName(QStringLiteral("translationSection"));
    embeddingDim_ = spin(this, "embeddingDimSpin", 0, 4096, 8);
    embeddingDim_->setSpecialValueText(tr("= d_model"));
    embeddingDim_->setToolTip(tr("The word vectors' size, when it differs from the hidden size"));
    attentionScore_ = choices(this, "attentionScoreCombo", {{tr("model default"), ""}, {tr("additive (concat, Bahdanau)"), "additive"},
                                                            {tr("dot"), "dot"}, {tr("general"), "general"}, {tr("concat (Luong)"), "concat"}});
    attentionScore_->setToolTip(tr("How a decoder state scores each source word: Bahdanau's additive score, Luong's dot, "
                                   "general (a bilinear form) or concat. Default: Bahdanau additive, Luong general"));
    alignment_ = choices(this, "alignmentCombo", {{tr("global (every source word)"), "global"}, {tr("local-m (monotone window)"), "local-m"},
                                                  {tr("local-p (predicted window)"), "local-p"}});
    alignment_->setToolTip(tr("Luong et al. 3.2: attend to every source word, or to a window of 2D + 1 words around the "
                              "target's position (local-m) or a predicted one (local-p, weighted by a Gaussian)"));
    localWindow_ = spin(this, "localWindowSpin", 1, 100);
    localWindow_->setToolTip(tr("D of Luong's local attention: the window is [p - D, p + D]"));
    teacherForcing_ = real(this, "teacherForcingSpin", 0.0, 1.0, 2, 0.05);
    teacherForcing_->setToolTip(tr("Share of the recurrent decoder's steps fed the right previous word (1 = always; "
                                   "below 1 it also learns from its own guesses)"));
    labelSmoothing_ = real(this, "labelSmoothingSpin", 0.0, 0.9, 2, 0.05);
    labelSmoothing_->setToolTip(tr("ε of label-smoothed cross-entropy (Vaswani et al.: 0.1)"));
    beamSize_ = spin(this, "beamSizeSpin", 1, 64);
    beamSize_->setSpecialValueText(tr("1 (greedy)"));
    beamSize_->setToolTip(tr("How evaluation and the explorer decode: 1 = greedy, K = beam search keeping K hypotheses"));
    lengthPenalty_ = real(this, "lengthPenaltySpin", 0.0, 5.0, 2, 0.1);
    lengthPenalty_->setToolTip(tr("GNMT's α: a beam's scores are log P / ((5 + |Y|) / 6)^α (0 = none)"));
    connect(alignment_, &QComboBox::currentIndexChanged, this, &TranslationSection::alignmentChanged);

    auto* form = new QFormLayout(this);
    for (const Row& r : std::vector<Row>{{tr("Attention score"), attentionScore_},
                                         {tr("Alignment"), alignment_},
                                         {tr("Local window D"), localWindow_},
                                         {tr("Word vector size"), embeddingDim_, true},
                                         {tr("Teacher forcing"), teacherForcing_, true},
                                         {tr("Label smoothing"), labelSmoothing_, true},
                                         {tr("Beam size"), beamSize_},
                                         {tr("Length penalty"), lengthPenalty_, true}}) {
        form->addRow(r.label, r.field);
        advancedRows_.insert(r.field, r.advanced);
    }
}

void TranslationSection::apply(TrainConfig& config, const RegistryEntry* model) const
{
    config.model.embeddingDim = hasOption(model, "embedding_dim") ? embeddingDim_->value() : 0;
    config.model.attentionScore = hasOption(model, "attention_score") ? attentionScore_->currentData().toString().toStdString() : std::string();
    config.model.alignment = hasOption(model, "alignment") ? alignment_->currentData().toString().toStdString() : std::string("global");
    config.model.localWindow = localWindow_->value();
    if (model && model->task == "translation") { // other runs keep the defaults, so their JSON stays as it was
        config.teacherForcing = model->id != "transformer-seq2seq" ? teacherForcing_->value() : 1.0;
        config.labelSmoothing = labelSmoothing_->value();
        config.beamSize = beamSize_->value();
        config.lengthPenalty = lengthPenalty_->value();
    }
}

void TranslationSection::load(const TrainConfig& config)
{
    embeddingDim_->setValue(config.model.embeddingDim);
    selectData(attentionScore_, config.model.attentionScore);
    selectData(alignment_, config.model.alignment);
    localWindow_->setValue(config.model.localWindow);
    teacherForcing_->setValue(config.teacherForcing);
    labelSmoothing_->setValue(config.labelSmoothing);
    beamSize_->setValue(config.beamSize);
    lengthPenalty_->setValue(config.lengthPenalty);
}

void TranslationSection::addApplicability(QHash<QWidget*, bool>& applies, const RegistryEntry* model, bool translation) const
{
    const bool local = alignment_->currentData().toString() != QLatin1String("global");
    applies.insert(embeddingDim_, hasOption(model, "embedding_dim"));
    applies.insert(attentionScore_, hasOption(model, "attention_score"));
    applies.insert(alignment_, hasOption(model, "alignment"));
    applies.insert(localWindow_, hasOption(model, "local_window") && local);
    applies.insert(teacherForcing_, translation && model && model->id != "transformer-seq2seq"); // a Transformer reads all at once
    applies.insert(labelSmoothing_, translation);
    applies.insert(beamSize_, translation);
    applies.insert(lengthPenalty_, translation);
}

std::vector<std::tuple<const char*, QString, QWidget*>> TranslationSection::fields() const
{
    return {{"embedding_dim", tr("Word vector size"), embeddingDim_},   {"attention_score", tr("Attention score"), attentionScore_},
            {"alignment", tr("Alignment"), alignment_},                {"local_window", tr("Local window D"), localWindow_},
            {"teacher_forcing", tr("Teacher forcing"), teacherForcing_}, {"label_smoothing", tr("Label smoothing"), labelSmoothing_},
            {"beam_size", tr("Beam size"), beamSize_},                 {"length_penalty", tr("Length penalty"), lengthPenalty_}};
}

} // namespace attnlab::ui
