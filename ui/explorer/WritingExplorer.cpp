#include "ui/explorer/WritingExplorer.h"

#include "core/analysis/TableWriter.h"
#include "core/config/Registry.h"
#include "core/config/SamplingSettings.h"
#include "core/results/GeneratedText.h"
#include "core/store/RunStore.h"
#include "core/training/ModelExplainer.h"
#include "core/training/PretrainedLanguageModel.h"
#include "core/training/TextGenerator.h"
#include "ui/LatestRequestRunner.h"
#include "ui/StdStrings.h"
#include "ui/analysis/FigureExport.h"
#include "ui/explorer/AttentionStepsView.h"
#include "ui/explorer/SamplingBoxes.h"
#include "ui/plots/AttentionText.h"
#include "ui/plots/TokenText.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

namespace attnlab::ui {
namespace {

// A token as a bar's label: line ends, spaces and tabs made visible.
QString label(const std::string& token) { return TokenText::shown(token); }

void prepare(QCustomPlot* plot, const QString& name)
{
    plot->setObjectName(name);
    plot->setMinimumHeight(150);
    plot->xAxis->setTickLabelRotation(60);
    plot->yAxis->setRange(0, 1);
    plot->setBackground(plot->palette().base());
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) {
        axis->setBasePen(QPen(plot->palette().text().color()));
        axis->setTickPen(QPen(plot->palette().text().color()));
        axis->setSubTickPen(QPen(plot->palette().text().color()));
        axis->setTickLabelColor(plot->palette().text().color());
        axis->setLabelColor(plot->palette().text().color());
    }
}

} // namespace

