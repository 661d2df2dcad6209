// File → Datasets…: which datasets are in the data folder, downloading one through libcurl (from a
// file:// mirror of ../shared/datasets, the same code path as https), importing one from a folder, a failed
// and a cancelled transfer, and the first start without real data (the dialog says what works with no
// download, and "Start with a lesson" chooses SAN vs RNN in the designer).
#include "core/data/install/DatasetManifest.h"
#include "tests/support/RealData.h"
#include "tests/support/WidgetLookup.h"
#include "ui/MainWindow.h"
#include "ui/setup/DatasetsDialog.h"

#include <QAction>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSemaphore>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

using namespace attnlab;
using namespace attnlab::ui;

namespace {

QString sha256Of(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&f);
    return QString::fromLatin1(hash.result().toHex());
}

const DatasetManifest& manifest(const char* id)
{
    const DatasetManifest* m = DatasetManifest::find(id);
    if (!m)
        qFatal("no manifest %s", id);
    return *m;
}

// The status column's text of a dataset's row.
QString statusOf(DatasetsDialog& dialog, const QString& name)
{
    auto* model = qobject_cast<QStandardItemModel*>(child<QTableView>(&dialog, "datasetsTable")->model());
    for (int r = 0; r < model->rowCount(); ++r)
        if (model->item(r, 0)->text() == name)
            return model->item(r, 3)->text();
    return QStringLiteral("(no row)");
}

} // namespace

// REQUIRE_REAL_DATA reads ATTNLAB_DATA_DIR, which initTestCase takes away (remembered in shared_ first).
#define REQUIRE_SHARED(dir)                                                                                  \
    if (shared_.isEmpty()) {                                                                                 \
        if (qEnvironmentVariable("CI") == "true")                                                            \
            QFAIL("ATTNLAB_DATA_DIR does not point at the shared datasets, and CI=true");                    \
        QSKIP("no real data (set ATTNLAB_DATA_DIR or -DATTNLAB_SHARED_DATASETS)");                          \
    }                                                                                                        \
    const QString dir = shared_;

class TestDatasetsDialog : public QObject {
    Q_OBJECT
private:
    QString shared_;
    QTemporaryDir home_; // XDG_DATA_HOME: the user's data folder is empty

private slots:
    void initTestCase()
    {
        shared_ = realDataDir();
        // Only the folder a test names is searched: no ATTNLAB_DATA_DIR, an empty user data folder.
        qunsetenv("ATTNLAB_DATA_DIR");
        qputenv("XDG_DATA_HOME", home_.path().toLocal8Bit());
        QCoreApplication::setOrganizationName(QStringLiteral("attnlab-test-datasets"));
    }

    void listsEveryDatasetWithFilesAndSaysWhatWorksWithout()
    {
        QTemporaryDir empty;
        QVERIFY(!DatasetsDialog::anyRealDataPresent(empty.path()));
        DatasetsDialog dialog(empty.path());
        QVERIFY(child<QLabel>(&dialog, "datasetsIntro")->text().contains(QStringLiteral("No real dataset")));
        QVERIFY(child<QLabel>(&dialog, "datasetsFolderLabel")->text().contains(empty.path()));
        int withFiles = 0;
        for (const DatasetManifest& m : DatasetManifest::all())
            withFiles += m.files.empty() ? 0 : 1;
        QVERIFY(withFiles >= 7);
        QCOMPARE(child<QTableView>(&dialog, "datasetsTable")->model()->rowCount(), withFiles);
        QCOMPARE(statusOf(dialog, QStringLiteral("OpeNER")).left(7), QStringLiteral("not yet"));
        // GloVe has no single upstream file: import only, so Download is off for it.
        dialog.selectDataset(QStringLiteral("glove-6b-100d-sentiment"));
        QVERIFY(!child<QPushButton>(&dialog, "downloadButton")->isEnabled());
        QVERIFY(child<QPushButton>(&dialog, "importButton")->isEnabled());
        dialog.selectDataset(QStringLiteral("opener"));
        QVERIFY(child<QPushButton>(&dialog, "downloadButton")->isEnabled());
        QVERIFY(!child<QPushButton>(&dialog, "cancelTransferButton")->isEnabled());
        // The README's picture of the first start.
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const QString shots = QStringLiteral(ATTNLAB_BUILD_DIR "/screenshots");
        QDir().mkpath(shots);
        QVERIFY(dialog.grab().save(shots + QStringLiteral("/datasets-dialog.png")));
    }

    void downloadsThroughLibcurlAndChecksEveryFile()
    {
        REQUIRE_SHARED(shared);
        QTemporaryDir target;
        DatasetsDialog dialog(target.path());
        dialog.setUrlBase(QStringLiteral("file://") + shared);
        QSignalSpy finished(&dialog, &DatasetsDialog::transferFinished);
        QSignalSpy changed(&dialog, &DatasetsDialog::datasetsChanged);
        dialog.selectDataset(QStringLiteral("opener"));
        child<QPushButton>(&dialog, "downloadButton")->click();
        QVERIFY(dialog.isTransferring());
        QVERIFY(!child<QPushButton>(&dialog, "downloadButton")->isEnabled());
        QVERIFY(finished.wait(30000) || finished.count() == 1);
        QCOMPARE(finished.first().first().toBool(), true);
        QCOMPARE(changed.count(), 1);
        const DatasetManifest& m = manifest("opener");
        for (const ManifestFile& f : m.files) {
            const QString placed = target.filePath(QString::fromStdString(f.path));
            QCOMPARE(sha256Of(placed), QString::fromStdString(f.sha256));
        }
        QVERIFY(statusOf(dialog, QString::fromStdString(m.name)).startsWith(QStringLiteral("yes")));
        QVERIFY(child<QLabel>(&dialog, "transferStatus")->text().startsWith(QStringLiteral("Done")));
        QVERIFY(DatasetsDialog::anyRealDataPresent(target.path()));
    }

