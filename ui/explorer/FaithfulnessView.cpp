#include "ui/explorer/FaithfulnessView.h"

#include "core/data/DatasetCatalog.h"
#include "core/store/RunStore.h"
#include "core/training/FaithfulnessEvaluator.h"
#include "core/training/ModelExplainer.h"
#include "ui/StdStrings.h"
#include "ui/analysis/FigureExport.h"
#include "ui/explorer/MethodStyle.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <qcustomplot.h>

#include <cmath>

namespace attnlab::ui {
namespace {

QStandardItem* number(double value, int decimals)
{
    auto* item = new QStandardItem(std::isnan(value) ? QStringLiteral("–") : QString::number(value, 'f', decimals));
    item->setData(value, Qt::UserRole);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

FaithfulnessView::FaithfulnessView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("faithfulnessView"));
    split_ = new QComboBox(this);
    split_->setObjectName(QStringLiteral("faithfulnessSplit"));
    split_->addItem(tr("dev"), QStringLiteral("dev"));
    split_->addItem(tr("test"), QStringLiteral("test"));
    split_->setToolTip(tr("The sentences the methods are measured on"));
    measure_ = new QPushButton(tr("&Measure"), this);
    measure_->setObjectName(QStringLiteral("faithfulnessMeasure"));
    measure_->setToolTip(tr("Score every sentence of the split with every method, then delete and give back its "
                            "tokens in each method's order (all methods, 32 IG steps; stored with the run)"));
    cancelButton_ = new QPushButton(tr("Cancel"), this);
    cancelButton_->setObjectName(QStringLiteral("faithfulnessCancel"));
    cancelButton_->setVisible(false);
    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("faithfulnessProgress"));
    progress_->setVisible(false);
    curve_ = new QComboBox(this);
    curve_->setObjectName(QStringLiteral("faithfulnessCurve"));
    curve_->addItem(tr("Deletion"), QStringLiteral("deletion"));
    curve_->addItem(tr("Insertion"), QStringLiteral("insertion"));
    curve_->setToolTip(tr("Deletion: the most important tokens replaced by <unk> first (lower is more faithful). "
                          "Insertion: given back to a sentence of <unk>, most important first (higher is more faithful)."));
    auto* exportButton = new QPushButton(tr("Export…"), this);
    exportButton->setObjectName(QStringLiteral("faithfulnessExport"));
    exportButton->setToolTip(tr("Save the curves as PNG, SVG or PDF, and the table and curves as CSV"));
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("faithfulnessSummary"));
    summary_->setWordWrap(true);
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("faithfulnessPlot"));
    plot_->setMinimumHeight(150);
    plot_->xAxis->setRange(0, 100);
    plot_->yAxis->setRange(0, 1);
    plot_->legend->setVisible(true);
    QFont legendFont = plot_->font();
    legendFont.setPointSizeF(std::max(6.0, legendFont.pointSizeF() - 1));
    plot_->legend->setFont(legendFont);
    // The legend beside the curves, not over them: with seven methods it covered them at 1280x720.
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    plot_->plotLayout()->addElement(0, 1, plot_->legend);
    plot_->plotLayout()->setColumnStretchFactor(1, 0.001);
    plot_->legend->setMargins(QMargins(4, 2, 4, 2));
    model_ = new QStandardItemModel(this);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("faithfulnessTable"));
    table_->setModel(model_);
    table_->setSortingEnabled(true);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Split:"), this));
    controls->addWidget(split_);
    controls->addWidget(measure_);
    controls->addWidget(progress_, 1);
    controls->addWidget(cancelButton_);
    controls->addStretch();
    controls->addWidget(curve_);
    controls->addWidget(exportButton);
    auto* parts = new QSplitter(Qt::Vertical, this);
    parts->addWidget(plot_);
    parts->addWidget(table_);
    parts->setStretchFactor(0, 3);
    parts->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(summary_);
    layout->addWidget(parts, 1);

    watcher_ = new QFutureWatcher<std::shared_ptr<Outcome>>(this);
    connect(measure_, &QPushButton::clicked, this, &FaithfulnessView::measure);
    connect(cancelButton_, &QPushButton::clicked, this, &FaithfulnessView::cancel);
    connect(exportButton, &QPushButton::clicked, this, &FaithfulnessView::exportReport);
    connect(curve_, &QComboBox::currentIndexChanged, this, &FaithfulnessView::showReport);
    connect(split_, &QComboBox::currentIndexChanged, this, &FaithfulnessView::showStored);
    connect(watcher_, &QFutureWatcher<std::shared_ptr<Outcome>>::finished, this, [this] {
        const auto outcome = watcher_->result();
        measure_->setEnabled(explainer_ != nullptr);
        split_->setEnabled(true);
        cancelButton_->setVisible(false);
        progress_->setVisible(false);
        if (!outcome->report) {
            summary_->setText(tr("Not measured: %1").arg(outcome->error));
            emit statusMessage(tr("Faithfulness not measured: %1").arg(outcome->error));
            emit measured();
            return;
        }
        report_ = outcome->report;
        fromStore_ = false;
        if (report_->complete && store_ && runId_ > 0) {
            try {
                store_->putAnalysis(runId_, "faithfulness", report_->split, report_->toJson());
            } catch (const std::exception& e) {
                emit statusMessage(tr("Measured, but not stored with the run: %1").arg(qs(e.what())));
            }
        }
        showReport();
        emit measured();
    });
    setRun(nullptr, 0, nullptr, tr("Select a text run."));
}

