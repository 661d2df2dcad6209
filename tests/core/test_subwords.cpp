// Subword units for translation: SentencePiece BPE and unigram models learnt in the run
// (SubwordModel, Debian's libsentencepiece through its isolated shim), their text round trip, their
// serialisation into a checkpoint's JSON, the bad models and settings, and Multi30k split into pieces.
// Not in the sanitizer set: ASan refuses the isolated load the shim needs (SharedLibrary::isolationAvailable).
#include "core/data/DatasetCatalog.h"
#include "core/data/SubwordModel.h"
#include "core/data/Tokenizer.h"
#include "core/data/TranslationText.h"

#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include "tests/support/RealData.h"

#include <random>
#include <set>

using namespace attnlab;

namespace {

// Sentences of a small made-up language with shared stems and endings, so BPE has merges to learn, plus
// Unicode (umlauts, accents, a CJK word) the text must come back with.
std::vector<std::string> corpus()
{
    const std::vector<std::string> stems = {"spiel", "lauf", "sprech", "fahr", "schreib", "les", "mach", "trink"};
    const std::vector<std::string> endings = {"en", "e", "st", "t", "ung", "er", "erin"};
    const std::vector<std::string> extras = {"Grüße", "café", "naïve", "Straße", "東京", "Ärger"};
    std::mt19937 rng(3);
    std::vector<std::string> sentences;
    for (int i = 0; i < 600; ++i) {
        std::string s;
        const int words = 3 + static_cast<int>(rng() % 6);
        for (int w = 0; w < words; ++w) {
            if (!s.empty())
                s += ' ';
            s += rng() % 7 == 0 ? extras[rng() % extras.size()] : stems[rng() % stems.size()] + endings[rng() % endings.size()];
        }
        sentences.push_back(s + (rng() % 2 ? "." : " !"));
    }
    return sentences;
}

const std::string kMark = "\xE2\x96\x81"; // ▁

} // namespace

