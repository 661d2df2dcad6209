#include "ui/explorer/AlignmentExplorer.h"

#include "core/analysis/TokenGrouping.h"
#include "core/config/DecodingSettings.h"
#include "core/config/Registry.h"
#include "core/results/AttentionAverage.h"
#include "core/results/AttentionCsv.h"
#include "core/store/RunStore.h"
#include "core/training/ModelExplainer.h"
#include "core/training/Translator.h"
#include "ui/StdStrings.h"
#include "ui/analysis/FigureExport.h"
#include "ui/explorer/BeamTree.h"
#include "ui/explorer/DrawingControls.h"
#include "ui/explorer/TranslationStepsView.h"
#include "ui/plots/AttentionHeatmap.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <map>
#include <qcustomplot.h>

namespace attnlab::ui {
namespace {

// What the large map draws: the translation's (or one hypothesis') words and <eos> down, the source across.
AttentionSnapshot snapshotOf(const Translation& t, const std::vector<std::string>& words, const std::vector<AttentionMap>& cross,
                             bool withSelfAttention)
{
    AttentionSnapshot s;
    s.step = -1;
    s.probeLabel = "typed";
    s.tokens = t.sourceTokens;
    s.targetTokens = words;
    s.targetTokens.push_back("<eos>");
    s.crossMaps = cross;
    if (withSelfAttention) {
        s.maps = t.encoderSelf;
        s.decoderMaps = t.decoderSelf;
    }
    // Gold links name the right answer's positions: drawn when the words line up with it.
    if (!t.reference.empty() && words.size() == t.reference.size())
        for (const auto& link : t.gold)
            s.goldAlignment.emplace_back(link.source, link.target);
    return s;
}

// A subword snapshot over words (TokenGrouping: attention to a word summed over its pieces, from a word the mean of
// its pieces' rows), as the Pretrained tab merges word pieces; the gold alignment is the built-in tasks', which
// have no pieces.
AttentionSnapshot mergedIntoWords(const AttentionSnapshot& pieces)
{
    std::vector<std::string> sourceWords, targetWords;
    int sourceCount = 0, targetCount = 0;
    const auto source = TokenGrouping::forSentencePieces(pieces.tokens, &sourceWords, &sourceCount);
    const auto target = TokenGrouping::forSentencePieces(pieces.targetTokens, &targetWords, &targetCount);
    AttentionSnapshot s = pieces;
    s.tokens = sourceWords;
    s.targetTokens = targetWords;
    s.goldAlignment.clear();
    for (auto& m : s.crossMaps)
        m = TokenGrouping::apply(m, target, targetCount, source, sourceCount);
    for (auto& m : s.maps)
        m = TokenGrouping::apply(m, source, sourceCount);
    for (auto& m : s.decoderMaps)
        m = TokenGrouping::apply(m, target, targetCount);
    return s;
}

bool hasPieces(const std::vector<std::string>& tokens)
{
    return std::any_of(tokens.begin(), tokens.end(), [](const std::string& t) { return t.rfind("\xe2\x96\x81", 0) == 0; });
}

} // namespace

AlignmentExplorer::AlignmentExplorer(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("alignmentExplorer"));
    opening_ = new LatestRequestRunner(this);
    translating_ = new LatestRequestRunner(this);
    connect(opening_, &LatestRequestRunner::failed, this, [this](const QString& error) {
        setInputEnabled(false, tr("Cannot open the weights: %1").arg(error));
        emit statusMessage(tr("Cannot open the weights: %1").arg(error));
    });
    connect(translating_, &LatestRequestRunner::failed, this, [this](const QString& error) {
        result_->setText(tr("Cannot translate: %1").arg(error).toHtmlEscaped());
        emit statusMessage(tr("Cannot translate: %1").arg(error));
    });
    header_ = new QLabel(this);
    header_->setObjectName(QStringLiteral("alignmentHeader"));
    header_->setWordWrap(true);
    QFont bold = header_->font();
    bold.setBold(true);
    header_->setFont(bold);