FaithfulnessView::~FaithfulnessView()
{
    if (cancel_)
        cancel_->cancel();
    watcher_->waitForFinished();
}

bool FaithfulnessView::isMeasuring() const { return watcher_->isRunning(); }

QString FaithfulnessView::split() const { return split_->currentData().toString(); }

void FaithfulnessView::setRun(RunStore* store, qint64 runId, std::shared_ptr<const ModelExplainer> explainer,
                              const QString& whyNot)
{
    if (isMeasuring() && runId == runId_ && store == store_) {
        explainer_ = std::move(explainer); // the same run's weights opened again: keep measuring
        return;
    }
    if (cancel_)
        cancel_->cancel(); // another run: what was being measured is not its
    watcher_->waitForFinished();
    store_ = store;
    runId_ = runId;
    explainer_ = std::move(explainer);
    measure_->setEnabled(explainer_ != nullptr);
    measure_->setToolTip(explainer_ ? tr("Score every sentence of the split with every method, then delete and give back "
                                         "its tokens in each method's order (all methods, 32 IG steps; stored with the run)")
                                    : whyNot);
    showStored();
    if (!report_ && !whyNot.isEmpty() && !explainer_)
        summary_->setText(whyNot);
}

void FaithfulnessView::showStored()
{
    if (isMeasuring())
        return;
    report_.reset();
    fromStore_ = false;
    if (store_ && runId_ > 0) {
        try {
            if (const auto stored = store_->analysis(runId_, "faithfulness", split().toStdString())) {
                report_ = FaithfulnessReport::fromJson(stored->json);
                fromStore_ = true;
            }
        } catch (const std::exception& e) {
            emit statusMessage(tr("The stored faithfulness report cannot be read: %1").arg(qs(e.what())));
        }
    }
    showReport();
}

void FaithfulnessView::measure()
{
    if (!explainer_ || isMeasuring())
        return;
    auto explainer = explainer_;
    cancel_ = std::make_shared<CancelToken>();
    auto cancel = cancel_;
    const std::string split = this->split().toStdString();
    QPointer<FaithfulnessView> self(this);
    measure_->setEnabled(false);
    split_->setEnabled(false);
    cancelButton_->setVisible(true);
    progress_->setVisible(true);
    progress_->setRange(0, 0); // reading the dataset: no count yet
    summary_->setText(tr("Reading the %1 sentences…").arg(qs(split)));
    watcher_->setFuture(QtConcurrent::run([explainer, cancel, split, self] {
        auto outcome = std::make_shared<Outcome>();
        try {
            const auto& config = explainer->config();
            const TextDataset data = DatasetCatalog::load(config.dataset, config.datasetOptions());
            const auto& examples = split == "dev" ? data.dev : data.test;
            FaithfulnessEvaluator::Options options; // the defaults: what the CLI stores
            outcome->report = FaithfulnessEvaluator(*explainer).evaluate(
                examples, split, options, *cancel, [self](int done, int total) {
                    QMetaObject::invokeMethod(self, [self, done, total] {
                        if (!self)
                            return;
                        self->progress_->setRange(0, total);
                        self->progress_->setValue(done);
                        self->progress_->setFormat(tr("%1 of %2 sentences").arg(done).arg(total));
                    }, Qt::QueuedConnection);
                });
        } catch (const std::exception& e) {
            outcome->error = qs(e.what());
        }
        return outcome;
    }));
}

void FaithfulnessView::cancel()
{
    if (cancel_)
        cancel_->cancel();
}

