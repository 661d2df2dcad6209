#include "ui/explorer/DatasetBrowser.h"

#include "core/data/DatasetCatalog.h"
#include "core/data/OwnDataFiles.h"
#include "core/training/ModelExplainer.h"
#include "ui/explorer/ExampleFilterProxy.h"
#include "ui/explorer/ExamplePredictionModel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QPushButton>
#include <QSettings>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace attnlab::ui {

DatasetBrowser::DatasetBrowser(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("datasetBrowser"));
    split_ = new QComboBox(this);
    split_->setObjectName(QStringLiteral("browserSplit"));
    split_->addItem(tr("dev"));
    split_->addItem(tr("test"));
    show_ = new QComboBox(this);
    show_->setObjectName(QStringLiteral("browserShow"));
    show_->addItems({tr("all examples"), tr("misclassified"), tr("least confident first")});
    class_ = new QComboBox(this);
    class_->setObjectName(QStringLiteral("browserClass"));
    filter_ = new QLineEdit(this);
    filter_->setObjectName(QStringLiteral("browserFilter"));
    filter_->setPlaceholderText(tr("Words in the text"));
    filter_->setClearButtonEnabled(true);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("browserSummary"));
    summary_->setWordWrap(true);
    locate_ = new QPushButton(tr("Locate the File…"), this);
    locate_->setObjectName(QStringLiteral("browserLocate"));
    locate_->setToolTip(tr("Choose where the run's data file is now; a file with other contents is said to differ"));
    locate_->setVisible(false);
    useChanged_ = new QPushButton(tr("List It as It Is"), this);
    useChanged_->setObjectName(QStringLiteral("browserUseChanged"));
    useChanged_->setToolTip(tr("List the file's examples as they are now: not the ones the run was tested on"));
    useChanged_->setVisible(false);

    model_ = new ExamplePredictionModel(this);
    proxy_ = new ExampleFilterProxy(this);
    proxy_->setSourceModel(model_);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("browserTable"));
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionResizeMode(ExamplePredictionModel::Text, QHeaderView::Stretch);
    table_->sortByColumn(ExamplePredictionModel::Index, Qt::AscendingOrder);

    confusion_ = new QTableWidget(this);
    confusion_->setObjectName(QStringLiteral("browserConfusion"));
    confusion_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    confusion_->setToolTip(tr("Rows: gold class; columns: predicted. Click a cell to list its examples, again to clear"));
    confusion_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Split:"), this));
    controls->addWidget(split_);
    controls->addWidget(show_);
    controls->addWidget(class_);
    controls->addWidget(filter_, 1);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(table_);
    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(new QLabel(tr("Confusion (rows gold, columns predicted)"), right));
    rightLayout->addWidget(confusion_, 1);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    auto* summaryRow = new QHBoxLayout;
    summaryRow->addWidget(summary_, 1);
    summaryRow->addWidget(locate_);
    summaryRow->addWidget(useChanged_);
    layout->addLayout(summaryRow);
    layout->addWidget(split, 1);

    loading_ = new QFutureWatcher<std::shared_ptr<Result>>(this);
    connect(loading_, &QFutureWatcher<std::shared_ptr<Result>>::finished, this, [this] {
        const auto result = loading_->result();
        if (!result || !explainer_)
            return;
        if (!result->error.isEmpty()) {
            clear(result->error);
            return;
        }
        if (!result->fileProblem.isEmpty()) {
            clear(tr("Cannot list the run's examples: %1.").arg(result->fileProblem));
            fileProblem_ = result->fileProblem;
            problemKey_ = result->problemKey;
            problemSha256_ = result->problemSha256;
            locate_->setVisible(true);
            useChanged_->setVisible(result->problemIsChange);
            return;
        }
        data_ = *result;
        loaded_ = true;
        {
            const QSignalBlocker blocker(class_);
            class_->clear();
            class_->addItem(tr("any gold class"), -1);
            for (int c = 0; c < data_.classes.size(); ++c)
                class_->addItem(tr("gold: %1").arg(data_.classes[c]), c);
        }
        showSplit();
    });
    connect(locate_, &QPushButton::clicked, this, [this] {
        const QString start = QFileInfo(QString::fromStdString(
                                            [&] {
                                                for (const auto& f : OwnDataFiles::of(options_))
                                                    if (QString::fromStdString(f.key) == problemKey_)
                                                        return f.path;
                                                return std::string();
                                            }()))
                                  .absolutePath();
        const QString path = QFileDialog::getOpenFileName(this, tr("Locate the Run's Data File"), start,
                                                          tr("CSV/TSV files (*.csv *.tsv *.txt);;All files (*)"));
        if (!path.isEmpty())
            locateFile(problemKey_, path);
    });
    connect(useChanged_, &QPushButton::clicked, this, &DatasetBrowser::useChangedFile);
    connect(split_, &QComboBox::currentIndexChanged, this, &DatasetBrowser::showSplit);
    connect(show_, &QComboBox::currentIndexChanged, this, [this](int mode) {
        proxy_->setMisclassifiedOnly(mode == 1);
        if (mode == 2)
            table_->sortByColumn(ExamplePredictionModel::Confidence, Qt::AscendingOrder);
        else
            table_->sortByColumn(ExamplePredictionModel::Index, Qt::AscendingOrder);
        updateSummary();
    });
    connect(class_, &QComboBox::currentIndexChanged, this, [this] {
        proxy_->setClasses(class_->currentData().toInt(), -1);
        updateSummary();
    });
    connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
        proxy_->setText(text);
        updateSummary();
    });
    connect(confusion_, &QTableWidget::cellClicked, this, &DatasetBrowser::confusionClicked);
    connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        emit exampleChosen(model_->textAt(proxy_->mapToSource(index).row()));
    });
    clear(tr("The dataset browser lists a text run's dev and test examples with its predictions."));
}