WritingExplorer::WritingExplorer(QWidget* parent)
    : QWidget(parent), opening_(new LatestRequestRunner(this)), running_(new LatestRequestRunner(this)), header_(new QLabel),
      status_(new QLabel), text_(new QPlainTextEdit), temperature_(new QDoubleSpinBox), topK_(new QSpinBox),
      topP_(new QDoubleSpinBox), seed_(new QSpinBox), tokens_(new QSpinBox), greedy_(new QCheckBox(tr("Greedy"))),
      step_(new QPushButton(tr("&Step"))), write_(new QPushButton(tr("&Write"))), bars_(new QCustomPlot), attention_(new QCustomPlot),
      attentionText_(new AttentionText),
      layer_(new QSpinBox), head_(new QSpinBox), steps_(new AttentionStepsView), attentionTabs_(new QTabWidget)
{
    setObjectName(QStringLiteral("writingExplorer"));
    header_->setObjectName(QStringLiteral("writingHeader"));
    status_->setObjectName(QStringLiteral("writingStatus"));
    status_->setWordWrap(true);
    text_->setObjectName(QStringLiteral("writingText"));
    text_->setPlaceholderText(tr("A prompt: the model goes on from its last character"));
    text_->setMinimumHeight(56);
    SamplingBoxes::setUp(temperature_, topK_, topP_, seed_, QStringLiteral("writing"), tr("tokens"));
    tokens_->setObjectName(QStringLiteral("writingTokens"));
    tokens_->setRange(1, SamplingSettings::kMaxTokens);
    tokens_->setValue(200);
    greedy_->setObjectName(QStringLiteral("writingGreedy"));
    step_->setObjectName(QStringLiteral("writingStep"));
    step_->setToolTip(tr("Draw one token and append it; its attention over the text appears below"));
    write_->setObjectName(QStringLiteral("writingWrite"));
    prepare(bars_, QStringLiteral("writingDistribution"));
    prepare(attention_, QStringLiteral("writingAttention"));
    bars_->yAxis->setLabel(tr("next token: probability"));
    attention_->yAxis->setLabel(tr("attention weight"));
    layer_->setObjectName(QStringLiteral("writingLayer"));
    head_->setObjectName(QStringLiteral("writingHead"));
    layer_->setPrefix(tr("layer "));
    head_->setPrefix(tr("head "));

    auto* settings = new QHBoxLayout;
    auto addLabelled = [&](const QString& text, QWidget* w) {
        auto* l = new QLabel(text);
        l->setBuddy(w);
        settings->addWidget(l);
        settings->addWidget(w);
    };
    addLabelled(tr("&Temperature"), temperature_);
    addLabelled(tr("Top-&k"), topK_);
    addLabelled(tr("Top-&p"), topP_);
    addLabelled(tr("S&eed"), seed_);
    settings->addWidget(greedy_);
    settings->addStretch(1);
    // Write and Step on the status' line: the settings' row stays within the Explorer's width at 1280 x 720.
    auto* actions = new QHBoxLayout;
    actions->addWidget(status_, 1);
    auto* tokensLabel = new QLabel(tr("T&okens"));
    tokensLabel->setBuddy(tokens_);
    actions->addWidget(tokensLabel);
    actions->addWidget(tokens_);
    actions->addWidget(write_);
    actions->addWidget(step_);
    auto* exportBars = new QPushButton(tr("Export…"));
    exportBars->setObjectName(QStringLiteral("writingExportBars"));
    exportBars->setToolTip(tr("Save the next token's bars as PNG, SVG or PDF, and their probabilities as CSV"));
    connect(exportBars, &QPushButton::clicked, this, &WritingExplorer::exportBars);
    auto* exportAttention = new QPushButton(tr("Export…"));
    exportAttention->setObjectName(QStringLiteral("writingExportAttention"));
    exportAttention->setToolTip(tr("Save the attention plot as PNG, SVG or PDF, and the head's weights over the whole context as CSV"));
    connect(exportAttention, &QPushButton::clicked, this, &WritingExplorer::exportAttention);
    auto* heads = new QHBoxLayout;
    heads->addWidget(new QLabel(tr("Attention of the last token drawn:")));
    heads->addWidget(layer_);
    heads->addWidget(head_);
    heads->addStretch(1);
    heads->addWidget(exportAttention);
    // The next token's bars and the last one's attention side by side: both in view at a projector's 1280 x 720.
    // The last token's attention, and beside it in a tab one head computed step by step for the text's last token.
    auto* attentionPage = new QWidget;
    auto* attentionColumn = new QVBoxLayout(attentionPage);
    attentionColumn->setContentsMargins(0, 0, 0, 0);
    attentionColumn->addLayout(heads);
    attentionColumn->addWidget(attentionText_); // every token of the context named, shaded by its weight
    attentionColumn->addWidget(attention_, 1);
    attentionTabs_->setObjectName(QStringLiteral("writingAttentionTabs"));
    attentionTabs_->setDocumentMode(true);
    attentionTabs_->addTab(attentionPage, tr("&Attention"));
    attentionTabs_->addTab(steps_, tr("Step &by step"));
    auto* barsColumn = new QVBoxLayout;
    barsColumn->addWidget(bars_, 1);
    barsColumn->addWidget(exportBars, 0, Qt::AlignRight);
    auto* plots = new QHBoxLayout;
    plots->addLayout(barsColumn, 3);
    plots->addWidget(attentionTabs_, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(header_);
    layout->addWidget(text_, 1); // the plots take most of the height: at 1280 x 720 they are what is read
    layout->addLayout(settings);
    layout->addLayout(actions);
    layout->addLayout(plots, 4);

    for (QDoubleSpinBox* box : {temperature_, topP_})
        connect(box, &QDoubleSpinBox::valueChanged, this, &WritingExplorer::preview);
    connect(topK_, &QSpinBox::valueChanged, this, &WritingExplorer::preview);
    connect(greedy_, &QCheckBox::toggled, this, &WritingExplorer::preview);
    connect(text_, &QPlainTextEdit::textChanged, this, [this] {
        if (!text_->signalsBlocked())
            preview();
    });
    connect(step_, &QPushButton::clicked, this, [this] { write(1); });
    connect(write_, &QPushButton::clicked, this, [this] { write(tokens_->value()); });
    connect(layer_, &QSpinBox::valueChanged, this, &WritingExplorer::drawAttention);
    connect(head_, &QSpinBox::valueChanged, this, &WritingExplorer::drawAttention);
    connect(steps_, &AttentionStepsView::updated, this, &WritingExplorer::updated);
    for (auto* runner : {opening_, running_})
        connect(runner, &LatestRequestRunner::failed, this, [this](const QString& message) { status_->setText(message); });
    clear(tr("Choose a language model's run in the list to write with it."));
}

WritingExplorer::~WritingExplorer() = default;

QString WritingExplorer::text() const { return text_->toPlainText(); }

int WritingExplorer::heightForWidth(int width) const
{
    // In the Explorer's scroll area: as tall as the viewport, down to what the rows need (as ExplorerView does).
    // The layout's preferred height for the word-wrapped status pushed the bars below the fold at 1280 x 720.
    return layout() ? layout()->minimumHeightForWidth(width) : -1;
}

void WritingExplorer::clear(const QString& message)
{
    opening_->discard();
    running_->discard();
    writer_.reset();
    last_.reset();
    shown_.reset();
    runId_ = 0;
    header_->clear();
    status_->setText(message);
    bars_->clearPlottables();
    bars_->replot();
    attention_->clearPlottables();
    attention_->replot();
    attentionText_->clear();
    steps_->clear(tr("A GPT's run: one head's attention on the text's last token, computed step by step."));
    for (QWidget* w : std::initializer_list<QWidget*>{step_, write_, text_})
        w->setEnabled(false);
}

void WritingExplorer::setRun(qint64 runId)
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
    header_->setText(tr("Run #%1 · %2 on %3 · writing")
                         .arg(runId)
                         .arg(qs(Registry::modelLabel(record->model, record->position)), qs(Registry::nameOf(Registry::datasets(), record->dataset))));
    const auto chosen = ModelExplainer::choose(store_->checkpoints(runId), record->bestStep);
    if (!chosen) {
        status_->setText(record->status == RunStatus::Running ? tr("Run #%1 is still training: its weights are saved when it ends.").arg(runId)
                                                              : tr("Run #%1 kept no weights (trained with checkpoints off, or it did not complete).").arg(runId));
        return;
    }
    status_->setText(tr("Opening the model of run #%1…").arg(runId));
    opening_->request([this, ref = *chosen]() -> LatestRequestRunner::Delivery {
        auto generator = std::make_shared<const TextGenerator>(ref); // throws: failed() says why
        auto writer = std::make_shared<Writer>();
        writer->generate = [generator](const std::string& prompt, const SamplingSettings& s, int alternatives,
                                       bool attention) {
            return generator->generate(prompt, s, alternatives, attention);
        };
        writer->stepByStep = [generator](const std::string& text, int layer, int head, int query) {
            if (query < 0) { // the last token of the window the model reads
                const int context = generator->config().model.context;
                const auto n = static_cast<int>(generator->tokensOf(text).size());
                query = std::max(0, (context > 0 ? std::min(n, context) : n) - 1);
            }
            return generator->stepByStep(text, layer, head, query);
        };
        writer->layers = std::max(1, generator->config().model.layers);
        writer->heads = std::max(1, generator->config().model.heads);
        writer->attention = Registry::hasAttention(generator->config().model.model);
        writer->noAttention = tr("A %1 has no self-attention: there is no head to compute step by step.")
                                  .arg(qs(generator->config().model.model));
        const QString status =
            tr("%1 %2 in its vocabulary. Type a prompt, change the sampling: the bars follow at once.")
                .arg(generator->vocabulary().size())
                .arg(qs(generator->unit()));
        return [this, writer, prompt = qs(generator->prompt()), status] { opened(writer, prompt, status); };
    });
}