class TestSubwords : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void decodeGluesPiecesAtTheirMarks()
    {
        QCOMPARE(SubwordModel::decode({kMark + "Ein", kMark + "Mann", kMark + "fähr", "t", "."}), std::string("Ein Mann fährt."));
        QCOMPARE(SubwordModel::decode({}), std::string());
        QCOMPARE(TranslationText::detokenize({kMark + "a", "b", kMark + "c"}, "unigram"), std::string("ab c"));
        // BLEU over tokens counts words, not pieces.
        QCOMPARE(TranslationText::words({kMark + "Ein", kMark + "Mann", "."}, "bpe"), (std::vector<std::string>{"Ein", "Mann", "."}));
    }

    void bpeAndUnigramGiveTheTextBack()
    {
        const auto sentences = corpus();
        for (const std::string kind : {"bpe", "unigram"}) {
            const auto model = SubwordModel::train(sentences, kind, 120);
            QCOMPARE(model.kind(), kind);
            QVERIFY2(model.size() <= 120, qPrintable(QString::number(model.size())));
            QVERIFY(model.size() > 40); // the characters alone are ~40; merges were learnt
            std::size_t pieces = 0, characters = 0;
            for (const auto& s : sentences) {
                const auto p = model.encode(s);
                QCOMPARE(SubwordModel::decode(p), s);
                QVERIFY(p.front().rfind(kMark, 0) == 0); // a sentence starts a word
                pieces += p.size();
                characters += s.size();
            }
            QVERIFY2(pieces * 3 < characters, qPrintable(QString("%1 pieces for %2 bytes").arg(pieces).arg(characters)));
            // A word training never saw is still split (into known pieces or single characters) and comes back.
            QCOMPARE(SubwordModel::decode(model.encode("Spielerinnen trinken Tee")), std::string("Spielerinnen trinken Tee"));
        }
    }

    void aModelTravelsAsTextAndTrainingIsRepeatable()
    {
        const auto sentences = corpus();
        const auto model = SubwordModel::train(sentences, "bpe", 100);
        const auto again = SubwordModel::train(sentences, "bpe", 100);
        QCOMPARE(again.serialized(), model.serialized()); // one thread, no sampling: the same pieces every time
        const auto text = model.toText();
        QVERIFY(text.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") == std::string::npos);
        const auto loaded = SubwordModel::fromText(text, "bpe", "checkpoint x.pt");
        QCOMPARE(loaded.serialized(), model.serialized());
        for (const auto& s : sentences)
            QCOMPARE(loaded.encode(s), model.encode(s));
    }

    void badModelsAndSettingsAreNamed()
    {
        auto expect = [](const std::function<void()>& f, const std::vector<std::string>& words) {
            try {
                f();
                QFAIL("no error");
            } catch (const std::exception& e) {
                const std::string what = e.what();
                for (const auto& w : words)
                    QVERIFY2(what.find(w) != std::string::npos, (what + " lacks " + w).c_str());
            }
        };
        expect([] { SubwordModel::fromText("not base64!", "bpe", "checkpoint a.pt"); }, {"checkpoint a.pt", "base64"});
        expect([] { SubwordModel::fromText("AAAAAAAA", "bpe", "checkpoint b.pt"); }, {"checkpoint b.pt", "does not load"});
        expect([] { SubwordModel::fromSerialized(std::string(100, '\x7f'), "bpe", "checkpoint c.pt"); }, {"checkpoint c.pt", "does not load"});
        expect([] { SubwordModel::fromText(SubwordModel::train(corpus(), "bpe", 60).toText(), "wordpiece", "checkpoint d.pt"); },
               {"checkpoint d.pt", "wordpiece"});
        expect([] { SubwordModel::train(corpus(), "wordpiece", 100); }, {"subwords", "bpe | unigram"});
        expect([] { SubwordModel::train(corpus(), "bpe", 9); }, {"subword_vocabulary", "distinct characters"});
        expect([] { SubwordModel::train({}, "bpe", 100); }, {"subwords", "no training sentences"});
    }

    void yourPairsInPieces()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath("pairs.tsv"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("de\ten\n");
        const auto sentences = corpus();
        for (std::size_t i = 0; i < sentences.size(); ++i)
            f.write(QByteArray::fromStdString(sentences[i] + "\t" + sentences[(i * 7) % sentences.size()] + "\n"));
        f.close();
        DatasetOptions o;
        o.file = f.fileName().toStdString();
        o.subwords = "unigram";
        o.subwordVocabulary = 100;
        o.lowercase = true;
        const auto d = DatasetCatalog::loadTranslation("csv-pairs", o);
        QCOMPARE(d.tokenizer, std::string("unigram"));
        QVERIFY(!d.sourceSubwords.empty() && !d.targetSubwords.empty() && d.sourceSubwords != d.targetSubwords);
        for (const auto* split : {&d.train, &d.dev, &d.test})
            for (const auto& p : *split) {
                QCOMPARE(TranslationText::detokenize(p.target, d.tokenizer), Tokenizer::lowercased(p.targetText));
                QCOMPARE(TranslationText::detokenize(p.source, d.tokenizer), Tokenizer::lowercased(p.sourceText));
            }
        // The built-in tasks are tokens with word alignments already: subwords are refused, by name.
        DatasetOptions s;
        s.subwords = "bpe";
        try {
            DatasetCatalog::loadTranslation("synthetic-reverse", s);
            QFAIL("subwords on a built-in task were accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY(std::string(e.what()).find("subwords") != std::string::npos);
        }
    }

    void multi30kInPieces()
    {
        REQUIRE_REAL_DATA(data);
        DatasetOptions o;
        o.dataDir = data.toStdString();
        o.subwords = "bpe";
        o.subwordVocabulary = 8000;
        const auto d = DatasetCatalog::loadTranslation("multi30k", o);
        QCOMPARE(d.train.size(), std::size_t(29000));
        std::set<std::string> pieces;
        for (const auto& p : d.train)
            pieces.insert(p.target.begin(), p.target.end());
        QVERIFY2(pieces.size() <= 8000 && pieces.size() > 4000, qPrintable(QString::number(pieces.size())));
        // Every test reference comes back exactly from its pieces: BLEU is counted on the text as it was.
        for (const auto& p : d.test)
            QCOMPARE(TranslationText::detokenize(p.target, "bpe"), p.targetText);
    }
};

QTEST_GUILESS_MAIN(TestSubwords)
#include "test_subwords.moc"
