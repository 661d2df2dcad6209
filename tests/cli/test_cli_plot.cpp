// attnlab-cli runs plot, run as a user runs it: the curves of stored runs to PNG, SVG and PDF without a
// window (GUI build), clear errors for unknown runs and metrics, and a one-line refusal in a build
// without Qt (ATTNLAB_CLI_PLOTS=0).
#include "core/store/RunStore.h"
#include "tests/support/CliProcess.h"
#include "tests/support/StoreFixtures.h"

#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtCore/QXmlStreamReader>
#include <QtTest/QtTest>

using namespace attnlab;

namespace {

// Width and height from a PNG's IHDR chunk (bytes 16..23, big-endian): no QtGui in a cli test.
QPair<quint32, quint32> pngSize(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {0, 0};
    const QByteArray head = f.read(24);
    if (head.size() < 24 || !head.startsWith("\x89PNG"))
        return {0, 0};
    auto be = [&](int at) {
        return (quint32(quint8(head[at])) << 24) | (quint32(quint8(head[at + 1])) << 16) |
               (quint32(quint8(head[at + 2])) << 8) | quint32(quint8(head[at + 3]));
    };
    return {be(16), be(20)};
}

} // namespace

class TestCliPlot : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString db_;
    QStringList ids_;

private Q_SLOTS:
    void initTestCase()
    {
        db_ = dir_.filePath("runs.sqlite");
        RunStore store(db_.toStdString());
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            const auto id = store.beginRun(testing::infoFor("synthetic-sentiment", seed <= 2 ? "ssan" : "lstm",
                                                            seed <= 2 ? "rpr" : "none", seed));
            std::vector<MetricPoint> points;
            for (int step = 10; step <= 300; step += 10) {
                points.push_back({step, "train", "epoch", step / 100.0});
                points.push_back({step, "train", "loss", 1.0 / (1.0 + step * 0.01 * seed)});
                if (step % 50 == 0)
                    points.push_back({step, "dev", "accuracy", 0.5 + step / 1000.0 + seed * 0.01});
            }
            store.appendMetrics(static_cast<std::int64_t>(id), points);
            store.finishRun(id, testing::completed(0.8, 0.8));
            ids_.append(QString::number(id));
        }
    }

    void helpExitsZero()
    {
        const auto r = runCli({"runs", "plot", "--help"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("--metric"));
        QVERIFY(runCli({"runs", "--help"}).out.contains("runs plot"));
    }

    void writesThreeFormats()
    {
#if ATTNLAB_CLI_PLOTS
        const QString png = dir_.filePath("loss.png");
        auto r = runCli(QStringList{"runs", "plot"} + ids_ +
                        QStringList{"--metric", "train_loss", "--smoothing", "0.6", "--width", "900", "--height", "500",
                                    "--out", png, "--db", db_});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("wrote " + png), qPrintable(r.out));
        QCOMPARE(pngSize(png), (QPair<quint32, quint32>(900, 500)));
        // Grouped by model on epochs, at 300 dpi: still the asked pixels.
        const QString sharp = dir_.filePath("dev.png");
        r = runCli(QStringList{"runs", "plot"} + ids_ +
                   QStringList{"--metric", "dev_accuracy", "--group-by", "model", "--x", "epoch", "--width", "1800",
                               "--height", "1200", "--dpi", "300", "--out", sharp, "--db", db_});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(pngSize(sharp), (QPair<quint32, quint32>(1800, 1200)));

        const QString svg = dir_.filePath("loss.svg");
        r = runCli(QStringList{"runs", "plot"} + ids_ + QStringList{"--metric", "train_loss", "--out", svg, "--db", db_});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&svgFile);
        bool sawSvg = false;
        while (!xml.atEnd())
            if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("svg"))
                sawSvg = true;
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(sawSvg);

        const QString pdf = dir_.filePath("loss.pdf");
        r = runCli(QStringList{"runs", "plot", ids_[0], "--metric", "train_loss", "--out", pdf, "--db", db_, "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.lastJson()["format"].toString(), QString("pdf"));
        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        QCOMPARE(pdfFile.read(5), QByteArray("%PDF-"));
#else
        QSKIP("built without the GUI: runs plot cannot draw (checked by refusesWithoutQt)");
#endif
    }

    void failsClearly()
    {
#if ATTNLAB_CLI_PLOTS
        const QString out = dir_.filePath("x.png");
        auto r = runCli({"runs", "plot", ids_[0], "99999", "--metric", "train_loss", "--out", out, "--db", db_});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("no run 99999"), qPrintable(r.err));
        r = runCli({"runs", "plot", ids_[0], "--metric", "dev_perplexity", "--out", out, "--db", db_});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--metric") && r.err.contains("dev_perplexity"), qPrintable(r.err));
        r = runCli({"runs", "plot", ids_[0], "--metric", "dev_rmse", "--out", out, "--db", db_});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("no dev rmse points"), qPrintable(r.err));
        r = runCli({"runs", "plot", ids_[0], "--metric", "train_loss", "--out", dir_.filePath("x.gif"), "--db", db_});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(".png, .svg or .pdf"), qPrintable(r.err));
        r = runCli({"runs", "plot", "--metric", "train_loss", "--out", out, "--db", db_});
        QCOMPARE(r.code, 2);
        QVERIFY(!QFile::exists(out));
#else
        QSKIP("built without the GUI");
#endif
    }

    void refusesWithoutQt()
    {
#if ATTNLAB_CLI_PLOTS
        QSKIP("built with the GUI: runs plot draws");
#else
        const auto r = runCli({"runs", "plot", ids_[0], "--metric", "train_loss", "--out", dir_.filePath("x.png"),
                               "--db", db_});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("built without Qt"));
        QCOMPARE(r.err.trimmed().count('\n'), 0);
#endif
    }
};

QTEST_GUILESS_MAIN(TestCliPlot)
#include "test_cli_plot.moc"