DatasetBrowser::~DatasetBrowser()
{
    loading_->waitForFinished();
}

void DatasetBrowser::setExplainer(std::shared_ptr<const ModelExplainer> explainer, const std::string& environmentJson)
{
    clear(explainer ? tr("Reading the dataset and predicting every example…")
                    : tr("The dataset browser needs the run's saved weights (see above)."));
    explainer_ = std::move(explainer);
    recorded_ = OwnDataFiles::recorded(environmentJson);
    acceptChanged_ = false;
    if (explainer_) {
        // Every data setting the run was trained with, as the window's worker read them: the user's own
        // file, its columns and delimiter too (the hand-picked subset here lost them).
        options_ = explainer_->config().datasetOptions();
        // A file located before for this run's contents is read from there while the old place is empty.
        const QSettings settings;
        for (const auto& f : OwnDataFiles::of(options_)) {
            const auto sha = recorded_.find(OwnDataFiles::environmentKey(f.key));
            if (sha == recorded_.end() || QFileInfo::exists(QString::fromStdString(f.path)))
                continue;
            const QString located = settings.value(QStringLiteral("locatedDataFiles/") + QString::fromStdString(sha->second)).toString();
            if (!located.isEmpty() && QFileInfo::exists(located))
                OwnDataFiles::relocate(options_, f.key, located.toStdString());
        }
    }
    if (explainer_ && isVisible())
        load();
}

void DatasetBrowser::locateFile(const QString& key, const QString& path)
{
    if (!explainer_ || !OwnDataFiles::relocate(options_, key.toStdString(), path.toStdString()))
        return;
    acceptChanged_ = false;
    clear(tr("Reading the dataset and predicting every example…"));
    load();
}

void DatasetBrowser::useChangedFile()
{
    if (!explainer_)
        return;
    acceptChanged_ = true;
    clear(tr("Reading the dataset and predicting every example…"));
    load();
}

void DatasetBrowser::clear(const QString& why)
{
    loaded_ = false;
    data_ = {};
    model_->setExamples({}, {}, {});
    confusion_->clear();
    confusion_->setRowCount(0);
    confusion_->setColumnCount(0);
    summary_->setText(why);
    fileProblem_.clear();
    locate_->setVisible(false);
    useChanged_->setVisible(false);
}

bool DatasetBrowser::isLoading() const
{
    return loading_->isRunning();
}

int DatasetBrowser::shownCount() const
{
    return proxy_->rowCount();
}

const std::vector<ExamplePrediction>& DatasetBrowser::predictions() const
{
    return split_->currentIndex() == 1 ? data_.test.predictions : data_.dev.predictions;
}

std::vector<std::vector<std::int64_t>> DatasetBrowser::confusion() const
{
    const auto n = static_cast<std::size_t>(data_.classes.size());
    std::vector<std::vector<std::int64_t>> m(n, std::vector<std::int64_t>(n, 0));
    for (const auto& p : predictions())
        if (static_cast<std::size_t>(p.gold) < n && static_cast<std::size_t>(p.predicted) < n)
            ++m[static_cast<std::size_t>(p.gold)][static_cast<std::size_t>(p.predicted)];
    return m;
}

void DatasetBrowser::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (explainer_ && !loaded_ && !isLoading())
        load();
}