    source_ = new QLineEdit(this);
    source_->setObjectName(QStringLiteral("alignmentSourceEdit"));
    source_->setPlaceholderText(tr("Type a source sentence and press Enter"));
    translateButton_ = new QPushButton(tr("Translate"), this);
    translateButton_->setObjectName(QStringLiteral("alignmentTranslateButton"));
    beam_ = new QSpinBox(this);
    beam_->setObjectName(QStringLiteral("alignmentBeamSpin"));
    beam_->setRange(DecodingSettings::kMinBeam, DecodingSettings::kMaxBeam); // the bounds train and translate have
    beam_->setPrefix(tr("beam "));
    beam_->setSpecialValueText(tr("greedy"));
    beam_->setToolTip(tr("1: greedy decoding; K: beam search keeping K hypotheses, each shown in the Beam tab with its own alignment"));
    drawing_ = new DrawingControls(this);
    drawing_->setObjectName(QStringLiteral("alignmentDrawing"));
    connect(drawing_, &DrawingControls::drawingChanged, this, [this](bool on) { beam_->setEnabled(!on && translator_ != nullptr); });
    connect(drawing_, &DrawingControls::drawAgain, this, [this] { translate(source_->text(), beam_->value()); });
    words_ = new QCheckBox(tr("words"), this);
    words_->setObjectName(QStringLiteral("alignmentWordsBox"));
    words_->setToolTip(tr("This run reads word pieces: show the maps over whole words (attention to a word summed over its "
                          "pieces, from a word averaged), as the Pretrained tab does"));
    words_->setChecked(true);
    words_->setVisible(false);
    connect(words_, &QCheckBox::toggled, this, &AlignmentExplorer::setWordsShown);
    target_ = new QLineEdit(this);
    target_->setObjectName(QStringLiteral("alignmentTargetEdit"));
    target_->setPlaceholderText(tr("Optional: type the translation you expect, to see what the model makes of each of its words"));
    forceButton_ = new QPushButton(tr("Score this translation"), this);
    forceButton_->setObjectName(QStringLiteral("alignmentForceButton"));
    forceButton_->setToolTip(tr("Teacher-forced: the model reads your translation word by word; each word's probability, "
                                "and where it would have said something else"));
    connect(source_, &QLineEdit::returnPressed, this, [this] { translate(source_->text(), beam_->value()); });
    connect(translateButton_, &QPushButton::clicked, this, [this] { translate(source_->text(), beam_->value()); });
    connect(target_, &QLineEdit::returnPressed, this, [this] { force(source_->text(), target_->text()); });
    connect(forceButton_, &QPushButton::clicked, this, [this] { force(source_->text(), target_->text()); });

    result_ = new QLabel(this);
    result_->setObjectName(QStringLiteral("alignmentResult"));
    result_->setWordWrap(true);
    result_->setTextFormat(Qt::RichText);
    result_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    heatmap_ = new AttentionHeatmap(this);
    heatmap_->setObjectName(QStringLiteral("alignmentHeatmap"));
    heatmap_->setTextShown(true); // a target word chosen, the source words shaded by its weights
    heatmap_->showPlaceholder(tr("The alignment of the typed sentence appears here."));
    auto* exportButton = new QPushButton(tr("Export map…"), this);
    exportButton->setObjectName(QStringLiteral("alignmentExport"));
    exportButton->setToolTip(tr("Save the map as PNG, SVG or PDF, and every map's numbers as CSV"));
    connect(exportButton, &QPushButton::clicked, this, &AlignmentExplorer::exportMap);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(heatmap_, 1);
    leftLayout->addWidget(exportButton, 0, Qt::AlignRight);

