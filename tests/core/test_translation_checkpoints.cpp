// Translation checkpoints written before the Transformer's layers became TransformerBlocks still load and translate
// as they did. The files in tests/core/fixtures/checkpoints/ were trained and saved by that earlier version, and
// its `attnlab-cli translate --json` wrote what they gave (README.md there says how): the same checkpoint opened
// now must give the same words, probabilities, scores and every attention map.
#include "core/data/install/Sha256.h"
#include "core/nn/models/ModelFactory.h"
#include "core/nn/training/ModelCheckpoint.h"
#include "core/training/Translator.h"

#include <QtTest/QtTest>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

using namespace attnlab;
using json = nlohmann::json;

namespace {

std::string fixture(const std::string& name)
{
    return std::string(ATTNLAB_SOURCE_DIR) + "/tests/core/fixtures/checkpoints/" + name;
}

CheckpointRef checkpoint(const std::string& model)
{
    const auto path = fixture(model + "-before-shared-layers.pt");
    return {800, path, Sha256::ofFile(path)};
}

std::vector<json> expected(const std::string& model)
{
    std::ifstream in(fixture(model + "-before-shared-layers.jsonl"), std::ios::binary);
    std::vector<json> lines;
    for (std::string line; std::getline(in, line);)
        lines.push_back(json::parse(line));
    return lines;
}

// Every key the earlier translation had, equal now: numbers within 1e-5 (the step's products may round in another
// order), everything else exactly. The CLI's own keys (run, step, weights) are compared apart.
void expectSame(const json& now, const json& before, const std::string& where, int& numbers, bool top = false)
{
    if (before.is_object()) {
        for (auto it = before.begin(); it != before.end(); ++it) {
            if (top && (it.key() == "run_id" || it.key() == "step" || it.key() == "weights"))
                continue;
            QVERIFY2(now.contains(it.key()), (where + "." + it.key() + " is gone").c_str());
            expectSame(now[it.key()], it.value(), where + "." + it.key(), numbers);
        }
        QCOMPARE(now.size(), before.size() - (top ? 3 : 0));
    } else if (before.is_array()) {
        QVERIFY2(now.is_array() && now.size() == before.size(), (where + ": another length").c_str());
        for (std::size_t i = 0; i < before.size(); ++i)
            expectSame(now[i], before[i], where + "[" + std::to_string(i) + "]", numbers);
    } else if (before.is_number_float()) {
        QVERIFY2(now.is_number() && std::abs(now.get<double>() - before.get<double>()) < 1e-5,
                 (where + ": " + now.dump() + " now, " + before.dump() + " before").c_str());
        ++numbers;
    } else {
        QVERIFY2(now == before, (where + ": " + now.dump() + " now, " + before.dump() + " before").c_str());
    }
}

} // namespace

class TranslationCheckpointTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Greedy with each step's alternatives, a beam of 3 with its hypotheses, and a forced target, on the Transformer
    // encoder-decoder (RPR, pre-LN, 2 + 2 layers) and the BiGRU-Transformer: as the earlier version gave them.
    void anEarlierCheckpointTranslatesAsBefore()
    {
        for (const std::string model : {"transformer-seq2seq", "birnn-transformer"}) {
            const Translator translator(checkpoint(model));
            QCOMPARE(translator.step(), 800);
            QCOMPARE(QString::fromStdString(translator.config().model.model), QString::fromStdString(model));
            const auto before = expected(model);
            QCOMPARE(before.size(), std::size_t(3));
            Translator::Decoding greedy;
            greedy.alternatives = 3;
            Translator::Decoding beam;
            beam.beamSize = 3;
            const std::vector<json> now = {json::parse(translator.translate("ant bee cat dog eel", greedy).toJson()),
                                           json::parse(translator.translate("owl cat yak bee fox dog hen", beam).toJson()),
                                           json::parse(translator.force("ant bee cat", "cat bee ant").toJson())};
            int numbers = 0;
            for (std::size_t i = 0; i < now.size(); ++i) {
                QCOMPARE(QString::fromStdString(before[i]["weights"].get<std::string>()), QString::fromStdString(translator.weights()));
                expectSame(now[i], before[i], model + " case " + std::to_string(i + 1), numbers, /*top=*/true);
            }
            QVERIFY(numbers > 500); // attention maps, not only a few probabilities
            qInfo("%s: %d numbers as before; greedy \"%s\", beam \"%s\"", model.c_str(), numbers, now[0]["translation"].get<std::string>().c_str(),
                  now[1]["translation"].get<std::string>().c_str());
        }
    }

    // The earlier checkpoint into a model of other settings: refused with the missing weight named, nothing loaded.
    void anEarlierCheckpointOfOtherSettingsIsRefused()
    {
        const auto ref = checkpoint("transformer-seq2seq");
        auto settings = Translator(ref).config().model; // its sizes filled in from the file
        settings.layers = 3;
        auto model = ModelFactory::createTranslator(settings);
        auto opened = ModelCheckpoint::open(ref);
        try {
            ModelCheckpoint::loadInto(*model, opened, ref, "transformer-seq2seq");
            QFAIL("a 3-layer model took a 2-layer checkpoint");
        } catch (const std::runtime_error& e) {
            const QString what = QString::fromUtf8(e.what());
            QVERIFY2(what.contains("do not fit") && what.contains("encoder_layer2"), qPrintable(what));
        }
    }
};

QTEST_GUILESS_MAIN(TranslationCheckpointTest)
#include "test_translation_checkpoints.moc"
