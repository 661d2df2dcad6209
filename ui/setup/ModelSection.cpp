#include "ui/setup/ModelSection.h"

#include "core/config/Registry.h"
#include "ui/StdStrings.h"
#include "ui/setup/FormWidgets.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>

#include <algorithm>

namespace attnlab::ui {

using namespace form;

ModelSection::ModelSection(QWidget* parent) : FormSection(tr("Model"), parent)
{
    setObjectName(QStringLiteral("modelSection"));
    addModelRows();
    addSizeRows();
    connect(model_, &QComboBox::currentIndexChanged, this, [this] {
        followModel();
        emit modelChanged();
    });
    connect(position_, &QComboBox::currentIndexChanged, this, [this] {
        rprClip_->setEnabled(position_->currentData().toString() == QLatin1String("rpr"));
        emit positionChanged();
    });
}

const ModelSpec* ModelSection::model() const
{
    return currentEntry(model_, Registry::models());
}

void ModelSection::addModelRows()
{
    model_ = new QComboBox(this);
    model_->setObjectName(QStringLiteral("modelCombo"));
    for (const auto& entry : Registry::models())
        addEntry(model_, entry);
    add({{"model"},
         tr("Architecture"),
         model_,
         false,
         nullptr,
         {},
         [this](TrainConfig& c, const ModelSpec*) { c.model.model = currentId(model_); },
         [this](const TrainConfig& c) {
             selectData(model_, c.model.model);
             followModel(); // its positions and pooling choices before the rows below read theirs
         }});
    auto* frozen = check(this, "frozenEncoderBox", tr("Train the head only"),
                         tr("Keep the pretrained encoder as loaded and train only the classification layer (fast)"));
    frozenEncoder_ = frozen;
    add({{"frozen_encoder"},
         tr("Pretrained encoder"),
         frozen,
         false,
         "frozen_encoder",
         {},
         [frozen](TrainConfig& c, const ModelSpec* m) {
             c.model.frozenEncoder = hasOption(m, "frozen_encoder") && frozen->isChecked();
         },
         [frozen](const TrainConfig& c) { frozen->setChecked(c.model.frozenEncoder); }});
    position_ = new QComboBox(this);
    position_->setObjectName(QStringLiteral("positionCombo"));
    add({{"position"},
         tr("Position"),
         position_,
         false,
         nullptr,
         {},
         [this](TrainConfig& c, const ModelSpec*) { c.model.position = currentId(position_); },
         [this](const TrainConfig& c) {
             fillPositions();
             selectData(position_, c.model.position);
         }});
    // The attention-debate baseline (ModelConfig::uniformAttention): a model whose every weight is 1/n. Without
    // this row a preset that asks for it lost it in the form.
    auto* uniform = check(this, "uniformAttentionBox", tr("Uniform (1/n): a baseline without learned attention"),
                          tr("Every attention weight frozen to 1/n over the real tokens: if the model scores the same, its task "
                             "did not need attention (not with rope or alibi, which act on the scores)"));
    uniformAttention_ = uniform;
    add({{"uniform_attention"},
         tr("Attention weights"),
         uniform,
         false,
         "uniform_attention",
         {},
         [uniform](TrainConfig& c, const ModelSpec* m) {
             c.model.uniformAttention = hasOption(m, "uniform_attention") && uniform->isChecked();
         },
         [uniform](const TrainConfig& c) { uniform->setChecked(c.model.uniformAttention); }});
    auto* rprClip = spin(this, "rprClipSpin", 1, 512);
    rprClip->setToolTip(tr("k of Shaw et al. (2018): relative distances are clipped to [-k, k]"));
    rprClip_ = rprClip;
    add({{"rpr_clip"},
         tr("RPR clip k"),
         rprClip,
         false,
         "rpr_clip",
         {},
         [rprClip](TrainConfig& c, const ModelSpec*) { c.model.rprClip = rprClip->value(); },
         [rprClip](const TrainConfig& c) { rprClip->setValue(c.model.rprClip); }});
}

void ModelSection::addSizeRows()
{
    auto* dModel = spin(this, "dModelSpin", 4, 2048, 8);
    add({{"d_model"},
         tr("d_model"),
         dModel,
         false,
         "d_model",
         {},
         [dModel](TrainConfig& c, const ModelSpec*) { c.model.dModel = dModel->value(); },
         [dModel](const TrainConfig& c) { dModel->setValue(c.model.dModel); }});
    auto* layers = spin(this, "layersSpin", 1, 12);
    add({{"layers"},
         tr("Layers"),
         layers,
         false,
         "layers",
         {},
         [layers](TrainConfig& c, const ModelSpec*) { c.model.layers = layers->value(); },
         [layers](const TrainConfig& c) { layers->setValue(c.model.layers); }});
    // Options the model does not have are written as their neutral values (by the registry, not by the
    // widgets' enabled state, which the locked form changes during a run).
    auto* heads = spin(this, "headsSpin", 1, 64);
    heads->setToolTip(tr("Attention heads; each gets d_model / heads dimensions, so heads must divide d_model"));
    heads_ = heads;
    add({{"heads"},
         tr("Heads"),
         heads,
         false,
         "heads",
         {},
         [heads](TrainConfig& c, const ModelSpec* m) { c.model.heads = hasOption(m, "heads") ? heads->value() : 1; },
         [heads](const TrainConfig& c) { heads->setValue(c.model.heads); }});
    auto* activation = choices(this, "activationCombo", {{tr("model default"), ""}, {QStringLiteral("relu"), "relu"},
                                                         {QStringLiteral("swish"), "swish"}, {QStringLiteral("gelu"), "gelu"}});
    activation_ = activation;
    add({{"activation"},
         tr("Activation"),
         activation,
         true,
         "activation",
         {},
         [activation](TrainConfig& c, const ModelSpec* m) {
             c.model.activation = hasOption(m, "activation") ? currentId(activation) : std::string();
         },
         [activation](const TrainConfig& c) { selectData(activation, c.model.activation); }});
    pooling_ = new QComboBox(this);
    pooling_->setObjectName(QStringLiteral("poolingCombo"));
    pooling_->setToolTip(tr("How positions become one vector: mean, max, or attention (ESSAN's AttnSeqRep)"));
    add({{"pooling"},
         tr("Pooling"),
         pooling_,
         true,
         "pooling",
         {},
         [this](TrainConfig& c, const ModelSpec* m) {
             c.model.pooling = m && !m->pooling.empty() ? currentId(pooling_) : std::string();
         },
         [this](const TrainConfig& c) { selectData(pooling_, c.model.pooling); }});
    auto* keep = real(this, "dropoutKeepSpin", 0.05, 1.0, 2, 0.05);
    keep->setToolTip(tr("Probability of keeping a unit (1 = no dropout)"));
    add({{"dropout_keep"},
         tr("Dropout keep"),
         keep,
         false,
         "dropout_keep",
         {},
         [keep](TrainConfig& c, const ModelSpec*) { c.model.dropoutKeep = keep->value(); },
         [keep](const TrainConfig& c) { keep->setValue(c.model.dropoutKeep); }});
    const char* pointNames[] = {"input", "hidden", "output"};
    const char* pointBoxNames[] = {"dropoutInputBox", "dropoutHiddenBox", "dropoutOutputBox"};
    const QString pointTips[] = {tr("Drop units of the input embeddings"), tr("Drop units of each layer's output"),
                                 tr("Drop units of the sentence vector before the softmax layer")};
    for (int i = 0; i < 3; ++i)
        dropoutPoints_[i] = check(this, pointBoxNames[i], QString::fromLatin1(pointNames[i]), pointTips[i]);
    add({{"dropout_points"},
         tr("Dropout at"),
         row(this, {dropoutPoints_[0], dropoutPoints_[1], dropoutPoints_[2]}, true),
         true,
         "dropout_points",
         {},
         [this](TrainConfig& c, const ModelSpec* m) {
             if (!m)
                 return;
             // "" while the boxes show the model's own points, so stored configurations stay short.
             std::vector<std::string> chosen;
             std::string list;
             for (QCheckBox* box : dropoutPoints_) {
                 const std::string point = box->text().toStdString();
                 if (box->isChecked() && std::count(m->dropoutAllowed.begin(), m->dropoutAllowed.end(), point)) {
                     chosen.push_back(point);
                     list += (list.empty() ? "" : ",") + point;
                 }
             }
             if (chosen != m->dropoutDefault)
                 c.model.dropoutPoints = chosen.empty() ? "none" : list;
         },
         [this](const TrainConfig& c) {
             const auto active = c.model.activeDropoutPoints();
             for (QCheckBox* box : dropoutPoints_)
                 box->setChecked(std::count(active.begin(), active.end(), box->text().toStdString()) > 0);
         }});
    auto* maxLength = spin(this, "maxLengthSpin", 1, 100000);
    maxLength->setToolTip(tr("Longer inputs are truncated (the count is reported)"));
    add({{"max_length"},
         tr("Max length"),
         maxLength,
         true,
         nullptr,
         [](const ModelSpec*, TaskKind task) { return task != TaskKind::Translation; },
         [maxLength](TrainConfig& c, const ModelSpec*) { c.model.maxLength = maxLength->value(); },
         [maxLength](const TrainConfig& c) { maxLength->setValue(c.model.maxLength); }});
    ownSizes_ = {dModel, layers, maxLength};
    auto* ffn = spin(this, "ffnHiddenSpin", 0, 65536);
    ffn->setSpecialValueText(tr("4 × d_model"));
    ffn->setToolTip(tr("The Transformer's position-wise feed-forward layer; the fixed-window LM's hidden layer"));
    add({{"ffn_hidden"},
         tr("FFN size"),
         ffn,
         true,
         "ffn_hidden",
         {},
         [ffn](TrainConfig& c, const ModelSpec*) { c.model.ffnHidden = ffn->value(); },
         [ffn](const TrainConfig& c) { ffn->setValue(c.model.ffnHidden); }});
    auto* dense = spin(this, "ffHiddenSpin", 1, 65536);
    dense->setToolTip(tr("The ReLU layer before the softmax of the recurrent and CNN baselines (Barnes et al.)"));
    add({{"ff_hidden"},
         tr("Dense size"),
         dense,
         true,
         "ff_hidden",
         {},
         [dense](TrainConfig& c, const ModelSpec*) { c.model.ffHidden = dense->value(); },
         [dense](const TrainConfig& c) { dense->setValue(c.model.ffHidden); }});
    auto* filters = spin(this, "filtersSpin", 1, 4096);
    add({{"filters"},
         tr("Filters"),
         filters,
         true,
         "filters",
         {},
         [filters](TrainConfig& c, const ModelSpec*) { c.model.filters = filters->value(); },
         [filters](const TrainConfig& c) { filters->setValue(c.model.filters); }});
    auto* padded = spin(this, "inputLengthSpin", 0, 65536);
    padded->setSpecialValueText(tr("longest sentence"));
    padded->setToolTip(tr("The thesis' CNN pads every sentence in front (or cuts it) to this many tokens; "
                          "0 = the dataset's longest sentence, as Barnes et al."));
    add({{"input_length"},
         tr("Input length"),
         padded,
         true,
         "input_length",
         {},
         [padded](TrainConfig& c, const ModelSpec*) { c.model.inputLength = padded->value(); },
         [padded](const TrainConfig& c) { padded->setValue(c.model.inputLength); }});
    addLanguageModelRows();
}

// Language models: the context, the n-gram's order and smoothing, the char-RNN's cell, the GPT's switches. Written
// only for a model that has them (its registry options), so every other run's configuration stays as it was.
void ModelSection::addLanguageModelRows()
{
    const ModelConfig defaults;
    auto* context = spin(this, "contextSpin", 1, 4096);
    context->setToolTip(tr("Tokens the model reads at once: the training window, and a GPT's positions"));
    add({{"context"},
         tr("Context"),
         context,
         false,
         "context",
         {},
         [context, defaults](TrainConfig& c, const ModelSpec* m) {
             c.model.context = hasOption(m, "context") ? context->value() : defaults.context;
         },
         [context](const TrainConfig& c) { context->setValue(c.model.context); }});
    auto* order = spin(this, "orderSpin", 1, 10);
    order->setToolTip(tr("n: each token is predicted from the n - 1 before it (2 = bigram)"));
    add({{"order"},
         tr("Order n"),
         order,
         false,
         "order",
         [order](const ModelSpec* m, TaskKind) { // asked on every model change: the fixed-window LM needs n >= 2
             order->setMinimum(m ? m->can.minimumOrder : 1);
             return true;
         },
         [order, defaults](TrainConfig& c, const ModelSpec* m) {
             c.model.order = hasOption(m, "order") ? order->value() : defaults.order;
         },
         [order](const TrainConfig& c) {
             order->setMinimum(1); // the value as saved; the model's own minimum follows with its rows
             order->setValue(c.model.order);
         }});
    auto* smoothing = choices(this, "smoothingCombo", {{tr("Kneser-Ney (interpolated)"), "kneser-ney"}, {tr("add-k"), "add-k"}});
    add({{"smoothing"},
         tr("Smoothing"),
         smoothing,
         false,
         "smoothing",
         {},
         [smoothing, defaults](TrainConfig& c, const ModelSpec* m) {
             c.model.smoothing = hasOption(m, "smoothing") ? currentId(smoothing) : defaults.smoothing;
         },
         [smoothing](const TrainConfig& c) { selectData(smoothing, c.model.smoothing); }});
    auto* addK = real(this, "addKSpin", 0.01, 100.0, 2, 0.1);
    addK->setToolTip(tr("k of add-k smoothing: every count plus k (1 = Laplace)"));
    add({{"add_k"},
         tr("k"),
         addK,
         true,
         "add_k",
         {},
         [addK, defaults](TrainConfig& c, const ModelSpec* m) {
             c.model.addK = hasOption(m, "add_k") ? addK->value() : defaults.addK;
         },
         [addK](const TrainConfig& c) { addK->setValue(c.model.addK); }});
    auto* cell = choices(this, "cellCombo",
                         {{QStringLiteral("LSTM"), "lstm"},
                          {QStringLiteral("GRU"), "gru"},
                          {tr("plain RNN (tanh)"), "rnn"},
                          {tr("identity ReLU RNN (Le et al.)"), "irnn"}});
    add({{"cell"},
         tr("Cell"),
         cell,
         false,
         "cell",
         {},
         [cell, defaults](TrainConfig& c, const ModelSpec* m) {
             c.model.cell = hasOption(m, "cell") ? currentId(cell) : defaults.cell;
         },
         [cell](const TrainConfig& c) { selectData(cell, c.model.cell); }});
    auto* attentionOnly = check(this, "attentionOnlyBox", tr("Attention only (no MLP blocks)"),
                                tr("The blocks keep their attention and leave out the MLP: the models in which induction heads are studied"));
    add({{"attention_only"},
         tr("Blocks"),
         attentionOnly,
         false,
         "attention_only",
         {},
         [attentionOnly](TrainConfig& c, const ModelSpec* m) {
             c.model.attentionOnly = hasOption(m, "attention_only") && attentionOnly->isChecked();
         },
         [attentionOnly](const TrainConfig& c) { attentionOnly->setChecked(c.model.attentionOnly); }});
    auto* scaled = check(this, "scaledBox", tr("Divide the scores by √d_k"),
                         tr("Vaswani et al.'s scaling: without it the dot products grow with d_k and the softmax saturates"));
    add({{"scaled"},
         tr("Scaling"),
         scaled,
         true,
         "scaled",
         {},
         [scaled](TrainConfig& c, const ModelSpec* m) {
             c.model.scaled = !hasOption(m, "scaled") || scaled->isChecked();
         },
         [scaled](const TrainConfig& c) { scaled->setChecked(c.model.scaled); }});
    auto* layerNorm = choices(this, "layerNormCombo", {{tr("the model's own (Transformer classifier: post; GPT, translation: pre)"), ""},
                                                       {tr("pre-LN: before each sub-layer"), "pre"},
                                                       {tr("post-LN: after each sum"), "post"},
                                                       {tr("none"), "none"}});
    layerNorm->setToolTip(tr("Where each block normalises: GPT-2's pre-LN, the original Transformer's post-LN, or no LayerNorm"));
    add({{"layer_norm"},
         tr("LayerNorm"),
         layerNorm,
         true,
         "layer_norm",
         {},
         [layerNorm](TrainConfig& c, const ModelSpec* m) {
             c.model.layerNorm = hasOption(m, "layer_norm") ? currentId(layerNorm) : "";
         },
         [layerNorm](const TrainConfig& c) { selectData(layerNorm, c.model.layerNorm); }});
    auto* residual = check(this, "residualBox", tr("Residual connections (x + sub-layer)"),
                           tr("Off: each sub-layer's output replaces its input, as in a plain deep network"));
    add({{"residual"},
         tr("Residuals"),
         residual,
         true,
         "residual",
         {},
         [residual](TrainConfig& c, const ModelSpec* m) {
             c.model.residual = !hasOption(m, "residual") || residual->isChecked();
         },
         [residual](const TrainConfig& c) { residual->setChecked(c.model.residual); }});
    // Sliding-window attention (Longformer, BigBird): linear in the length instead of quadratic.
    auto* window = spin(this, "attentionWindowSpin", 0, 4096);
    window->setSpecialValueText(tr("full attention"));
    window->setToolTip(tr("Each word attends to this many words either side of it only: time and memory grow linearly "
                          "with the length (attnlab-cli bench --lengths measures it)"));
    add({{"attention_window"},
         tr("Attention window"),
         window,
         true,
         "attention_window",
         {},
         [window](TrainConfig& c, const ModelSpec* m) {
             c.model.attentionWindow = hasOption(m, "attention_window") ? window->value() : 0;
         },
         [window](const TrainConfig& c) { window->setValue(c.model.attentionWindow); }});
    auto* globals = spin(this, "globalTokensSpin", 0, 64);
    globals->setToolTip(tr("The first words of the sentence attend to every word and every word to them (with a window only)"));
    add({{"global_tokens"},
         tr("Global tokens"),
         globals,
         true,
         "global_tokens",
         {},
         [globals, window](TrainConfig& c, const ModelSpec* m) {
             c.model.globalTokens = hasOption(m, "global_tokens") && window->value() > 0 ? globals->value() : 0;
         },
         [globals](const TrainConfig& c) { globals->setValue(c.model.globalTokens); }});
}

void ModelSection::fillModels(TaskKind task)
{
    refill(model_, [&] {
        for (const auto& entry : Registry::models())
            if (entry.servesTask(task))
                addEntry(model_, entry);
    });
    followModel();
}

void ModelSection::fillPositions()
{
    const ModelSpec* chosen = model();
    refill(position_, [&] {
        for (const auto& entry : Registry::positions()) {
            const bool applies = !chosen || chosen->positions.empty() || chosen->takesPosition(entry.id);
            if (applies)
                addEntry(position_, entry);
        }
    });
    rprClip_->setEnabled(position_->currentData().toString() == QLatin1String("rpr"));
}

void ModelSection::followModel()
{
    fillPositions();
    const ModelSpec* chosen = model();
    heads_->setEnabled(hasOption(chosen, "heads"));
    frozenEncoder_->setEnabled(hasOption(chosen, "frozen_encoder"));
    uniformAttention_->setEnabled(hasOption(chosen, "uniform_attention"));
    for (QWidget* size : ownSizes_) // a pretrained model's sizes are its own (config.json)
        size->setEnabled(!chosen || chosen->pretrained.empty());
    activation_->setEnabled(hasOption(chosen, "activation"));
    refill(pooling_, [&] {
        pooling_->addItem(tr("model default"), QString());
        if (chosen)
            for (const auto& p : chosen->pooling)
                pooling_->addItem(qs(p), qs(p));
    });
    pooling_->setEnabled(chosen && !chosen->pooling.empty());
    const QString modelId = model_->currentData().toString();
    for (QCheckBox* box : dropoutPoints_) {
        const std::string point = box->text().toStdString();
        box->setEnabled(chosen && std::count(chosen->dropoutAllowed.begin(), chosen->dropoutAllowed.end(), point));
        if (modelId != dropoutModel_)
            box->setChecked(chosen && std::count(chosen->dropoutDefault.begin(), chosen->dropoutDefault.end(), point));
    }
    dropoutModel_ = modelId;
}

} // namespace attnlab::ui
