#include "ui/setup/TranslationSection.h"

#include "core/config/DecodingSettings.h"
#include "core/config/Registry.h"
#include "ui/setup/FormWidgets.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>

namespace attnlab::ui {

using namespace form;

namespace {

bool translates(const ModelSpec* model)
{
    return model && model->servesTask(TaskKind::Translation);
}
bool onTranslation(const ModelSpec*, TaskKind task)
{
    return task == TaskKind::Translation;
}

// A decoding or training row of the encoder-decoders: written for a translation model only, so other runs
// keep the defaults and their JSON stays as it was.
template <class Box, class Member>
FormSetting decoding(const char* key, const QString& label, Box* box, Member TrainConfig::*member, bool advanced)
{
    return {{key},
            label,
            box,
            advanced,
            nullptr,
            onTranslation,
            [box, member](TrainConfig& c, const ModelSpec* m) {
                if (translates(m))
                    c.*member = box->value();
            },
            [box, member](const TrainConfig& c) { box->setValue(c.*member); }};
}

} // namespace

TranslationSection::TranslationSection(QWidget* parent) : FormSection(tr("Encoder-decoder"), parent)
{
    setObjectName(QStringLiteral("translationSection"));
    auto* score = choices(this, "attentionScoreCombo", {{tr("model default"), ""}, {tr("additive (concat, Bahdanau)"), "additive"},
                                                         {tr("dot"), "dot"}, {tr("general"), "general"}, {tr("concat (Luong)"), "concat"}});
    score->setToolTip(tr("How a decoder state scores each source word: Bahdanau's additive score, Luong's dot, "
                         "general (a bilinear form) or concat. Default: Bahdanau additive, Luong general"));
    add({{"attention_score"},
         tr("Attention score"),
         score,
         false,
         "attention_score",
         {},
         [score](TrainConfig& c, const ModelSpec* m) {
             c.model.attentionScore = hasOption(m, "attention_score") ? currentId(score) : std::string();
         },
         [score](const TrainConfig& c) { selectData(score, c.model.attentionScore); }});
    auto* alignment = choices(this, "alignmentCombo", {{tr("global (every source word)"), "global"}, {tr("local-m (monotone window)"), "local-m"},
                                                       {tr("local-p (predicted window)"), "local-p"}});
    alignment->setToolTip(tr("Luong et al. 3.2: attend to every source word, or to a window of 2D + 1 words around the "
                             "target's position (local-m) or a predicted one (local-p, weighted by a Gaussian)"));
    connect(alignment, &QComboBox::currentIndexChanged, this, &TranslationSection::alignmentChanged);
    add({{"alignment"},
         tr("Alignment"),
         alignment,
         false,
         "alignment",
         {},
         [alignment](TrainConfig& c, const ModelSpec* m) {
             c.model.alignment = hasOption(m, "alignment") ? currentId(alignment) : std::string("global");
         },
         [alignment](const TrainConfig& c) { selectData(alignment, c.model.alignment); }});
    auto* window = spin(this, "localWindowSpin", 1, 100);
    window->setToolTip(tr("D of Luong's local attention: the window is [p - D, p + D]"));
    add({{"local_window"},
         tr("Local window D"),
         window,
         false,
         "local_window",
         [alignment](const ModelSpec*, TaskKind) { return currentId(alignment) != "global"; },
         [window](TrainConfig& c, const ModelSpec*) { c.model.localWindow = window->value(); },
         [window](const TrainConfig& c) { window->setValue(c.model.localWindow); }});
    auto* embedding = spin(this, "embeddingDimSpin", 0, 4096, 8);
    embedding->setSpecialValueText(tr("= d_model"));
    embedding->setToolTip(tr("The word vectors' size, when it differs from the hidden size"));
    add({{"embedding_dim"},
         tr("Word vector size"),
         embedding,
         true,
         "embedding_dim",
         {},
         [embedding](TrainConfig& c, const ModelSpec* m) {
             c.model.embeddingDim = hasOption(m, "embedding_dim") ? embedding->value() : 0;
         },
         [embedding](const TrainConfig& c) { embedding->setValue(c.model.embeddingDim); }});
    auto* forcing = real(this, "teacherForcingSpin", 0.0, 1.0, 2, 0.05);
    forcing->setToolTip(tr("Share of the recurrent decoder's steps fed the right previous word (1 = always; "
                           "below 1 it also learns from its own guesses)"));
    // A Transformer reads the whole target at once: always forced.
    const auto recurrent = [](const ModelSpec* m) { return m && m->can.recurrentDecoder; };
    add({{"teacher_forcing"},
         tr("Teacher forcing"),
         forcing,
         true,
         nullptr,
         [recurrent](const ModelSpec* m, TaskKind task) { return task == TaskKind::Translation && recurrent(m); },
         [forcing, recurrent](TrainConfig& c, const ModelSpec* m) {
             if (translates(m))
                 c.teacherForcing = recurrent(m) ? forcing->value() : 1.0;
         },
         [forcing](const TrainConfig& c) { forcing->setValue(c.teacherForcing); }});
    auto* smoothing = real(this, "labelSmoothingSpin", 0.0, 0.9, 2, 0.05);
    smoothing->setToolTip(tr("ε of label-smoothed cross-entropy (Vaswani et al.: 0.1)"));
    add(decoding("label_smoothing", tr("Label smoothing"), smoothing, &TrainConfig::labelSmoothing, true));
    auto* beam = spin(this, "beamSizeSpin", DecodingSettings::kMinBeam, DecodingSettings::kMaxBeam);
    beam->setSpecialValueText(tr("1 (greedy)"));
    beam->setToolTip(tr("How evaluation and the explorer decode: 1 = greedy, K = beam search keeping K hypotheses"));
    add(decoding("beam_size", tr("Beam size"), beam, &TrainConfig::beamSize, false));
    auto* penalty = real(this, "lengthPenaltySpin", 0.0, DecodingSettings::kMaxLengthPenalty, 2, 0.1);
    penalty->setToolTip(tr("GNMT's α: a beam's scores are log P / ((5 + |Y|) / 6)^α (0 = none)"));
    add(decoding("length_penalty", tr("Length penalty"), penalty, &TrainConfig::lengthPenalty, true));
}

} // namespace attnlab::ui
