// Translation data: Multi30k as read from its upstream gzip files, the built-in tasks and their
// gold alignments, the user's pairs and every bad input the issue names. Real-data checks read
// ATTNLAB_DATA_DIR; without it they fail in CI and skip elsewhere (tests/support/RealData.h).
#include "core/config/Registry.h"
#include "core/data/DataError.h"
#include "core/data/DatasetCatalog.h"
#include "core/data/DatasetStatistics.h"
#include "core/data/GzipInput.h"
#include "core/data/Tokenizer.h"
#include "core/data/readers/Multi30kReader.h"
#include "core/data/readers/SyntheticTranslation.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "tests/support/RealData.h"

#include <zlib.h>

#include <algorithm>
#include <set>

using namespace attnlab;

namespace {

std::string write(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(bytes);
    return path.toStdString();
}

std::string writeGzip(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    const std::string path = dir.filePath(name).toStdString();
    gzFile f = gzopen(path.c_str(), "wb");
    gzwrite(f, bytes.constData(), static_cast<unsigned>(bytes.size()));
    gzclose(f);
    return path;
}

// Runs f, expects a DataError whose message holds every one of `words` (and, when line > 0, that line).
template <typename F>
void expectDataError(F f, int line, const QStringList& words)
{
    try {
        f();
        QFAIL(qPrintable("no error; expected one about " + words.join(", ")));
    } catch (const DataError& e) {
        const QString message = QString::fromStdString(e.what());
        if (line > 0)
            QVERIFY2(e.line() == line, qPrintable(message));
        for (const auto& w : words)
            QVERIFY2(message.contains(w, Qt::CaseInsensitive), qPrintable(message + "  (expected: " + w + ")"));
    }
}

std::vector<std::string> tokens(std::initializer_list<const char*> list) { return {list.begin(), list.end()}; }

QString multi30kDir()
{
    const QString dir = realDataDir();
    return !dir.isEmpty() && QFile::exists(dir + "/translation/multi30k/train.de.gz") ? dir : QString();
}

DatasetOptions syntheticOptions(int train = 400, int dev = 60, int test = 60)
{
    DatasetOptions o;
    o.translationTrain = train;
    o.translationDev = dev;
    o.translationTest = test;
    return o;
}

int number(const std::string& s)
{
    int v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return -1;
        v = v * 10 + (c - '0');
    }
    return s.empty() ? -1 : v;
}

} // namespace