    // Decoding step by step.
    stepSlider_ = new QSlider(Qt::Horizontal, this);
    stepSlider_->setObjectName(QStringLiteral("alignmentStepSlider"));
    stepSlider_->setEnabled(false);
    stepLabel_ = new QLabel(this);
    stepLabel_->setObjectName(QStringLiteral("alignmentStepLabel"));
    stepLabel_->setWordWrap(true);
    auto* previous = new QPushButton(tr("◀"), this);
    previous->setToolTip(tr("The step before"));
    auto* next = new QPushButton(tr("▶"), this);
    next->setToolTip(tr("The next step"));
    for (QPushButton* b : {previous, next})
        b->setMaximumWidth(40);
    connect(previous, &QPushButton::clicked, this, [this] { stepSlider_->setValue(stepSlider_->value() - 1); });
    connect(next, &QPushButton::clicked, this, [this] { stepSlider_->setValue(stepSlider_->value() + 1); });
    connect(stepSlider_, &QSlider::valueChanged, this, &AlignmentExplorer::showStep);
    stepMap_ = new AttentionHeatmap(this);
    stepMap_->setObjectName(QStringLiteral("alignmentStepMap"));
    stepMap_->setMinimumPlotSize(QSize(240, 110));
    stepMap_->setMaximumHeight(190);
    stepMap_->showPlaceholder(tr("Each step's attention over the source."));
    steps_ = new QTableWidget(0, 4, this);
    steps_->setObjectName(QStringLiteral("alignmentStepsTable"));
    steps_->setHorizontalHeaderLabels({tr("step"), tr("word"), tr("probability"), tr("the decoder's likeliest next words")});
    steps_->horizontalHeader()->setStretchLastSection(true);
    steps_->verticalHeader()->setVisible(false);
    steps_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    steps_->setSelectionBehavior(QAbstractItemView::SelectRows);
    steps_->setSelectionMode(QAbstractItemView::SingleSelection);
    connect(steps_, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (row >= 0)
            stepSlider_->setValue(row);
    });
    auto* decoding = new QWidget(this);
    auto* decodingLayout = new QVBoxLayout(decoding);
    auto* sliderRow = new QHBoxLayout;
    sliderRow->addWidget(previous);
    sliderRow->addWidget(stepSlider_, 1);
    sliderRow->addWidget(next);
    decodingLayout->addLayout(sliderRow);
    decodingLayout->addWidget(stepLabel_);
    decodingLayout->addWidget(stepMap_, 2);
    decodingLayout->addWidget(steps_, 3);

    // The beam's hypotheses as a tree of shared prefixes.
    beamTree_ = new BeamTree(this);
    beamTree_->setObjectName(QStringLiteral("alignmentBeamTree"));
    connect(beamTree_, &BeamTree::hypothesisChosen, this, &AlignmentExplorer::showHypothesis);
    auto* beamTip = new QLabel(tr("Beam search keeps the K likeliest partial translations at each step. Every hypothesis that "
                                  "ended is a path from the top to an <eos>; the kept one is in bold. Click one to see its own alignment."),
                               this);
    beamTip->setWordWrap(true);
    auto* beamPage = new QWidget(this);
    auto* beamLayout = new QVBoxLayout(beamPage);
    beamLayout->addWidget(beamTip);
    beamLayout->addWidget(beamTree_, 1);

    attentionSteps_ = new TranslationStepsView(this);
    connect(attentionSteps_, &TranslationStepsView::statusMessage, this, &AlignmentExplorer::statusMessage);
    auto* stepsScroll = new QScrollArea(this); // the table and its vectors can be taller than the tab
    stepsScroll->setWidget(attentionSteps_);
    stepsScroll->setWidgetResizable(true);
    stepsScroll->setFrameShape(QFrame::NoFrame);

    auto* tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("alignmentTabs"));
    tabs->addTab(decoding, tr("Decoding"));
    tabs->setTabToolTip(0, tr("The translation decoded a step at a time: each step's row of the alignment and the likeliest next words"));
    tabs->addTab(beamPage, tr("Beam"));
    tabs->addTab(stepsScroll, tr("Attention, step by step"));
    tabs->setTabToolTip(2, tr("One head of the model computed step by step on the shown translation: q, k, q . k, the scaling, the mask, the softmax"));

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setObjectName(QStringLiteral("alignmentSplitter"));
    splitter->addWidget(left);
    splitter->addWidget(tabs);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    tabs->setMinimumWidth(280);
    left->setMinimumWidth(300);

    auto* sourceRow = new QHBoxLayout;
    sourceRow->addWidget(new QLabel(tr("Source"), this));
    sourceRow->addWidget(source_, 1);
    sourceRow->addWidget(words_);
    sourceRow->addWidget(beam_);
    sourceRow->addWidget(translateButton_);
    auto* targetRow = new QHBoxLayout;
    targetRow->addWidget(new QLabel(tr("Your translation"), this));
    targetRow->addWidget(target_, 1);
    targetRow->addWidget(forceButton_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(header_);
    layout->addLayout(sourceRow);
    layout->addWidget(drawing_);
    layout->addLayout(targetRow);
    layout->addWidget(result_);
    layout->addWidget(splitter, 1);
    setMinimumHeight(560);
    clear(tr("Select a translation run in the run list to explore its model."));
}

