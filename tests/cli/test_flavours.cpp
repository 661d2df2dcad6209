// The two LibTorch flavours agree (docs/ARCHITECTURE.md, Build): the attnlab-cli of this build and that of the
// other flavour (ATTNLAB_OTHER_CLI: .ci/run builds Debian's 1.13 and PyPI's 2.11 and points each at the
// other) train every Table 5.4 model for the same seed to the same per-step losses, within a stated
// tolerance, and read each other's checkpoints. Skips, saying why, where only one flavour is built.
#include "tests/support/CliProcess.h"

#include "core/store/RunStore.h"

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>
#include <vector>

namespace {

// The nine models of thesis Table 5.4, as the command line names them (ModelCharacteristics::thesisModels),
// each with the relative loss difference allowed after the first update (the first step, before any update,
// must agree to 1e-6 for every model).
// The thesis' CNN gets 1e-3: its 2,200 flattened features feed 50 ReLU units, and rounding puts one example's
// unit on the other side of its hinge at step 2 (seed 11: the hidden bias of one unit differs by 1.3e-4 after
// two steps, every other parameter by 1e-8), after which the losses differ by up to 5.5e-5 (measured
// 2026-12-03). Another seed's losses differ by 9.5e-3 or more at every one of the 30 steps, so 1e-3 still
// tells the same training from another.
struct FlavourModel {
    const char* name;
    QStringList flags;
    double tolerance;
};
const std::vector<FlavourModel> kModels = {
    {"lstm", {"--model", "lstm", "--position", "none"}, 1e-5},
    {"bilstm", {"--model", "bilstm", "--position", "none"}, 1e-5},
    {"cnn", {"--model", "cnn", "--position", "none"}, 1e-3},
    {"ssan-rpr", {"--model", "ssan", "--position", "rpr"}, 1e-5},
    {"ssan-pe", {"--model", "ssan", "--position", "sinusoidal"}, 1e-5},
    {"ssan2-rpr", {"--model", "ssan", "--position", "rpr", "--layers", "2"}, 1e-5},
    {"transformer-rpr", {"--model", "transformer", "--position", "rpr"}, 1e-5},
    {"essan-mean", {"--model", "essan", "--position", "rpr", "--pooling", "mean"}, 1e-5},
    {"essan", {"--model", "essan", "--position", "rpr"}, 1e-5},
};

// What a flavour's run stored: the train loss at every step (log_every 1).
struct FlavourRun {
    int code = -1;
    QString error;
    std::vector<double> losses;
};

FlavourRun train(const QString& cli, const QStringList& modelFlags, const QString& db, const QString& checkpoints)
{
    QStringList args = {"train", "--dataset", "synthetic-sentiment", "--steps", "30", "--log-every", "1", "--eval-every", "30",
                        "--d-model", "24", "--seed", "11", "--threads", "1", "--device", "cpu", "--json", "--db", db};
    // Dropout's masks come from each LibTorch's own bernoulli kernel (MKL's stream in the wheel, ATen's
    // in Debian's): the same seed draws other masks, so the comparison trains without dropout.
    args << "--dropout-keep" << "1";
    args << (checkpoints.isEmpty() ? QStringList{"--no-checkpoint"} : QStringList{"--checkpoint-dir", checkpoints});
    args << modelFlags;
    QProcess p;
    p.start(cli, args);
    p.waitForFinished(300000);
    FlavourRun run;
    run.code = p.exitCode();
    const QString err = QString::fromUtf8(p.readAllStandardError());
    run.error = err.right(400);
    if (run.code != 0)
        return run;
    const attnlab::RunStore store(db.toStdString()); // the interval losses as stored: every step at log_every 1
    for (const auto& point : store.metrics(1))
        if (point.split == "train" && point.name == "loss")
            run.losses.push_back(point.value);
    return run;
}

QString otherCli()
{
    const QString path = qEnvironmentVariable("ATTNLAB_OTHER_CLI");
    return QFileInfo(path).isExecutable() ? path : QString();
}

} // namespace

class FlavourTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (otherCli().isEmpty())
            QSKIP("only one LibTorch flavour is built here: set ATTNLAB_OTHER_CLI to the other build's attnlab-cli "
                  "(.ci/run does)");
        const auto mine = runCli({"--version"});
        const QString theirs = [] {
            QProcess p;
            p.start(otherCli(), {"--version"});
            p.waitForFinished();
            return QString::fromUtf8(p.readAllStandardOutput());
        }();
        qInfo("this build:  %s", qPrintable(mine.out.trimmed()));
        qInfo("other build: %s", qPrintable(theirs.trimmed()));
        QVERIFY2(mine.out != theirs, "ATTNLAB_OTHER_CLI is this very build");
    }

    void everyModelTrainsToTheSameLosses_data()
    {
        QTest::addColumn<int>("model");
        for (std::size_t i = 0; i < kModels.size(); ++i)
            QTest::newRow(kModels[i].name) << static_cast<int>(i);
    }

    // Same seed, same batches (our own sampler), same initial weights (LibTorch's CPU generator draws the
    // same uniform and normal numbers in 1.13 and 2.11), no dropout: the losses differ only by the rounding
    // of OpenBLAS against MKL/oneDNN, which grows with the steps. Tolerance: 1e-6 relative at the first step,
    // the model's own (above) at every later one of 30 Adam steps (measured 2026-11-25: at most 1.8e-7 for every
    // model but the thesis' CNN; a different seed, init or batch differs by 1e-2 and more).
    void everyModelTrainsToTheSameLosses()
    {
        QFETCH(int, model);
        QTemporaryDir dir;
        const auto& m = kModels[static_cast<std::size_t>(model)];
        const FlavourRun mine = train(QStringLiteral(ATTNLAB_CLI_PATH), m.flags, dir.filePath("mine.sqlite"), {});
        const FlavourRun theirs = train(otherCli(), m.flags, dir.filePath("theirs.sqlite"), {});
        QVERIFY2(mine.code == 0, qPrintable(mine.error));
        QVERIFY2(theirs.code == 0, qPrintable(theirs.error));
        QCOMPARE(mine.losses.size(), std::size_t(30));
        QCOMPARE(theirs.losses.size(), mine.losses.size());
        double worst = 0.0;
        for (std::size_t i = 0; i < mine.losses.size(); ++i) {
            const double relative = std::abs(mine.losses[i] - theirs.losses[i]) / std::max(1e-8, std::abs(theirs.losses[i]));
            worst = std::max(worst, relative);
            const double allowed = i == 0 ? 1e-6 : m.tolerance;
            QVERIFY2(relative < allowed,
                     qPrintable(QStringLiteral("%1, step %2: loss %3 here, %4 in the other flavour")
                                    .arg(m.name)
                                    .arg(i + 1)
                                    .arg(mine.losses[i], 0, 'g', 10)
                                    .arg(theirs.losses[i], 0, 'g', 10)));
        }
        qInfo("%s: largest relative loss difference over 30 steps %.2e", m.name, worst);
    }

    // A checkpoint written by one flavour is explained by the other, with the same prediction.
    void checkpointsCrossFlavours()
    {
        QTemporaryDir dir;
        const QStringList flags = {"--model", "ssan", "--position", "rpr"};
        for (const bool writtenHere : {true, false}) {
            const QString writer = writtenHere ? QStringLiteral(ATTNLAB_CLI_PATH) : otherCli();
            const QString reader = writtenHere ? otherCli() : QStringLiteral(ATTNLAB_CLI_PATH);
            const QString db = dir.filePath(writtenHere ? "here.sqlite" : "there.sqlite");
            const FlavourRun run = train(writer, flags, db, dir.filePath(writtenHere ? "ckpt-here" : "ckpt-there"));
            QVERIFY2(run.code == 0, qPrintable(run.error));
            auto explain = [&](const QString& cli) {
                QProcess p;
                p.start(cli, {"explain", "--db", db, "--run", "1", "--text", "not good at all", "--json"});
                p.waitForFinished(120000);
                const QString out = QString::fromUtf8(p.readAllStandardOutput());
                return std::make_pair(p.exitCode(), QJsonDocument::fromJson(out.trimmed().split('\n').last().toUtf8()).object());
            };
            const auto [writerCode, byWriter] = explain(writer);
            const auto [readerCode, byReader] = explain(reader);
            QCOMPARE(writerCode, 0);
            QVERIFY2(readerCode == 0, writtenHere ? "the other flavour could not read this one's checkpoint"
                                                  : "this flavour could not read the other's checkpoint");
            QVERIFY(!byWriter.value("probabilities").toArray().isEmpty());
            const auto a = byWriter.value("probabilities").toArray(), b = byReader.value("probabilities").toArray();
            QCOMPARE(a.size(), b.size());
            for (int i = 0; i < a.size(); ++i)
                QVERIFY(std::abs(a[i].toDouble() - b[i].toDouble()) < 1e-5);
        }
    }
};

QTEST_GUILESS_MAIN(FlavourTest)
#include "test_flavours.moc"