class TestTranslationData : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // ---- Multi30k: the issue's counts in two directions, tokens, raw text, the cap ----
    void multi30kCountsInTwoDirections()
    {
        REQUIRE_REAL_DATA(data);
        const QString dir = multi30kDir();
        if (dir.isEmpty())
            QFAIL("ATTNLAB_DATA_DIR has no translation/multi30k (../shared/datasets/translation/multi30k)");
        DatasetOptions o;
        o.dataDir = dir.toStdString();
        QCOMPARE(DatasetCatalog::dataFolder("multi30k"), std::string("translation/multi30k"));
        const auto de = DatasetCatalog::loadTranslation("multi30k", o);
        QCOMPARE(de.train.size(), std::size_t(29000));
        QCOMPARE(de.dev.size(), std::size_t(1014));
        QCOMPARE(de.test.size(), std::size_t(1000));
        QCOMPARE(de.sourceLanguage, std::string("de"));
        QCOMPARE(de.targetLanguage, std::string("en"));
        QCOMPARE(de.tokenizer, std::string("words"));
        QVERIFY(!de.goldAlignment && de.notes.empty());
        QCOMPARE(de.train[0].source, tokens({"Zwei", "junge", "weiße", "Männer", "sind", "im", "Freien", "in", "der", "Nähe",
                                            "vieler", "Büsche", "."}));
        QCOMPARE(de.train[0].target, tokens({"Two", "young", ",", "White", "males", "are", "outside", "near", "many", "bushes", "."}));
        QCOMPARE(de.train[0].sourceText, std::string("Zwei junge weiße Männer sind im Freien in der Nähe vieler Büsche."));
        QCOMPARE(de.train[0].targetText, std::string("Two young, White males are outside near many bushes."));
        QVERIFY(de.train[0].alignment.empty());
        // The probe: the first short dev pair, here the first dev line.
        QCOMPARE(de.probe.sourceText, std::string("Eine Gruppe von Männern lädt Baumwolle auf einen Lastwagen"));
        QCOMPARE(de.probe.target.size(), std::size_t(10));

        o.sourceLanguage = "fr";
        o.lowercase = true;
        const auto fr = DatasetCatalog::loadTranslation("multi30k", o);
        QCOMPARE(fr.train.size(), std::size_t(29000));
        QCOMPARE(fr.dev.size(), std::size_t(1014));
        QCOMPARE(fr.test.size(), std::size_t(1000));
        QCOMPARE(fr.train[0].source, tokens({"deux", "jeunes", "hommes", "blancs", "sont", "dehors", "près", "de", "buissons", "."}));
        QCOMPARE(fr.train[0].target.front(), std::string("two"));
        QCOMPARE(fr.train[0].sourceText, std::string("Deux jeunes hommes blancs sont dehors près de buissons.")); // raw, not lowercased
        QCOMPARE(fr.dev[0].source, tokens({"un", "groupe", "d'", "hommes", "chargent", "du", "coton", "dans", "un", "camion"}));
        QVERIFY(fr.lowercase);

        // Through loadAny, as the CLI and the trainer load it.
        const LoadedDataset any = DatasetCatalog::loadAny("multi30k", o);
        QVERIFY(any.translation && !any.regression && any.text.train.empty());
        QCOMPARE(any.pairs.train.size(), std::size_t(29000));
        const auto stats = DatasetStatistics::of(any);
        QVERIFY(stats.task == TaskKind::Translation);
        QCOMPARE(stats.splits[1].examples, std::int64_t(1014));
        QVERIFY(stats.toJson().find("\"target_vocabulary_size\"") != std::string::npos);
    }

    // multi30k-lm: one language's descriptions as a language-model corpus, Multi30k's own splits, each line's end a
    // token: the characters give the train file back byte for byte, the words count one line end a line.
    void multi30kSentencesAsALanguageModelCorpus()
    {
        REQUIRE_REAL_DATA(data);
        const QString dir = multi30kDir();
        if (dir.isEmpty())
            QFAIL("ATTNLAB_DATA_DIR has no translation/multi30k (../shared/datasets/translation/multi30k)");
        DatasetOptions o;
        o.dataDir = dir.toStdString();
        o.targetLanguage = "de";
        o.lmUnit = "characters";
        const auto characters = DatasetCatalog::loadLanguageModel("multi30k-lm", o);
        std::string train;
        for (auto id : characters.train)
            train += characters.vocabulary[static_cast<std::size_t>(id)];
        GzipInput in((dir + "/translation/multi30k/train.de.gz").toStdString(), "train.de.gz");
        std::string file;
        for (int c = in.get(); c >= 0; c = in.get())
            file += static_cast<char>(c);
        QVERIFY(train == file);
        QCOMPARE(characters.name, std::string("Multi30k (de)"));
        o.lmUnit = "words";
        const auto words = DatasetCatalog::loadLanguageModel("multi30k-lm", o);
        const auto lineEnd = std::find(words.vocabulary.begin(), words.vocabulary.end(), "\n") - words.vocabulary.begin();
        QVERIFY(lineEnd < static_cast<std::ptrdiff_t>(words.vocabulary.size()));
        QCOMPARE(std::count(words.train.begin(), words.train.end(), lineEnd), std::ptrdiff_t(29000));
        QCOMPARE(std::count(words.dev.begin(), words.dev.end(), lineEnd), std::ptrdiff_t(1014));
        QCOMPARE(std::count(words.test.begin(), words.test.end(), lineEnd), std::ptrdiff_t(1000));
        QCOMPARE(words.prompt, file.substr(0, file.find(' '))); // the first word of the first line
        QVERIFY(words.notes.size() == 1 && words.notes[0].find("occur only in dev or test") != std::string::npos);
        o.targetLanguage = "it";
        expectDataError([&] { DatasetCatalog::loadLanguageModel("multi30k-lm", o); }, 0, {"multi30k-lm", "no language 'it'"});
    }

    // The cap drops training pairs only, and says how many; dev and test keep theirs, counted.
    void multi30kCapIsStatedNotSilent()
    {
        REQUIRE_REAL_DATA(data);
        const QString dir = multi30kDir();
        if (dir.isEmpty())
            QFAIL("ATTNLAB_DATA_DIR has no translation/multi30k");
        DatasetOptions o;
        o.dataDir = dir.toStdString();
        o.maxPairLength = 12;
        const auto d = DatasetCatalog::loadTranslation("multi30k", o);
        QVERIFY(d.train.size() < 29000 && d.train.size() > 10000);
        QCOMPARE(d.dev.size(), std::size_t(1014));
        QCOMPARE(d.test.size(), std::size_t(1000));
        for (const auto& p : d.train)
            QVERIFY(p.source.size() <= 12 && p.target.size() <= 12);
        QCOMPARE(d.notes.size(), std::size_t(3));
        const std::string dropped = std::to_string(29000 - d.train.size());
        QVERIFY2(d.notes[0].find("train.de.gz: " ) != std::string::npos &&
                     d.notes[0].find(" of 29,000 training pairs have a side over 12 tokens (max_pair_length) and were dropped") != std::string::npos,
                 d.notes[0].c_str());
        QVERIFY2(d.notes[1].find("of 1,014 dev pairs have a side over 12 tokens (max_pair_length); kept") != std::string::npos, d.notes[1].c_str());
    }

    void multi30kSettingsAreChecked()
    {
        DatasetOptions o;
        o.dataDir = "/nonexistent";
        o.sourceLanguage = o.targetLanguage = "en";
        expectDataError([&] { Multi30kReader::read("/nonexistent", o); }, 0, {"source and target language", "'en'"});
        o.sourceLanguage = "cs";
        expectDataError([&] { Multi30kReader::read("/nonexistent", o); }, 0, {"source language", "'cs'", "en, de, fr"});
        QCOMPARE(Multi30kReader::fileOf("dev", "fr"), std::string("val.fr.gz"));
        QCOMPARE(Multi30kReader::fileOf("test", "de"), std::string("test_2016_flickr.de.gz"));
    }

    // ---- the words tokenizer: German and French text that PTB style mangles ----
    void wordsStyleSuitsGermanAndFrench()
    {
        const Tokenizer words(Tokenizer::Style::Words);
        const Tokenizer ptb(Tokenizer::Style::Ptb);
        const std::string german = "Ein Schild, auf dem steht: „Welcome Bikers“.";
        QCOMPARE(words.tokenize(german), tokens({"Ein", "Schild", ",", "auf", "dem", "steht", ":", "„", "Welcome", "Bikers", "“", "."}));
        QCOMPARE(ptb.tokenize(german)[7], std::string("„Welcome")); // why the style exists
        QCOMPARE(words.tokenize("unter einer „Mongolian BBQ“-Leuchtreklame"),
                 tokens({"unter", "einer", "„", "Mongolian", "BBQ", "“", "-Leuchtreklame"}));
        QCOMPARE(words.tokenize("L'homme boit de l'eau qu'il aime aujourd'hui, quelqu'un d'autre aussi."),
                 tokens({"L'", "homme", "boit", "de", "l'", "eau", "qu'", "il", "aime", "aujourd'hui", ",", "quelqu'", "un", "d'",
                         "autre", "aussi", "."}));
        QCOMPARE(words.tokenize("Un vieil homme avec un signe «lent» sourit"),
                 tokens({"Un", "vieil", "homme", "avec", "un", "signe", "«", "lent", "»", "sourit"}));
        // English as PTB splits it, but quotes stay as written and an entity stays whole.
        QCOMPARE(words.tokenize("The woman's sign says \"don't\" &amp; more."),
                 tokens({"The", "woman", "'s", "sign", "says", "\"", "do", "n't", "\"", "&amp;", "more", "."}));
        QCOMPARE(Tokenizer(Tokenizer::Style::Words, true).tokenize("Ärger ÉCOLE"), tokens({"ärger", "école"}));
        QVERIFY(Tokenizer::styleFromName("words") == Tokenizer::Style::Words);
        QCOMPARE(ptb.tokenize("say \"hi\""), tokens({"say", "``", "hi", "''"})); // PTB itself is unchanged
    }

    // ---- GzipInput: the one reader of gzip for word vectors and Multi30k ----
    void gzipInputReadsPlainAndGzipAndRefusesATruncatedFile()
    {
        QTemporaryDir dir;
        const QByteArray text = "eins\r\nzwei\ndrei";
        const auto plain = write(dir, "a.txt", text);
        const auto gz = writeGzip(dir, "a.txt.gz", text);
        QCOMPARE(GzipInput::readLines(plain), tokens({"eins", "zwei", "drei"}));
        QCOMPARE(GzipInput::readLines(gz), tokens({"eins", "zwei", "drei"}));
        QFile f(QString::fromStdString(gz));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray whole = f.readAll();
        const auto cut = write(dir, "cut.txt.gz", whole.left(whole.size() - 10));
        expectDataError([&] { GzipInput::readLines(cut); }, 0, {"cut.txt.gz", "ends in the middle"});
        const auto bad = write(dir, "bad.txt", "fine\nbad \xff byte\n");
        expectDataError([&] { GzipInput::readLines(bad); }, 2, {"bad.txt:2", "invalid UTF-8"});
        expectDataError([&] { GzipInput::readLines(dir.filePath("none.gz").toStdString()); }, 0, {"none.gz", "cannot open"});
    }

    // ---- the built-in tasks ----
    void syntheticTasksAreDeterministicBySeed()
    {
        for (const char* id : {"synthetic-reverse", "synthetic-dates", "synthetic-copy", "synthetic-sort"}) {
            DatasetOptions o = syntheticOptions();
            const auto a = DatasetCatalog::loadTranslation(id, o);
            const auto b = DatasetCatalog::loadTranslation(id, o);
            o.seed = 8;
            const auto c = DatasetCatalog::loadTranslation(id, o);
            QCOMPARE(a.train.size(), std::size_t(400));
            QCOMPARE(a.dev.size(), std::size_t(60));
            QCOMPARE(a.test.size(), std::size_t(60));
            QVERIFY(a.goldAlignment);
            QCOMPARE(a.tokenizer, std::string("whitespace"));
            bool same = true, differs = false;
            for (std::size_t i = 0; i < a.train.size(); ++i) {
                same = same && a.train[i].source == b.train[i].source && a.train[i].target == b.train[i].target &&
                       a.train[i].alignment == b.train[i].alignment;
                differs = differs || a.train[i].source != c.train[i].source;
            }
            QVERIFY2(same, id);
            QVERIFY2(differs, id);
            // Text is the tokens joined by spaces; dev and test sentences are not training ones.
            std::set<std::string> train;
            for (const auto& p : a.train) train.insert(p.sourceText);
            for (const auto* split : {&a.dev, &a.test})
                for (const auto& p : *split) {
                    QVERIFY2(!train.count(p.sourceText), id);
                    QCOMPARE(QString::fromStdString(p.targetText).split(' ').size(), int(p.target.size()));
                }
            QVERIFY(!a.probe.source.empty() && !a.probe.alignment.empty());
        }
    }

    // Every link of every pair joins a target token to the source token it came from, by construction.
    void sequenceAlignmentsHoldByConstruction()
    {
        DatasetOptions o = syntheticOptions();
        for (const char* id : {"synthetic-reverse", "synthetic-copy", "synthetic-sort"}) {
            const auto d = DatasetCatalog::loadTranslation(id, o);
            for (const auto* split : {&d.train, &d.dev, &d.test, })
                for (const auto& p : *split) {
                    const int n = static_cast<int>(p.source.size());
                    QCOMPARE(p.target.size(), p.source.size());
                    QCOMPARE(int(p.alignment.size()), n); // every target token has exactly one link
                    std::set<int> sources;
                    for (const auto& [s, t] : p.alignment) {
                        QVERIFY(s >= 0 && s < n && t >= 0 && t < n);
                        QCOMPARE(p.target[static_cast<std::size_t>(t)], p.source[static_cast<std::size_t>(s)]);
                        if (std::string(id) == "synthetic-reverse") QCOMPARE(s, n - 1 - t);
                        if (std::string(id) == "synthetic-copy") QCOMPARE(s, t);
                        sources.insert(s);
                    }
                    QCOMPARE(int(sources.size()), n); // a permutation
                    if (std::string(id) == "synthetic-sort") {
                        QVERIFY(std::is_sorted(p.target.begin(), p.target.end()));
                        QCOMPARE(int(std::set<std::string>(p.source.begin(), p.source.end()).size()), n); // distinct words
                    }
                }
        }
        QCOMPARE(DatasetCatalog::loadTranslation("synthetic-sort", o).probe.target,
                 tokens({"bee", "cat", "dog", "fox", "owl", "yak"}));
    }

    // Reversal's test is past the trained length: every test sentence is longer than every training one.
    void reverseTestIsLongerThanTraining()
    {
        DatasetOptions o = syntheticOptions();
        o.sequenceMinLength = 2;
        o.sequenceMaxLength = 8;
        const auto d = DatasetCatalog::loadTranslation("synthetic-reverse", o);
        std::size_t trainMax = 0, devMax = 0, testMin = 1000, testMax = 0;
        for (const auto& p : d.train) trainMax = std::max(trainMax, p.source.size());
        for (const auto& p : d.dev) devMax = std::max(devMax, p.source.size());
        for (const auto& p : d.test) {
            testMin = std::min(testMin, p.source.size());
            testMax = std::max(testMax, p.source.size());
        }
        QCOMPARE(trainMax, std::size_t(8));
        QVERIFY(devMax <= 8);
        QVERIFY(testMin >= 9 && testMax <= 16 && testMax > 12);
        QCOMPARE(d.notes.size(), std::size_t(1));
        QVERIFY2(d.notes[0].find("test sentences have 9..16 words, longer than every training sentence (2..8)") != std::string::npos,
                 d.notes[0].c_str());
        // Copy's test is like its training data.
        std::size_t copyTestMax = 0;
        for (const auto& p : DatasetCatalog::loadTranslation("synthetic-copy", o).test) copyTestMax = std::max(copyTestMax, p.source.size());
        QVERIFY(copyTestMax <= 8);
        o.sequenceMaxLength = 26;
        expectDataError([&] { DatasetCatalog::loadTranslation("synthetic-sort", o); }, 0, {"synthetic-sort", "max length", "25"});
        o.sequenceMaxLength = 1;
        expectDataError([&] { DatasetCatalog::loadTranslation("synthetic-copy", o); }, 0, {"synthetic-copy", "lengths", "2..1"});
    }

    // Dates: the weekday is the date's own, the ISO target reads back as the date the source says, and the
    // links join year, month and day to their source words.
    void datesAreRealAndAligned()
    {
        QCOMPARE(SyntheticTranslation::weekdayOf(2026, 11, 26), std::string("thursday"));
        QCOMPARE(SyntheticTranslation::weekdayOf(2000, 1, 1), std::string("saturday"));
        QCOMPARE(SyntheticTranslation::weekdayOf(1969, 7, 20), std::string("sunday"));  // Apollo 11's landing
        QCOMPARE(SyntheticTranslation::weekdayOf(2024, 2, 29), std::string("thursday")); // a leap day
        QCOMPARE(SyntheticTranslation::daysInMonth(1900, 2), 28);
        QCOMPARE(SyntheticTranslation::daysInMonth(2000, 2), 29);

        const auto d = DatasetCatalog::loadTranslation("synthetic-dates", syntheticOptions(2000, 100, 100));
        QCOMPARE(d.probe.sourceText, std::string("thursday , the 26th of november 2026"));
        QCOMPARE(d.probe.targetText, std::string("2026 - 11 - 26"));
        QCOMPARE(d.probe.alignment, (std::vector<std::pair<int, int>>{{6, 0}, {5, 2}, {3, 4}}));
        const auto& months = SyntheticTranslation::monthNames();
        const char* weekdays[] = {"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"};
        std::set<std::string> shapes;
        for (const auto* split : {&d.train, &d.dev, &d.test})
            for (const auto& p : *split) {
                QCOMPARE(p.target.size(), std::size_t(5));
                QCOMPARE(p.target[1], std::string("-"));
                QCOMPARE(p.target[3], std::string("-"));
                const int y = number(p.target[0]), m = number(p.target[2]), day = number(p.target[4]);
                QVERIFY2(y >= SyntheticTranslation::kFirstYear && y <= SyntheticTranslation::kLastYear, p.targetText.c_str());
                QVERIFY2(m >= 1 && m <= 12 && p.target[2].size() == 2, p.targetText.c_str());
                QVERIFY2(day >= 1 && day <= SyntheticTranslation::daysInMonth(y, m) && p.target[4].size() == 2, p.targetText.c_str());
                QCOMPARE(p.alignment.size(), std::size_t(3));
                for (const auto& [s, t] : p.alignment) {
                    const std::string& word = p.source[static_cast<std::size_t>(s)];
                    if (t == 0) {
                        QCOMPARE(number(word), y);
                    } else if (t == 2) {
                        const bool byName = word.size() >= 3 && months[static_cast<std::size_t>(m - 1)].compare(0, word.size(), word) == 0;
                        QVERIFY2(byName || number(word) == m, (word + " in " + p.sourceText).c_str());
                    } else {
                        QCOMPARE(t, 4);
                        const std::string digits = word.substr(0, word.find_first_not_of("0123456789"));
                        QVERIFY2(number(digits) == day, (word + " in " + p.sourceText).c_str());
                    }
                }
                // A weekday, written out or abbreviated, is the real one, and linked to nothing.
                for (std::size_t i = 0; i < p.source.size(); ++i)
                    for (const char* w : weekdays)
                        if (p.source[i] == w || (p.source[i].size() == 3 && std::string(w).compare(0, 3, p.source[i]) == 0 &&
                                                 p.source[i] != "mar" && p.source[i] != "may")) {
                            QCOMPARE(std::string(w), SyntheticTranslation::weekdayOf(y, m, day));
                            for (const auto& link : p.alignment) QVERIFY(link.first != int(i));
                        }
                std::string shape; // numbers as #, short words as a, longer ones as w, separators and "the", "of" as they are
                for (const auto& w : p.source)
                    shape += (number(w) >= 0 ? "#" : w == "," || w == "/" || w == "." || w == "the" || w == "of" ? w : w.size() <= 3 ? "a" : "w") + std::string(" ");
                shapes.insert(shape);
            }
        QVERIFY2(shapes.size() >= 11, "twelve formats (two of them look alike here: n / d / Y and Y / n / d)");
    }

    // ---- the user's pairs ----
    void csvPairsReadsAFileAndSplitsIt()
    {
        QTemporaryDir dir;
        QByteArray csv = "id,de,en\n";
        for (int i = 0; i < 40; ++i)
            csv += QByteArray::number(i) + ",\"Ich sehe " + QByteArray::number(i) + " Hunde.\",I see " + QByteArray::number(i) + " dogs.\n";
        DatasetOptions o;
        o.file = write(dir, "pairs.csv", csv);
        const auto d = DatasetCatalog::loadTranslation("csv-pairs", o);
        QCOMPARE(d.train.size() + d.dev.size() + d.test.size(), std::size_t(40));
        QCOMPARE(d.train.size(), std::size_t(28));
        QCOMPARE(d.sourceLanguage, std::string("de")); // the columns' names
        QCOMPARE(d.targetLanguage, std::string("en"));
        QCOMPARE(d.tokenizer, std::string("words"));
        const auto& p = d.train.front();
        QCOMPARE(p.source.size(), std::size_t(5)); // Ich sehe N Hunde .
        QCOMPARE(p.source.front(), std::string("Ich"));
        QCOMPARE(p.target.back(), std::string("."));
        QVERIFY(p.sourceText.rfind("Ich sehe ", 0) == 0);
        QVERIFY(!d.probe.source.empty());

        // Columns by number, reversed direction; a TSV per split.
        o = DatasetOptions{};
        o.sourceColumn = "2";
        o.targetColumn = "1";
        o.trainFile = write(dir, "train.tsv", "Hello there\tHallo da\nGood night\tGute Nacht\n");
        o.devFile = write(dir, "dev.tsv", "Thank you\tDanke\n");
        o.testFile = write(dir, "test.tsv", "Yes\tJa\n");
        const auto t = DatasetCatalog::loadTranslation("csv-pairs", o);
        QCOMPARE(t.train.size(), std::size_t(2));
        QCOMPARE(t.train[0].source, tokens({"Hallo", "da"}));
        QCOMPARE(t.train[0].target, tokens({"Hello", "there"}));
        QCOMPARE(t.test[0].targetText, std::string("Yes"));

        // Two files of parallel lines, split per file; blank lines at the very end are not lines.
        o = DatasetOptions{};
        o.sourceFile = write(dir, "train.de", "Hallo\nGuten Tag\n\n");
        o.targetFile = writeGzip(dir, "train.en.gz", "Hello\nGood day\n");
        o.devSourceFile = write(dir, "dev.de", "Danke\n");
        o.devTargetFile = write(dir, "dev.en", "Thanks\n");
        o.testSourceFile = write(dir, "test.de", "Ja\n");
        o.testTargetFile = write(dir, "test.en", "Yes\n");
        o.lowercase = true;
        const auto l = DatasetCatalog::loadAny("csv-pairs", o);
        QVERIFY(l.translation);
        QCOMPARE(l.pairs.train.size(), std::size_t(2));
        QCOMPARE(l.pairs.train[1].source, tokens({"guten", "tag"}));
        QCOMPARE(l.pairs.dev[0].target, tokens({"thanks"}));
    }

    void csvPairsBadInputNamesFileAndLine()
    {
        QTemporaryDir dir;
        DatasetOptions o;
        o.file = write(dir, "gaps.csv", "de,en\nHallo,Hello\nDanke,\nJa,Yes\n");
        expectDataError([&] { DatasetCatalog::loadTranslation("csv-pairs", o); }, 3,
                        {"gaps.csv:3", "target sentence (column 'en') is empty"});
        o.file = write(dir, "gaps2.tsv", "source\ttarget\nHallo\tHello\n  \tThanks\n");
        expectDataError([&] { DatasetCatalog::loadTranslation("csv-pairs", o); }, 3, {"gaps2.tsv:3", "source sentence"});
        o.file = write(dir, "one.csv", "text,score\nHallo,1\nJa,2\n");
        expectDataError([&] { DatasetCatalog::loadTranslation("csv-pairs", o); }, 0, {"one.csv", "target column"});
        o.file = write(dir, "cols.csv", "de,en\nHallo,Hello\n");
        o.sourceColumn = "fr";
        expectDataError([&] { DatasetCatalog::loadTranslation("csv-pairs", o); }, 0, {"source column", "fr"});

        // Parallel files whose line counts differ: both files and both counts are named.
        o = DatasetOptions{};
        o.sourceFile = write(dir, "a.de", "eins\nzwei\ndrei\n");
        o.targetFile = write(dir, "b.en", "one\ntwo\n");
        expectDataError([&] { DatasetCatalog::loadTranslation("csv-pairs", o); }, 0, {"a.de", "3 lines", "b.en", "has 2"});
        // An empty line in the middle: that file and line.
        o.targetFile = write(dir, "c.en", "one\n\nthree\n");
        expectDataError([&] { DatasetCatalog::loadTranslation("csv-pairs", o); }, 2, {"c.en:2", "empty line"});
        o = DatasetOptions{};
        expectDataError([&] { DatasetCatalog::loadTranslation("csv-pairs", o); }, 0, {"setting file", "parallel lines"});
        o.sourceFile = "x.de";
        expectDataError([&] { DatasetCatalog::loadTranslation("csv-pairs", o); }, 0, {"target file"});
    }

    void csvPairsLengthCapIsCountedAndStated()
    {
        QTemporaryDir dir;
        QByteArray csv = "de\ten\n";
        for (int i = 0; i < 40; ++i)
            csv += (i % 4 == 0 ? "ein sehr langer Satz mit vielen Wörtern\t" : "kurz\t") + QByteArray("short one\n");
        DatasetOptions o;
        o.file = write(dir, "long.tsv", csv);
        o.maxPairLength = 4;
        const auto d = DatasetCatalog::loadTranslation("csv-pairs", o);
        std::size_t longDev = 0;
        for (const auto& p : d.dev) longDev += p.source.size() > 4 ? 1 : 0;
        QVERIFY(d.train.size() < 28 && !d.train.empty());
        for (const auto& p : d.train) QVERIFY(p.source.size() <= 4);
        const std::string expected = o.file + ": " + std::to_string(28 - d.train.size()) + " of 28 training pairs have a side over 4 "
                                     "tokens (max_pair_length) and were dropped; " + std::to_string(d.train.size()) + " remain";
        QVERIFY(!d.notes.empty());
        QCOMPARE(d.notes[0], expected);
        if (longDev > 0)
            QVERIFY2(d.notes[1].find("dev pairs have a side over 4 tokens (max_pair_length); kept, since dev and test are never cut") !=
                         std::string::npos, d.notes[1].c_str());
        QCOMPARE(d.dev.size() + d.test.size(), std::size_t(12)); // never cut
        o.maxPairLength = 0;
        QVERIFY(DatasetCatalog::loadTranslation("csv-pairs", o).notes.empty());
    }

    // ---- the catalog: every translation id has a reader of its task, and only that one ----
    void everyTranslationIdLoadsAsTranslationOnly()
    {
        int translation = 0;
        for (const auto& entry : Registry::datasets()) {
            QCOMPARE(DatasetCatalog::isTranslation(entry.id), entry.task == TaskKind::Translation);
            if (entry.task != TaskKind::Translation)
                continue;
            ++translation;
            for (int kind = 0; kind < 2; ++kind) {
                try {
                    if (kind == 0) DatasetCatalog::load(entry.id, DatasetOptions{});
                    else DatasetCatalog::loadSeries(entry.id, DatasetOptions{});
                    QFAIL("a translation id loaded as another task");
                } catch (const std::invalid_argument& e) {
                    QVERIFY2(QString(e.what()).startsWith(QString::fromStdString("dataset '" + entry.id + "' is a translation")), e.what());
                }
            }
        }
        QCOMPARE(translation, 6);
        try {
            DatasetCatalog::loadTranslation("sst-fine", DatasetOptions{});
            QFAIL("sst-fine loaded as translation");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString(e.what()).startsWith("dataset 'sst-fine' is a classification dataset, not a translation one"), e.what());
        }
        const LoadedDataset any = DatasetCatalog::loadAny("synthetic-reverse", syntheticOptions(50, 5, 5));
        QVERIFY(any.translation);
        QCOMPARE(any.notes().size(), std::size_t(1));
        const auto stats = DatasetStatistics::of(any);
        QVERIFY(stats.goldAlignment);
        QCOMPARE(stats.vocabularySize, std::int64_t(25));
        QVERIFY2(stats.toText().find("pairs, source length avg") != std::string::npos, stats.toText().c_str());
    }
};

QTEST_GUILESS_MAIN(TestTranslationData)
#include "test_translation_data.moc"