void WritingExplorer::setPretrained(std::shared_ptr<const PretrainedLanguageModel> model, const QString& prompt,
                                    const HeadSelection& ablate)
{
    clear(QString());
    if (!model)
        return;
    const auto& c = model->config();
    header_->setText(ablate.empty() ? tr("SmolLM2-135M-Instruct · pretrained · writing")
                                    : tr("SmolLM2-135M-Instruct · pretrained · writing with %1 knocked out (%2)")
                                          .arg(qs(ablate.text()), ablate.mean ? tr("mean") : tr("zero")));
    auto writer = std::make_shared<Writer>();
    writer->generate = [model, ablate](const std::string& text, const SamplingSettings& s, int alternatives,
                                       bool attention) {
        return model->generate(text, s, alternatives, attention, ablate);
    };
    writer->stepByStep = [model](const std::string& text, int layer, int head, int query) {
        if (query < 0)
            query = static_cast<int>(model->tokenize(text).ids.size()) - 1;
        return model->stepByStep(text, layer, head, query);
    };
    writer->layers = c.layers;
    writer->heads = c.heads;
    opened(writer, prompt,
           tr("%1 byte-level pieces in its vocabulary. Type a prompt, change the sampling: the bars follow at once.")
               .arg(QLocale().toString(c.vocabulary)));
}

void WritingExplorer::opened(std::shared_ptr<const Writer> writer, const QString& prompt, const QString& status)
{
    writer_ = std::move(writer);
    draws_ = 0;
    {
        const QSignalBlocker quiet(text_);
        text_->setPlainText(prompt);
    }
    for (QWidget* w : std::initializer_list<QWidget*> {step_, write_, text_})
        w->setEnabled(true);
    layer_->setRange(1, writer_->layers);
    head_->setRange(1, writer_->heads);
    layer_->setEnabled(writer_->attention);
    head_->setEnabled(writer_->attention);
    status_->setText(status);
    emit ready();
    preview();
}

SamplingSettings WritingExplorer::sampling(int tokens) const
{
    SamplingSettings s;
    s.temperature = temperature_->value();
    s.topK = topK_->value();
    s.topP = topP_->value();
    s.greedy = greedy_->isChecked();
    s.seed = static_cast<std::uint64_t>(seed_->value()) + static_cast<std::uint64_t>(draws_);
    s.tokens = tokens;
    return s;
}