AlignmentExplorer::~AlignmentExplorer() = default; // the runners wait for the work still running

void AlignmentExplorer::setInputEnabled(bool enabled, const QString& why)
{
    for (QWidget* w : {static_cast<QWidget*>(source_), static_cast<QWidget*>(target_), static_cast<QWidget*>(beam_),
                       static_cast<QWidget*>(translateButton_), static_cast<QWidget*>(forceButton_), static_cast<QWidget*>(drawing_)})
        w->setEnabled(enabled);
    beam_->setEnabled(enabled && !drawing_->sampling()); // a drawn translation has no beam
    if (!why.isEmpty())
        result_->setText(why.toHtmlEscaped());
}

void AlignmentExplorer::clear(const QString& message)
{
    opening_->discard(); // weights still opening or a translation still running belong to the run shown before
    translating_->discard();
    runId_ = 0;
    translator_.reset();
    shown_.reset();
    header_->setText(tr("Alignment explorer"));
    heatmap_->showPlaceholder(message.isEmpty() ? tr("The alignment of the typed sentence appears here.") : message);
    stepMap_->showPlaceholder(tr("Each step's attention over the source."));
    steps_->setRowCount(0);
    beamTree_->clear();
    attentionSteps_->clear(tr("Translate a sentence: one head of the model's attention on it is computed here step by step."));
    stepSlider_->setEnabled(false);
    stepLabel_->clear();
    setInputEnabled(false, message);
}

void AlignmentExplorer::setRun(qint64 runId)
{
    if (!store_ || (runId == runId_ && runId != 0))
        return;
    const auto record = store_->run(runId);
    if (!record) {
        clear(tr("Run #%1 is not in the store.").arg(runId));
        return;
    }
    clear(QString());
    runId_ = runId;
    header_->setText(tr("Run #%1 · %2 on %3")
                         .arg(runId)
                         .arg(qs(Registry::modelLabel(record->model, record->position)),
                              qs(Registry::nameOf(Registry::datasets(), record->dataset))));
    // The probe pair's source: what the Training tab showed, translated as soon as the weights are open.
    probeSource_.clear();
    if (const auto probe = store_->latestAttention(runId))
        probeSource_ = joinedWords(probe->tokens);
    const auto chosen = ModelExplainer::choose(store_->checkpoints(runId), record->bestStep);
    if (!chosen) {
        setInputEnabled(false, record->status == RunStatus::Running
                                   ? tr("Run #%1 is still training: its weights are saved when it ends.").arg(runId)
                                   : tr("Run #%1 kept no weights (trained with checkpoints off, or it did not complete).").arg(runId));
        return;
    }
    setInputEnabled(false, tr("Opening the weights of run #%1…").arg(runId));
    opening_->discard();
    translating_->discard();
    opening_->request([this, ref = *chosen]() -> LatestRequestRunner::Delivery {
        auto translator = std::make_shared<const Translator>(ref); // throws: failed() says why
        return [this, translator] { opened(translator); };
    });
}

void AlignmentExplorer::opened(const std::shared_ptr<const Translator>& translator)
{
    translator_ = translator;
    beam_->setValue(std::clamp(translator_->config().beamSize, DecodingSettings::kMinBeam, DecodingSettings::kMaxBeam));
    setInputEnabled(true, QString());
    result_->clear();
    emit ready();
    if (source_->text().trimmed().isEmpty())
        source_->setText(probeSource_);
    if (!source_->text().trimmed().isEmpty())
        translate(source_->text(), beam_->value());
}