void DatasetBrowser::load()
{
    auto explainer = explainer_;
    const DatasetOptions options = options_;
    const auto recorded = recorded_;
    const bool acceptChanged = acceptChanged_;
    const DatasetOptions original = explainer->config().datasetOptions();
    summary_->setText(tr("Reading the dataset and predicting every example…"));
    loading_->setFuture(QtConcurrent::run([explainer, options, original, recorded, acceptChanged] {
        auto result = std::make_shared<Result>();
        try {
            // The user's own files first: are they still the run's? (hashing reads them, so off the UI thread)
            const auto checks = OwnDataFiles::check(options, recorded);
            for (const auto& c : checks) {
                const bool changed = c.state == OwnDataFiles::State::Changed;
                if (c.state == OwnDataFiles::State::Missing || (changed && !acceptChanged)) {
                    result->fileProblem = QString::fromStdString(OwnDataFiles::problem({c}));
                    result->problemKey = QString::fromStdString(c.key);
                    result->problemSha256 = QString::fromStdString(c.recordedSha256);
                    result->problemIsChange = changed;
                    return result;
                }
                if (changed)
                    result->note = tr("Listed from %1 as it is now: it has changed since the run, so these are not "
                                      "the examples the run was tested on. ").arg(QString::fromStdString(c.path));
            }
            const auto originals = OwnDataFiles::of(original);
            for (std::size_t i = 0; i < checks.size() && i < originals.size(); ++i)
                if (checks[i].path != originals[i].path && checks[i].state == OwnDataFiles::State::Unchanged) {
                    result->note += tr("Read from %1, the run's file (same sha256) located there. ")
                                        .arg(QString::fromStdString(checks[i].path));
                    QSettings().setValue(QStringLiteral("locatedDataFiles/") + QString::fromStdString(checks[i].recordedSha256),
                                         QString::fromStdString(checks[i].path));
                }
            const TextDataset data = DatasetCatalog::load(explainer->config().dataset, options);
            if (data.classNames != explainer->classNames())
                throw std::runtime_error("the dataset's classes are not the ones the model was trained on");
            result->dev = {data.dev, explainer->predict(data.dev)};
            result->test = {data.test, explainer->predict(data.test)};
            for (const auto& c : data.classNames)
                result->classes << QString::fromStdString(c);
        } catch (const std::exception& e) {
            result->error = tr("Cannot list the run's examples: %1").arg(QString::fromStdString(e.what()));
        }
        return result;
    }));
}

void DatasetBrowser::showSplit()
{
    if (!loaded_)
        return;
    const Split& split = split_->currentIndex() == 1 ? data_.test : data_.dev;
    model_->setExamples(split.examples, split.predictions, data_.classes);
    proxy_->setClasses(class_->currentData().toInt(), -1);
    const auto m = confusion();
    confusion_->clear();
    confusion_->setRowCount(data_.classes.size());
    confusion_->setColumnCount(data_.classes.size());
    confusion_->setHorizontalHeaderLabels(data_.classes);
    confusion_->setVerticalHeaderLabels(data_.classes);
    for (int g = 0; g < data_.classes.size(); ++g)
        for (int p = 0; p < data_.classes.size(); ++p) {
            auto* item = new QTableWidgetItem(QString::number(m[static_cast<std::size_t>(g)][static_cast<std::size_t>(p)]));
            item->setTextAlignment(Qt::AlignCenter);
            if (g == p)
                item->setFont([&] { QFont f = font(); f.setBold(true); return f; }());
            confusion_->setItem(g, p, item);
        }
    updateSummary();
}

void DatasetBrowser::confusionClicked(int gold, int predicted)
{
    if (proxy_->gold() == gold && proxy_->predicted() == predicted) {
        proxy_->setClasses(class_->currentData().toInt(), -1); // the same cell again: back to the list
        confusion_->clearSelection();
    } else {
        proxy_->setClasses(gold, predicted);
    }
    updateSummary();
}

void DatasetBrowser::updateSummary()
{
    if (!loaded_)
        return;
    const auto& p = predictions();
    std::size_t correct = 0;
    for (const auto& x : p)
        correct += x.correct() ? 1 : 0;
    QString cell;
    if (proxy_->predicted() >= 0)
        cell = tr(" · gold %1, predicted %2").arg(data_.classes.value(proxy_->gold()), data_.classes.value(proxy_->predicted()));
    summary_->setText(data_.note + tr("%1 of %2 %3 examples shown%4 · accuracy %5%")
                          .arg(shownCount())
                          .arg(p.size())
                          .arg(split_->currentText())
                          .arg(cell)
                          .arg(p.empty() ? 0.0 : 100.0 * static_cast<double>(correct) / static_cast<double>(p.size()), 0, 'f', 2));
}

} // namespace attnlab::ui