void FaithfulnessView::showReport()
{
    plot_->clearGraphs();
    model_->clear();
    if (!report_) {
        summary_->setText(runId_ > 0 ? tr("Not measured for this run's %1 sentences yet: Measure computes it here "
                                          "(attnlab-cli faithfulness --run %2 does the same on the command line).")
                                           .arg(split())
                                           .arg(runId_)
                                     : QString());
        plot_->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const FaithfulnessReport& r = *report_;
    const bool deletion = curve_->currentData().toString() == QLatin1String("deletion");
    QString text = tr("%1 %2 sentences, %3 s%4. %5")
                       .arg(r.examples)
                       .arg(qs(r.split))
                       .arg(r.seconds, 0, 'f', 1)
                       .arg(fromStore_ ? tr(", stored with the run") : QString())
                       .arg(deletion ? tr("Deletion: mean p(predicted class) as each method's most important tokens are "
                                          "replaced by &lt;unk&gt; first; the lower the curve, the more faithful.")
                                     : tr("Insertion: mean p(predicted class) as tokens are given back to a sentence of "
                                          "&lt;unk&gt;, most important first; the higher, the more faithful."));
    if (!r.complete)
        text.prepend(tr("<b>Partial</b> (cancelled; not stored): "));
    summary_->setText(text);
    for (const auto& m : r.methods) {
        if (m.sentences == 0)
            continue;
        auto* graph = plot_->addGraph();
        QVector<double> x, y;
        const auto& values = deletion ? m.deletion : m.insertion;
        for (std::size_t i = 0; i < values.size(); ++i) {
            x << 100.0 * static_cast<double>(i) / (FaithfulnessReport::kPoints - 1);
            y << values[i];
        }
        graph->setData(x, y, true);
        graph->setPen(MethodStyle::pen(m.method));
        graph->setName(deletion ? tr("%1 (AOPC %2)").arg(qs(m.method)).arg(m.deletionAopc, 0, 'f', 3)
                                : tr("%1 (area %2)").arg(qs(m.method)).arg(m.insertionArea, 0, 'f', 3));
    }
    plot_->xAxis->setLabel(deletion ? tr("% of tokens deleted") : tr("% of tokens given back"));
    plot_->yAxis->setLabel(tr("mean p(predicted class)"));
    plot_->replot(QCustomPlot::rpQueuedReplot);

    QStringList headers{tr("method"), tr("AOPC (deletion)"), tr("insertion area"), tr("τ with attention"), tr("sentences"),
                        tr("seconds")};
    const bool known = r.contrastSentences > 0;
    if (known)
        headers.insert(4, tr("top token in deciding clause (%)"));
    model_->setHorizontalHeaderLabels(headers);
    for (const auto& m : r.methods) {
        QList<QStandardItem*> row{new QStandardItem(qs(m.method))};
        if (m.sentences == 0) {
            row.front()->setToolTip(qs(m.note));
            row << new QStandardItem(qs(m.note));
            model_->appendRow(row);
            continue;
        }
        row << number(m.deletionAopc, 3) << number(m.insertionArea, 3) << number(m.tauWithAttention, 2);
        if (known)
            row << number(100.0 * m.clauseHits / r.contrastSentences, 1);
        row << number(m.sentences, 0) << number(m.seconds, 1);
        model_->appendRow(row);
    }
    if (known)
        summary_->setText(summary_->text() +
                          tr(" The label of this data is decided by the clause after the last \"but\": of %1 sentences "
                             "with one, the share whose top token the method put in that clause (a random token lands "
                             "there %2% of the time).")
                              .arg(r.contrastSentences)
                              .arg(100.0 * r.clauseChance, 0, 'f', 1));
}

void FaithfulnessView::exportReport()
{
    if (!report_) {
        emit statusMessage(tr("Nothing to export: faithfulness has not been measured for this run."));
        return;
    }
    const FaithfulnessReport report = *report_;
    const QString message = FigureExport::run(this, plot_, QStringLiteral("faithfulness-run%1.png").arg(runId_), [report] {
        // One row per method: the table's numbers, then both curves' 11 points.
        QString text = QStringLiteral("method,sentences,deletion_aopc,insertion_area,tau_with_attention,clause_hits");
        for (const char* curve : {"deletion", "insertion"})
            for (int i = 0; i < FaithfulnessReport::kPoints; ++i)
                text += QStringLiteral(",%1_%2").arg(QLatin1String(curve)).arg(10 * i);
        text += QLatin1Char('\n');
        for (const auto& m : report.methods) {
            text += QStringLiteral("%1,%2,%3,%4,%5,%6")
                        .arg(qs(m.method))
                        .arg(m.sentences)
                        .arg(m.deletionAopc, 0, 'g', 9)
                        .arg(m.insertionArea, 0, 'g', 9)
                        .arg(std::isnan(m.tauWithAttention) ? QString() : QString::number(m.tauWithAttention, 'g', 9))
                        .arg(report.contrastSentences > 0 ? QString::number(m.clauseHits) : QString());
            for (const auto* values : {&m.deletion, &m.insertion})
                for (int i = 0; i < FaithfulnessReport::kPoints; ++i)
                    text += QLatin1Char(',') + (static_cast<std::size_t>(i) < values->size()
                                                    ? QString::number((*values)[static_cast<std::size_t>(i)], 'g', 9)
                                                    : QString());
            text += QLatin1Char('\n');
        }
        return text;
    });
    if (!message.isEmpty())
        emit statusMessage(message);
}

} // namespace attnlab::ui