void AlignmentExplorer::translate(const QString& source, int beamSize)
{
    if (!translator_)
        return;
    if (source.trimmed().isEmpty()) {
        emit statusMessage(tr("Type a source sentence to translate."));
        return;
    }
    if (source_->text() != source)
        source_->setText(source);
    if (beamSize > 0 && beam_->value() != beamSize)
        beam_->setValue(beamSize);
    submit({source, QString(), drawing_->sampling() ? 0 : beamSize, drawing_->sampling()});
}

void AlignmentExplorer::force(const QString& source, const QString& target)
{
    if (!translator_)
        return;
    if (source.trimmed().isEmpty() || target.trimmed().isEmpty()) {
        emit statusMessage(source.trimmed().isEmpty() ? tr("Type a source sentence first.")
                                                      : tr("Type the translation you expect, to score it word by word."));
        return;
    }
    if (source_->text() != source)
        source_->setText(source);
    if (target_->text() != target)
        target_->setText(target);
    submit({source, target, 0, std::nullopt});
}

void AlignmentExplorer::submit(const Request& request)
{
    // One translation at a time: a request made meanwhile waits, and a newer one replaces it.
    translating_->request([this, translator = translator_, request]() -> LatestRequestRunner::Delivery {
        TranslationDecoding decoding;
        decoding.alternatives = 5;
        if (request.sampling)
            decoding.beamSize = 1; // drawn: no beam, whatever the run decodes with
        else if (request.beamSize > 0) // 0: the run's own
            decoding.beamSize = request.beamSize;
        decoding.sampling = request.sampling;
        auto translation = std::make_shared<Translation>(
            request.target.isEmpty() ? translator->translate(request.source.toStdString(), decoding)
                                     : translator->force(request.source.toStdString(), request.target.toStdString(), decoding));
        return [this, translator, translation, request] {
            display(*translation);
            // The typed translation, or the one the model kept, forced again: the same words the maps show.
            attentionSteps_->setSubject(translator, request.source, request.target.isEmpty() ? qs(translation->text) : request.target);
        };
    });
}

void AlignmentExplorer::display(const Translation& t)
{
    shown_ = t;
    if (t.sourceTokens.empty()) {
        result_->setText(tr("The source has no words the model reads."));
        return;
    }
    QString html = QStringLiteral("<span style='font-size:14pt'><b>%1</b></span>").arg(qs(t.text).toHtmlEscaped());
    QStringList facts;
    if (t.forced)
        facts << tr("your translation, teacher-forced: log P %1").arg(t.score, 0, 'f', 3);
    else if (t.sampled)
        facts << tr("drawn at temperature %1, top-k %2, top-p %3, seed %4: log P %5")
                     .arg(t.temperature)
                     .arg(t.topK > 0 ? QString::number(t.topK) : tr("all"))
                     .arg(t.topP)
                     .arg(t.seed)
                     .arg(t.score, 0, 'f', 3);
    else
        facts << (t.beamSize > 1 ? tr("beam %1, score %2").arg(t.beamSize).arg(t.score, 0, 'f', 3) : tr("greedy, score %1").arg(t.score, 0, 'f', 3));
    if (t.unknownSourceTokens > 0)
        facts << (t.unknownSourceTokens == 1 ? tr("1 source word unknown to the model (read as <unk>)").toHtmlEscaped()
                                             : tr("%1 source words unknown to the model (read as <unk>)").arg(t.unknownSourceTokens).toHtmlEscaped());
    if (t.unknownTargetTokens > 0)
        facts << (t.unknownTargetTokens == 1 ? tr("1 word of your translation unknown to the model").toHtmlEscaped()
                                             : tr("%1 words of your translation unknown to the model").arg(t.unknownTargetTokens).toHtmlEscaped());
    if (!t.reference.empty()) {
        const bool right = t.targetTokens == t.reference;
        facts << (right ? tr("right") : tr("the right answer: %1").arg(joinedWords(t.reference).toHtmlEscaped()));
        if (t.alignmentErrorRate >= 0)
            facts << tr("AER against the gold alignment %1%").arg(100.0 * t.alignmentErrorRate, 0, 'f', 1);
        if (t.headAlignmentErrorRates.size() > 1 && t.headAlignmentErrorRates.size() == t.cross.size()) {
            QStringList heads; // which head aligns: each map's own AER
            for (std::size_t i = 0; i < t.cross.size(); ++i)
                heads << tr("L%1·H%2 %3%").arg(t.cross[i].layer + 1).arg(t.cross[i].head + 1).arg(100.0 * t.headAlignmentErrorRates[i], 0, 'f', 0);
            facts << tr("by head: %1").arg(heads.join(QStringLiteral(", ")));
        }
    }
    html += QStringLiteral("<br>") + facts.join(QStringLiteral(" · "));
    result_->setText(html);
    words_->setVisible(hasPieces(t.sourceTokens) || hasPieces(t.targetTokens));
    drawLargeMap();
    fillSteps(t);
    beamTree_->setTranslation(t);
    emit translated();
}