void WritingExplorer::preview()
{
    if (!writer_ || text_->toPlainText().isEmpty())
        return;
    const auto settings = sampling(1);
    running_->request([writer = writer_, prompt = text_->toPlainText().toStdString(), settings,
                       this]() -> LatestRequestRunner::Delivery {
        auto written = std::make_shared<GeneratedText>(writer->generate(prompt, settings, 15, false));
        return [this, written] { show(*written, false); };
    });
    if (!writer_->attention) {
        steps_->clear(writer_->noAttention);
        return;
    }
    steps_->setSubject([writer = writer_, text = text_->toPlainText().toStdString()](
                           int layer, int head, int query) { return writer->stepByStep(text, layer, head, query); },
                       writer_->layers, writer_->heads, -1);
}

void WritingExplorer::write(int tokens)
{
    if (!writer_ || text_->toPlainText().isEmpty())
        return;
    const auto settings = sampling(tokens);
    ++draws_;
    status_->setText(tokens == 1 ? tr("Drawing one token…") : tr("Writing %1 tokens…").arg(tokens));
    running_->request([writer = writer_, prompt = text_->toPlainText().toStdString(), settings,
                       this]() -> LatestRequestRunner::Delivery {
        auto written = std::make_shared<GeneratedText>(writer->generate(prompt, settings, 15, true));
        return [this, written] { show(*written, true); };
    });
}

void WritingExplorer::show(const GeneratedText& written, bool append)
{
    if (written.steps.empty())
        return;
    const auto& first = written.steps.back(); // the bars: the distribution of the last token drawn
    shown_ = std::make_unique<GeneratedText>();
    shown_->promptTokens = written.promptTokens;
    shown_->steps = {first};
    bars_->clearPlottables();
    auto* own = new QCPBars(bars_->xAxis, bars_->yAxis);
    auto* drawn = new QCPBars(bars_->xAxis, bars_->yAxis);
    own->setName(tr("the model's"));
    drawn->setName(tr("drawn from"));
    own->setBrush(bars_->palette().mid());
    drawn->setBrush(bars_->palette().highlight());
    auto group = new QCPBarsGroup(bars_);
    own->setBarsGroup(group);
    drawn->setBarsGroup(group);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double top = 0.0;
    for (std::size_t i = 0; i < first.alternatives.size(); ++i) {
        const auto& a = first.alternatives[i];
        ticker->addTick(static_cast<double>(i), label(a.token));
        own->addData(static_cast<double>(i), a.probability);
        double p = 0.0;
        for (const auto& s : first.sampled)
            if (s.token == a.token)
                p = s.probability;
        drawn->addData(static_cast<double>(i), p);
        top = std::max({top, a.probability, p});
    }
    bars_->xAxis->setTicker(ticker);
    bars_->xAxis->setRange(-0.7, static_cast<double>(first.alternatives.size()) - 0.3);
    bars_->yAxis->setRange(0, std::min(1.0, top * 1.1 + 0.02));
    bars_->legend->setVisible(true);
    bars_->legend->setFont(font());
    bars_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    bars_->replot();
    if (append) {
        const QSignalBlocker quiet(text_);
        text_->moveCursor(QTextCursor::End);
        text_->insertPlainText(qs(written.text));
        last_ = std::make_unique<GeneratedText>(written);
        status_->setText(tr("%1 token(s) drawn; the last: \"%2\" with probability %3 (%4 in the model's own distribution).")
                             .arg(written.steps.size())
                             .arg(label(first.token))
                             .arg(first.probability, 0, 'f', 3)
                             .arg(first.alternatives.empty() ? 0.0 : [&] {
                                 for (const auto& a : first.alternatives)
                                     if (a.token == first.token)
                                         return a.probability;
                                 return 0.0;
                             }(), 0, 'f', 3));
        drawAttention();
        preview(); // the next token's bars for the text as it now is
    }
    emit updated();
}