    void importsFromAFolder()
    {
        REQUIRE_SHARED(shared);
        QTemporaryDir target;
        DatasetsDialog dialog(target.path());
        QSignalSpy finished(&dialog, &DatasetsDialog::transferFinished);
        dialog.selectDataset(QStringLiteral("sml2010"));
        dialog.importFrom(shared + QStringLiteral("/sml2010"));
        QVERIFY(finished.wait(30000) || finished.count() == 1);
        QCOMPARE(finished.first().first().toBool(), true);
        for (const ManifestFile& f : manifest("sml2010").files)
            QCOMPARE(sha256Of(target.filePath(QString::fromStdString(f.path))), QString::fromStdString(f.sha256));
        QVERIFY(statusOf(dialog, QString::fromStdString(manifest("sml2010").name)).startsWith(QStringLiteral("yes")));
    }

    void aFailedDownloadNamesTheFileAndLeavesNothing()
    {
        QTemporaryDir target, mirror; // an empty mirror: every URL is missing
        DatasetsDialog dialog(target.path());
        dialog.setUrlBase(QStringLiteral("file://") + mirror.path());
        QSignalSpy finished(&dialog, &DatasetsDialog::transferFinished);
        dialog.selectDataset(QStringLiteral("opener"));
        dialog.download();
        QVERIFY(finished.wait(30000) || finished.count() == 1);
        QCOMPARE(finished.first().first().toBool(), false);
        const QString status = child<QLabel>(&dialog, "transferStatus")->text();
        QVERIFY2(status.startsWith(QStringLiteral("Failed")) && status.contains(QStringLiteral("sentiment/opener/")), qPrintable(status));
        QVERIFY(QDir(target.path()).entryList(QDir::Files | QDir::NoDotAndDotDot).isEmpty());
        QVERIFY(!QDir(target.filePath(QStringLiteral("sentiment/opener"))).exists()
                || QDir(target.filePath(QStringLiteral("sentiment/opener"))).entryList(QDir::Files).isEmpty());
        QVERIFY(child<QPushButton>(&dialog, "downloadButton")->isEnabled()); // a retry is one click
    }

    void cancelLeavesNoPartialFile()
    {
        REQUIRE_SHARED(shared);
        QTemporaryDir target;
        DatasetsDialog dialog(target.path());
        dialog.setUrlBase(QStringLiteral("file://") + shared);
        QSignalSpy finished(&dialog, &DatasetsDialog::transferFinished);
        dialog.selectDataset(QStringLiteral("sst-fine"));
        // Before its first chunk by construction, not by timing: every thread of the pool the transfer runs on is
        // held until the cancel is in (on a loaded CI machine the worker once placed the first file before it).
        QThreadPool* pool = QThreadPool::globalInstance();
        const int threads = pool->maxThreadCount();
        QSemaphore held, release;
        for (int i = 0; i < threads; ++i)
            pool->start([&held, &release] {
                held.release();
                release.acquire();
            });
        held.acquire(threads);
        dialog.download();
        dialog.cancelTransfer();
        release.release(threads);
        QVERIFY(finished.wait(30000) || finished.count() == 1);
        QCOMPARE(finished.first().first().toBool(), false);
        QVERIFY(child<QLabel>(&dialog, "transferStatus")->text().startsWith(QStringLiteral("Cancelled")));
        for (const ManifestFile& f : manifest("sst-fine").files)
            QVERIFY(!QFile::exists(target.filePath(QString::fromStdString(f.path))));
        QVERIFY(statusOf(dialog, QString::fromStdString(manifest("sst-fine").name)).startsWith(QStringLiteral("not yet")));
    }

    void theWindowOpensItAndALessonNeedsNoDownload()
    {
        QTemporaryDir dir;
        MainWindow window(dir.filePath(QStringLiteral("runs.sqlite")));
        window.show();
        child<QAction>(&window, "datasetsAction")->trigger();
        auto* dialog = window.findChild<DatasetsDialog*>(QStringLiteral("datasetsDialog"));
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        child<QPushButton>(dialog, "startLessonButton")->click();
        QTRY_VERIFY(!window.findChild<DatasetsDialog*>(QStringLiteral("datasetsDialog"))); // closed and deleted
        // The SAN vs RNN lesson is chosen: its two configurations wait for Compare.
        QCOMPARE(child<QPushButton>(&window, "compareButton")->text(), QStringLiteral("Compare (2)"));
    }
};

QTEST_MAIN(TestDatasetsDialog)
#include "test_datasets_dialog.moc"