void AlignmentExplorer::drawLargeMap()
{
    if (!shown_)
        return;
    const Translation& t = *shown_;
    if (t.cross.empty()) {
        heatmap_->showPlaceholder(tr("This model has no attention: the whole source reaches the decoder as one vector."));
        return;
    }
    const AttentionSnapshot pieces = snapshotOf(t, t.targetTokens, t.cross, true);
    heatmap_->setSnapshot(!words_->isHidden() && words_->isChecked() ? mergedIntoWords(pieces) : pieces);
}

void AlignmentExplorer::setWordsShown(bool words)
{
    if (words_->isChecked() != words)
        words_->setChecked(words); // toggled() comes back here
    else
        drawLargeMap();
}

void AlignmentExplorer::fillSteps(const Translation& t)
{
    const int rows = static_cast<int>(t.targetTokens.size()) + 1;
    const QSignalBlocker blocker(steps_);
    steps_->setRowCount(rows);
    for (int r = 0; r < rows; ++r) {
        const std::string word = r < static_cast<int>(t.targetTokens.size()) ? t.targetTokens[static_cast<std::size_t>(r)] : "<eos>";
        const float p = r < static_cast<int>(t.probabilities.size()) ? t.probabilities[static_cast<std::size_t>(r)] : 0.0f;
        QStringList alternatives;
        QString disagreement;
        if (r < static_cast<int>(t.alternatives.size())) {
            const auto& row = t.alternatives[static_cast<std::size_t>(r)];
            for (const auto& a : row)
                alternatives << QStringLiteral("%1 %2").arg(qs(a.token)).arg(a.probability, 0, 'f', 3);
            if (t.forced && !row.empty() && row.front().token != word)
                disagreement = tr("The model would say “%1” (%2) here").arg(qs(row.front().token)).arg(row.front().probability, 0, 'f', 3);
        }
        auto* step = new QTableWidgetItem(QString::number(r + 1));
        auto* w = new QTableWidgetItem(qs(word));
        auto* prob = new QTableWidgetItem(QString::number(p, 'f', 3));
        prob->setData(Qt::UserRole, p);
        auto* alt = new QTableWidgetItem(alternatives.join(QStringLiteral(" · ")));
        for (QTableWidgetItem* item : {step, w, prob, alt}) {
            if (!disagreement.isEmpty()) {
                item->setBackground(QColor(253, 208, 162)); // the orange of the gold marks, light: where you and the model differ
                item->setToolTip(disagreement);
            }
        }
        steps_->setItem(r, 0, step);
        steps_->setItem(r, 1, w);
        steps_->setItem(r, 2, prob);
        steps_->setItem(r, 3, alt);
    }
    steps_->resizeColumnsToContents();
    stepSlider_->setEnabled(rows > 0);
    {
        const QSignalBlocker sliderBlocker(stepSlider_);
        stepSlider_->setRange(0, std::max(0, rows - 1));
        stepSlider_->setValue(0);
    }
    showStep(0);
}