void WritingExplorer::drawAttention()
{
    attention_->clearPlottables();
    if (!last_ || last_->steps.empty() || last_->steps.back().attention.empty()) {
        attention_->replot();
        attentionText_->clear();
        return;
    }
    const auto& step = last_->steps.back();
    const int index = (layer_->value() - 1) * std::max(1, last_->heads) + (head_->value() - 1);
    if (index < 0 || static_cast<std::size_t>(index) >= step.attention.size())
        return;
    const auto& row = step.attention[static_cast<std::size_t>(index)];
    // The context's tokens: the prompt's and the written ones, from the context's first.
    std::vector<std::string> tokens = last_->promptTokens;
    for (const auto& s : last_->steps)
        tokens.push_back(s.token);
    tokens.pop_back(); // the last one drawn is the query's output, not yet in its context
    auto* bars = new QCPBars(attention_->xAxis, attention_->yAxis);
    bars->setBrush(attention_->palette().highlight());
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    const std::size_t first = static_cast<std::size_t>(step.contextStart);
    const std::size_t shown = std::min<std::size_t>(row.size(), 64); // the latest 64 positions
    for (std::size_t j = row.size() - shown; j < row.size(); ++j) {
        const std::size_t at = first + j;
        ticker->addTick(static_cast<double>(j), at < tokens.size() ? label(tokens[at]) : QString());
        bars->addData(static_cast<double>(j), row[j]);
    }
    attention_->xAxis->setTicker(ticker);
    std::vector<std::string> context;
    for (std::size_t j = row.size() - shown; j < row.size(); ++j)
        context.push_back(first + j < tokens.size() ? tokens[first + j] : std::string());
    attentionText_->setRow(tr("the token that drew “%1”").arg(label(step.token)), std::move(context),
                           std::vector<float>(row.end() - static_cast<std::ptrdiff_t>(shown), row.end()));
    attention_->xAxis->setRange(static_cast<double>(row.size() - shown) - 0.7, static_cast<double>(row.size()) - 0.3);
    attention_->yAxis->setRange(0, 1);
    attention_->replot();
}

QString WritingExplorer::barsCsv() const
{
    if (!shown_ || shown_->steps.empty())
        return {};
    const auto& step = shown_->steps.back();
    TableDocument table;
    table.header = {"rank", "token", "model_probability", "drawn_from_probability"};
    table.numeric = {true, false, true, true};
    for (std::size_t i = 0; i < step.alternatives.size(); ++i) {
        double drawn = 0.0;
        for (const auto& s : step.sampled)
            if (s.token == step.alternatives[i].token)
                drawn = s.probability;
        table.rows.push_back({{std::to_string(i + 1)}, {step.alternatives[i].token},
                              {QString::number(step.alternatives[i].probability, 'g', 9).toStdString()},
                              {QString::number(drawn, 'g', 9).toStdString()}});
    }
    return qs(TableWriter::csv(table));
}

QString WritingExplorer::attentionCsv() const
{
    if (!last_ || last_->steps.empty() || last_->steps.back().attention.empty())
        return {};
    const auto& step = last_->steps.back();
    const int index = (layer_->value() - 1) * std::max(1, last_->heads) + (head_->value() - 1);
    if (index < 0 || static_cast<std::size_t>(index) >= step.attention.size())
        return {};
    std::vector<std::string> tokens = last_->promptTokens; // the context: the prompt's and the written tokens
    for (const auto& s : last_->steps)
        tokens.push_back(s.token);
    tokens.pop_back(); // the last one drawn is the query's output, not in its context
    TableDocument table;
    table.caption = "layer " + std::to_string(layer_->value()) + ", head " + std::to_string(head_->value());
    table.header = {"position", "token", "weight"};
    table.numeric = {true, false, true};
    const auto& row = step.attention[static_cast<std::size_t>(index)];
    for (std::size_t j = 0; j < row.size(); ++j) {
        const std::size_t at = static_cast<std::size_t>(step.contextStart) + j;
        table.rows.push_back({{std::to_string(at)}, {at < tokens.size() ? tokens[at] : std::string()},
                              {QString::number(static_cast<double>(row[j]), 'g', 9).toStdString()}});
    }
    return qs(TableWriter::csv(table));
}

void WritingExplorer::exportBars()
{
    const QString csv = barsCsv();
    if (csv.isEmpty()) {
        status_->setText(tr("Nothing to export: no distribution is shown."));
        return;
    }
    const QString message = FigureExport::run(this, bars_, QStringLiteral("next-token-run%1.png").arg(runId_), [csv] { return csv; });
    if (!message.isEmpty())
        status_->setText(message);
}

void WritingExplorer::exportAttention()
{
    const QString csv = attentionCsv();
    if (csv.isEmpty()) {
        status_->setText(tr("Nothing to export: draw a token with Step or Write first (a model with attention)."));
        return;
    }
    const QString message = FigureExport::run(this, attention_,
                                              QStringLiteral("attention-run%1-layer%2-head%3.png").arg(runId_).arg(layer_->value()).arg(head_->value()),
                                              [csv] { return csv; });
    if (!message.isEmpty())
        status_->setText(message);
}

} // namespace attnlab::ui
