// A language model on SentencePiece pieces of your text (unit "pieces"): the pieces learnt on the training text,
// each line's pieces then a line end, the text given back (up to runs of spaces), the vocabulary every piece the
// model can give so a prompt split in a way the text never was still reads, and the model kept in the checkpoint so
// generate splits a prompt as training split the text. Not in the sanitizer set: ASan refuses the isolated load the
// SentencePiece shim needs (as test_subwords).
#include "core/data/DatasetCatalog.h"
#include "core/data/LanguageModelText.h"
#include "core/data/SubwordModel.h"
#include "core/data/readers/TextCorpusReader.h"
#include "core/platform/CancelToken.h"
#include "core/store/RunStore.h"
#include "core/store/StoreObserver.h"
#include "core/training/ModelExplainer.h"
#include "core/training/TextGenerator.h"
#include "core/training/Trainer.h"

#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <algorithm>
#include <random>

using namespace attnlab;

namespace {

// A play-like text: speaker lines and verse over a small vocabulary with shared stems, single spaces.
std::string playText()
{
    const std::vector<std::string> speakers = {"FIRST CITIZEN:", "MENENIUS:", "VOLUMNIA:"};
    const std::vector<std::string> words = {"the", "people", "speak", "speaking", "spoke", "noble", "nobles", "corn", "hunger",
                                            "hungry", "we", "are", "accounted", "poor", "citizens", "patricians", "good"};
    std::mt19937 rng(5);
    std::string text;
    for (int block = 0; block < 300; ++block) {
        text += speakers[rng() % speakers.size()] + "\n";
        for (int line = 0, lines = 1 + static_cast<int>(rng() % 3); line < lines; ++line) {
            for (int w = 0, n = 4 + static_cast<int>(rng() % 6); w < n; ++w)
                text += (w ? " " : "") + words[rng() % words.size()];
            text += rng() % 2 ? ".\n" : ",\n";
        }
        text += "\n";
    }
    return text;
}

std::string written(QTemporaryDir& dir, const std::string& text)
{
    const QString path = dir.filePath("play.txt");
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write(text.data(), static_cast<qint64>(text.size()));
    return path.toStdString();
}

} // namespace

class TestTextPieces : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void eachLinesPiecesThenItsEnd()
    {
        const auto model = SubwordModel::train({"the people speak", "the nobles spoke", "we are poor citizens"}, "bpe", 40);
        const std::string text = "the people\n\nwe spoke\n";
        const auto tokens = LanguageModelText::split(text, "pieces", &model);
        QCOMPARE(std::count(tokens.begin(), tokens.end(), std::string("\n")), 3L);
        QCOMPARE(tokens.back(), std::string("\n"));
        QCOMPARE(LanguageModelText::join(tokens, "pieces"), text);
        // Runs of spaces are where the text does not come back: one space between words, none at a line's ends.
        QCOMPARE(LanguageModelText::join(LanguageModelText::split("  we  are\npoor ", "pieces", &model), "pieces"), std::string("we are\npoor"));
        try {
            LanguageModelText::split(text, "pieces");
            QFAIL("pieces without their model");
        } catch (const std::invalid_argument& e) {
            QVERIFY(std::string(e.what()).rfind("lm_unit: pieces need", 0) == 0);
        }
    }

    void aTextFileAsPieces()
    {
        QTemporaryDir dir;
        const std::string text = playText();
        const auto data = TextCorpusReader::ownText(written(dir, text), "pieces", {"bpe", 120});
        QCOMPARE(data.unit, std::string("pieces"));
        QCOMPARE(data.subwordKind, std::string("bpe"));
        const auto model = SubwordModel::fromText(data.subwords, data.subwordKind, "dataset");
        // The vocabulary: every piece the model can give, and the line end.
        for (const auto& piece : model.pieces())
            QVERIFY2(std::binary_search(data.vocabulary.begin(), data.vocabulary.end(), piece), piece.c_str());
        QVERIFY(std::binary_search(data.vocabulary.begin(), data.vocabulary.end(), std::string("\n")));
        QVERIFY(data.vocabulary.size() < 200); // pieces, not characters of words (the text has single spaces)
        // The three splits one after the other are the text.
        std::vector<std::string> tokens;
        for (const auto* split : {&data.train, &data.dev, &data.test})
            for (auto id : *split)
                tokens.push_back(data.vocabulary[static_cast<std::size_t>(id)]);
        QCOMPARE(LanguageModelText::join(tokens, "pieces"), text.substr(0, text.size()));
        QVERIFY(data.train.size() > 8 * (data.dev.size() + data.test.size()));
        QVERIFY(!data.prompt.empty() && text.substr(0, text.find('\n')).rfind(data.prompt, 0) == 0); // the first line's start
        QVERIFY(std::any_of(data.notes.begin(), data.notes.end(), [](const std::string& n) { return n.find("SentencePiece bpe pieces") != std::string::npos; }));
    }

    // Trained through the trainer and read back by the generator: the pieces travel in the checkpoint. A prompt made
    // of letters the text has, in a word it never had, reads; a character the text never had is refused by name.
    void theCheckpointSplitsAPromptAsTrainingSplitTheText()
    {
        QTemporaryDir dir;
        RunStore store(dir.filePath("runs.sqlite").toStdString());
        TrainConfig config;
        config.dataset = "text-file";
        config.file = written(dir, playText());
        config.lmUnit = "pieces";
        config.subwords = "unigram";
        config.subwordVocabulary = 100;
        config.model.model = "ngram";
        config.model.position = "none";
        config.threads = 1;
        config.checkpointDir = dir.filePath("checkpoints").toStdString();
        StoreObserver observer(store);
        CancelToken cancel;
        const auto summary = Trainer(config).run(DatasetCatalog::loadAny(config.dataset, config.datasetOptions()), observer, cancel);
        QVERIFY2(summary.status == RunStatus::Completed, summary.message.c_str());
        const auto chosen = ModelExplainer::choose(store.checkpoints(observer.runId()), summary.bestStep);
        QVERIFY(chosen);
        const TextGenerator generator(*chosen);
        QCOMPARE(generator.unit(), std::string("pieces"));
        const auto tokens = generator.tokensOf("MINUTE:\nspeak");
        QCOMPARE(tokens[tokens.size() - 2], std::string("\n"));
        QVERIFY(std::find(tokens.begin(), tokens.end(), "\n") != tokens.end());
        SamplingSettings greedy;
        greedy.greedy = true;
        greedy.tokens = 30;
        const auto out = generator.generate("MINUTE:\n", greedy, 3, false);
        QCOMPARE(out.promptTokens.size(), generator.tokensOf("MINUTE:\n").size());
        QCOMPARE(out.steps.size(), std::size_t(30));
        std::vector<std::string> pieces;
        for (const auto& s : out.steps)
            pieces.push_back(s.token);
        QCOMPARE(out.text, LanguageModelText::join(pieces, "pieces"));
        QVERIFY(!out.text.empty());
        try {
            generator.generate("the Ωmega", greedy, 3, false);
            QFAIL("a character the text never had was read");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString::fromUtf8(e.what()).startsWith("prompt: piece '") && QString::fromUtf8(e.what()).contains("pieces"), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestTextPieces)
#include "test_text_pieces.moc"