void AlignmentExplorer::showStep(int step)
{
    if (!shown_)
        return;
    const Translation& t = *shown_;
    const int rows = static_cast<int>(t.targetTokens.size()) + 1;
    if (step < 0 || step >= rows)
        return;
    const std::string word = step < static_cast<int>(t.targetTokens.size()) ? t.targetTokens[static_cast<std::size_t>(step)] : "<eos>";
    QString text = tr("Step %1 of %2: the decoder emits “%3”").arg(step + 1).arg(rows).arg(qs(word));
    if (step < static_cast<int>(t.alternatives.size()) && !t.alternatives[static_cast<std::size_t>(step)].empty()) {
        QStringList top;
        for (const auto& a : t.alternatives[static_cast<std::size_t>(step)])
            top << QStringLiteral("%1 (%2)").arg(qs(a.token)).arg(a.probability, 0, 'f', 2);
        text += tr(" · it chose from: %1").arg(top.join(QStringLiteral(", ")));
    }
    stepLabel_->setText(text);
    {
        const QSignalBlocker blocker(steps_);
        steps_->selectRow(step);
    }
    if (stepSlider_->value() != step) {
        const QSignalBlocker blocker(stepSlider_);
        stepSlider_->setValue(step);
    }
    const auto mean = AttentionAverage::ofLastLayer(t.cross).weights;
    const int columns = static_cast<int>(t.sourceTokens.size());
    if (mean.size() != static_cast<std::size_t>(rows) * static_cast<std::size_t>(columns)) {
        stepMap_->showPlaceholder(tr("This model has no attention to show at each step."));
        return;
    }
    // One row: this step's weights over the source (heads averaged), each printed on its cell.
    AttentionSnapshot s;
    s.step = -1;
    s.tokens = t.sourceTokens;
    s.targetTokens = {word};
    AttentionMap row;
    row.size = 1;
    row.columns = columns;
    row.weights.assign(mean.begin() + static_cast<std::ptrdiff_t>(step) * columns, mean.begin() + static_cast<std::ptrdiff_t>(step + 1) * columns);
    s.crossMaps = {row};
    stepMap_->setTitleOverride(tr("step %1: “%2” attends to").arg(step + 1).arg(qs(word)));
    for (const auto& link : t.gold)
        if (link.target == step && t.targetTokens.size() == t.reference.size())
            s.goldAlignment.emplace_back(link.source, 0);
    stepMap_->setSnapshot(s);
}

void AlignmentExplorer::showHypothesis(int index)
{
    if (!shown_ || index < 0 || index >= static_cast<int>(shown_->hypotheses.size()))
        return;
    const auto& h = shown_->hypotheses[static_cast<std::size_t>(index)];
    if (h.cross.empty())
        return;
    // The kept one with every map; another with its own cross-attention, as it decoded.
    const AttentionSnapshot pieces = index == 0 ? snapshotOf(*shown_, shown_->targetTokens, shown_->cross, true)
                                                : snapshotOf(*shown_, h.tokens, h.cross, false);
    heatmap_->setSnapshot(!words_->isHidden() && words_->isChecked() ? mergedIntoWords(pieces) : pieces);
    emit statusMessage(tr("Hypothesis %1: “%2”, score %3").arg(index + 1).arg(qs(h.text)).arg(h.score, 0, 'f', 3));
}

void AlignmentExplorer::exportMap()
{
    if (!heatmap_->snapshot()) {
        emit statusMessage(tr("Nothing to export: no map is shown."));
        return;
    }
    auto* plot = heatmap_->findChild<QCustomPlot*>(QStringLiteral("attentionPlot"));
    const AttentionSnapshot shown = *heatmap_->snapshot();
    const QString message = FigureExport::run(this, plot, QStringLiteral("alignment-run%1.png").arg(runId_),
                                              [shown] { return QString::fromStdString(AttentionCsv::of(shown)); });
    if (!message.isEmpty())
        emit statusMessage(message);
}

} // namespace attnlab::ui
