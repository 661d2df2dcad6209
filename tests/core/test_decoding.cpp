// The lab's one decoding loop (SequenceDecoder::write: translations, drawn or greedy, and a language model's text)
// on a source whose scores are set by hand, so every token it must choose, every row's end and every row that
// leaves is known in advance; a language model's beam search through the routine translations are searched with
// (beam 1 = greedy, each hypothesis = a forced pass over its own tokens, beam = exhaustive search); and
// TokenSampler's rules (top-k 1 = greedy, a seeded draw repeats, top-p's smallest set, temperature, the bounds).
#include "core/config/SamplingSettings.h"
#include "core/nn/models/ModelFactory.h"
#include "core/nn/models/NgramModel.h"
#include "core/nn/training/DecodingSource.h"
#include "core/nn/training/SequenceDecoder.h"
#include "core/nn/training/TextGeneration.h"
#include "core/nn/training/TokenSampler.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>

using namespace attnlab;

namespace {

constexpr std::int64_t kVocabulary = 6;

// Row r's scores at step t: token (r + t) % 5 + 1 scores 2, the others 0, except where `endAt` says row r's
// likeliest at step t is token 0 (scored 5). It records what it was given back and the rows it was told to keep.
class ScriptedSource : public DecodingSource {
public:
    ScriptedSource(std::int64_t rows, std::int64_t end, std::vector<std::pair<std::int64_t, int>> endAt = {})
        : end_(end), endAt_(std::move(endAt)), writing_(static_cast<std::size_t>(rows)), readBack(static_cast<std::size_t>(rows))
    {
        std::iota(writing_.begin(), writing_.end(), 0);
    }
    static torch::Tensor rowScores(std::int64_t row, int t, bool end)
    {
        auto s = torch::zeros({kVocabulary}, torch::kFloat);
        s[(row + t) % 5 + 1] = 2.0f;
        if (end)
            s[0] = 5.0f;
        return s;
    }
    bool endsAt(std::int64_t row, int t) const
    {
        return std::find(endAt_.begin(), endAt_.end(), std::make_pair(row, t)) != endAt_.end();
    }
    std::int64_t rows() const override { return static_cast<std::int64_t>(writing_.size()); }
    Step step(const Chosen& previous, int t) override
    {
        if (t == 0 && !previous.ids.empty())
            throw std::logic_error("step 0 reads no token");
        for (std::size_t a = 0; t > 0 && a < writing_.size(); ++a) {
            readBack[static_cast<std::size_t>(writing_[a])].push_back(previous.ids.at(a));
            if (previous.tokens[static_cast<std::int64_t>(a)].item<std::int64_t>() != previous.ids.at(a))
                throw std::logic_error("the chosen tokens on the device are not their ids");
        }
        std::vector<torch::Tensor> rows;
        for (auto r : writing_)
            rows.push_back(rowScores(r, t, endsAt(r, t)));
        return {torch::stack(rows), torch::Tensor(), 0};
    }
    void keep(const torch::Tensor& rows) override
    {
        std::vector<std::int64_t> kept, indices;
        for (std::int64_t i = 0; i < rows.size(0); ++i) {
            indices.push_back(rows[i].item<std::int64_t>());
            kept.push_back(writing_.at(static_cast<std::size_t>(indices.back())));
        }
        keeps.push_back(indices);
        writing_ = kept;
    }
    std::int64_t endToken() const override { return end_; }

    std::vector<std::vector<std::int64_t>> readBack; // per row, the tokens it was given to read
    std::vector<std::vector<std::int64_t>> keeps;    // each keep()'s indices

private:
    std::int64_t end_;
    std::vector<std::pair<std::int64_t, int>> endAt_;
    std::vector<std::int64_t> writing_;
};

// Nine tokens, a to i, for the language models below.
const std::vector<std::string> vocabulary{"a", "b", "c", "d", "e", "f", "g", "h", "i"};

// A small language model over the nine tokens: a GPT (learned positions), an LSTM or a trigram, untrained.
ModelConfig tinyLanguageModel(const std::string& name, int context)
{
    ModelConfig config;
    config.model = name;
    config.position = name == "gpt" ? "learned" : "none";
    config.dModel = 16;
    config.heads = 2;
    config.layers = 2;
    config.context = context;
    config.order = 3;
    config.cell = "lstm";
    config.vocabularySize = static_cast<int>(vocabulary.size());
    config.dropoutPoints = "none";
    return config;
}

// write's tokens per row, and the steps at which each row ended.
struct Written {
    std::vector<std::vector<std::int64_t>> tokens;
    std::vector<int> ended;
};

Written writeAll(ScriptedSource& source, const std::vector<int>& limits, std::vector<TokenSampler>* samplers = nullptr)
{
    Written out{std::vector<std::vector<std::int64_t>>(limits.size()), std::vector<int>(limits.size(), -1)};
    SequenceDecoder::write(source, limits, samplers, [&](const SequenceDecoder::WrittenStep& step) {
        QCOMPARE(step.chosen.size(), step.rows.size());
        QCOMPARE(step.tokens.size(0), static_cast<std::int64_t>(step.rows.size()));
        for (std::size_t a = 0; a < step.rows.size(); ++a) {
            const auto r = static_cast<std::size_t>(step.rows[a]);
            QCOMPARE(out.ended[r], -1); // a row that ended never writes again
            out.tokens[r].push_back(step.chosen[a]);
            if (step.ends[a])
                out.ended[r] = step.t;
        }
    });
    return out;
}

} // namespace

class TestDecoding : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theLoopEndsRowsAtTheEndTokenOrTheirLimit()
    {
        // Row 0: tokens 1 2 3 4, then its limit (4) forces the end token 0. Row 1: 2 3, then its scores say 0 at
        // step 2. Row 2: 3, then its limit (1) forces 0 though its scores say 4.
        ScriptedSource source(3, 0, {{1, 2}});
        const auto written = writeAll(source, {4, 4, 1});
        QCOMPARE(written.tokens[0], (std::vector<std::int64_t>{1, 2, 3, 4, 0}));
        QCOMPARE(written.tokens[1], (std::vector<std::int64_t>{2, 3, 0}));
        QCOMPARE(written.tokens[2], (std::vector<std::int64_t>{3, 0}));
        QCOMPARE(written.ended, (std::vector<int>{4, 2, 1}));
        // Each row read back every token it chose but its last; the rows that ended left: row 2 after step 1
        // (keep positions 0 and 1 of three), row 1 after step 2 (position 0 of the two).
        QCOMPARE(source.readBack[0], (std::vector<std::int64_t>{1, 2, 3, 4}));
        QCOMPARE(source.readBack[1], (std::vector<std::int64_t>{2, 3}));
        QCOMPARE(source.readBack[2], (std::vector<std::int64_t>{3}));
        QCOMPARE(source.keeps, (std::vector<std::vector<std::int64_t>>{{0, 1}, {0}}));
    }

    void withoutAnEndTokenARowWritesToItsLimit()
    {
        // A language model's writing: token 0 is the likeliest at steps 1 and 2 but ends nothing; limit 3 = 4 tokens.
        ScriptedSource source(1, -1, {{0, 1}, {0, 2}});
        const auto written = writeAll(source, {3});
        QCOMPARE(written.tokens[0], (std::vector<std::int64_t>{1, 0, 0, 4}));
        QCOMPARE(written.ended[0], 3);
        QCOMPARE(source.readBack[0], (std::vector<std::int64_t>{1, 0, 0}));
        QVERIFY(source.keeps.empty());
    }

    void eachRowDrawsFromItsOwnStream()
    {
        // Drawing at temperature 3 (every token likely): row r's tokens are its sampler's draws over its own scores,
        // the same as a sampler with its seed alone; rows with the same seed write the same.
        SamplingSettings hot;
        hot.temperature = 3.0;
        std::vector<TokenSampler> samplers;
        for (std::uint64_t seed : {11, 12, 11}) {
            hot.seed = seed;
            samplers.emplace_back(hot);
        }
        ScriptedSource source(3, -1);
        const auto written = writeAll(source, {29, 29, 29}, &samplers);
        for (std::int64_t r = 0; r < 3; ++r) {
            hot.seed = r == 1 ? 12 : 11;
            TokenSampler alone(hot);
            std::vector<std::int64_t> expected;
            for (int t = 0; t < 30; ++t)
                expected.push_back(alone.next(alone.distribution(ScriptedSource::rowScores(r, t, false).to(torch::kDouble))));
            QCOMPARE(written.tokens[static_cast<std::size_t>(r)], expected);
        }
        QVERIFY(written.tokens[0] != written.tokens[1]);
        QVERIFY(std::set<std::int64_t>(written.tokens[0].begin(), written.tokens[0].end()).size() > 2); // drawn, not the likeliest
    }

    void theLikeliestIsTheLowestIdAmongEquals()
    {
        // Scores that tie (token 5 with the scripted one): the lowest id, as TokenSampler's greedy rule takes it.
        struct Tied : ScriptedSource {
            Tied() : ScriptedSource(1, -1) {}
            Step step(const Chosen& previous, int t) override
            {
                auto s = ScriptedSource::step(previous, t);
                s.scores[0][5] = 2.0f; // token 5 ties with the scripted one
                return s;
            }
        } source;
        const auto written = writeAll(source, {4});
        QCOMPARE(written.tokens[0], (std::vector<std::int64_t>{1, 2, 3, 4, 5}));
    }

    void aLanguageModelsBeamSearch()
    {
        torch::manual_seed(8);
        for (const std::string name : {"gpt", "char-rnn", "ngram"}) {
            auto model = ModelFactory::createLanguageModel(tinyLanguageModel(name, 32));
            if (auto* counts = dynamic_cast<NgramModel*>(model.get()))
                counts->estimate({0, 1, 2, 3, 4, 5, 6, 7, 8, 1, 3, 5, 7, 2, 4, 6, 8, 0, 3, 1, 4});
            model->eval();
            TextGeneration::Request request;
            request.prompt = {3, 1, 4};
            request.sampling.tokens = 20;
            const QByteArray whatText = QString::fromStdString(name).toUtf8();
            const char* what = whatText.constData();
            // Beam 1 is greedy.
            request.sampling.greedy = true;
            const auto greedy = TextGeneration::generate(*model, request, vocabulary, "characters", torch::kCPU);
            const auto one = TextGeneration::beamSearch(*model, request, 1, vocabulary, "characters", torch::kCPU);
            QVERIFY2(one.size() == 1 && one.front().text == greedy.text, what);
            // Beam 4: four different texts, best first, each token's probability and attention those of a forced
            // pass over the prompt and its own tokens.
            const auto four = TextGeneration::beamSearch(*model, request, 4, vocabulary, "characters", torch::kCPU);
            QCOMPARE(four.size(), std::size_t(4));
            std::set<std::string> texts;
            for (std::size_t h = 0; h < four.size(); ++h) {
                texts.insert(four[h].text);
                if (h > 0)
                    QVERIFY2(four[h].logProbability <= four[h - 1].logProbability, what);
                std::vector<std::int64_t> ids(request.prompt.begin(), request.prompt.end());
                for (const auto& step : four[h].steps)
                    ids.push_back(step.id);
                torch::NoGradGuard noGrad;
                std::vector<torch::Tensor> maps;
                const auto input = torch::tensor(ids, torch::kLong).narrow(0, 0, static_cast<std::int64_t>(ids.size()) - 1).unsqueeze(0);
                const auto logp = torch::log_softmax(model->forward(input, &maps)[0], -1); // [T, V]
                double sum = 0.0;
                for (std::size_t u = 0; u < four[h].steps.size(); ++u) {
                    const auto& step = four[h].steps[u];
                    const int64_t at = 2 + static_cast<int64_t>(u); // the position whose next token it is
                    const double forced = logp[at][step.id].item<double>();
                    sum += forced;
                    QVERIFY2(std::abs(std::log(step.probability) - forced) < 1e-4, what);
                    QCOMPARE(step.alternatives.size(), std::size_t(5));
                    QVERIFY2(std::abs(step.alternatives.front().probability - std::exp(logp[at].max().item<double>())) < 1e-5, what);
                    for (std::size_t l = 0; l < maps.size(); ++l)
                        for (int64_t head = 0; head < 2; ++head) {
                            const auto& row = step.attention.at(static_cast<std::size_t>(static_cast<int64_t>(l) * 2 + head));
                            QCOMPARE(static_cast<int64_t>(row.size()), at + 1);
                            for (int64_t j = 0; j <= at; ++j)
                                QVERIFY2(std::abs(row[static_cast<std::size_t>(j)] - maps[l][0][head][at][j].item<float>()) < 1e-5, what);
                        }
                }
                QVERIFY2(std::abs(sum - four[h].logProbability) < 1e-3, what);
            }
            QCOMPARE(texts.size(), std::size_t(4));
            // Two tokens with a beam of 9 (the vocabulary): the nine likeliest of all 81 texts, in order.
            request.sampling.tokens = 2;
            const auto nine = TextGeneration::beamSearch(*model, request, 9, vocabulary, "characters", torch::kCPU);
            std::vector<std::pair<double, std::string>> all;
            for (std::int64_t x = 0; x < 9; ++x)
                for (std::int64_t y = 0; y < 9; ++y) {
                    torch::NoGradGuard noGrad;
                    const auto logp = torch::log_softmax(model->forward(torch::tensor({{3, 1, 4, static_cast<int>(x)}}, torch::kLong))[0], -1);
                    all.push_back({logp[2][x].item<double>() + logp[3][y].item<double>(), vocabulary[x] + vocabulary[y]});
                }
            std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
            QCOMPARE(nine.size(), std::size_t(9));
            std::map<std::string, double> scoreOf;
            for (const auto& [score, text] : all)
                scoreOf[text] = score;
            for (std::size_t i = 0; i < 9; ++i) { // the i-th best score, by a text that scores it (a count model has ties)
                QVERIFY2(std::abs(nine[i].logProbability - all[i].first) < 1e-4, what);
                QVERIFY2(std::abs(scoreOf.at(nine[i].text) - all[i].first) < 1e-4, qPrintable(QString::fromStdString(name + " " + nine[i].text)));
            }
        }
    }

    void aBeamThroughASlidingWindowIsGreedyAtOne()
    {
        // A GPT of context 8 writing 30 tokens: its window is read again as it slides; beam 1 still equals greedy.
        torch::manual_seed(9);
        auto model = ModelFactory::createLanguageModel(tinyLanguageModel("gpt", 8));
        TextGeneration::Request request;
        request.prompt = {3, 1, 4};
        request.sampling.tokens = 30;
        request.sampling.greedy = true;
        const auto greedy = TextGeneration::generate(*model, request, vocabulary, "characters", torch::kCPU);
        const auto beam = TextGeneration::beamSearch(*model, request, 1, vocabulary, "characters", torch::kCPU);
        QCOMPARE(beam.front().text, greedy.text);
        for (std::size_t u = 0; u < greedy.steps.size(); ++u) {
            QCOMPARE(beam.front().steps[u].contextStart, greedy.steps[u].contextStart);
            QCOMPARE(beam.front().steps[u].attention.front().size(), greedy.steps[u].attention.front().size());
        }
        const auto three = TextGeneration::beamSearch(*model, request, 3, vocabulary, "characters", torch::kCPU);
        QCOMPARE(three.size(), std::size_t(3));
        QVERIFY(three.front().logProbability >= beam.front().logProbability - 1e-6); // a wider beam finds one as likely
    }

    void samplingRules()
    {
        const auto logits = torch::tensor({1.0, 3.0, 2.0, 3.0, -1.0}, torch::kDouble);
        // top-k 1 is greedy: the likeliest (the lowest id of the two equal ones).
        SamplingSettings s;
        s.topK = 1;
        s.seed = 9;
        TokenSampler topOne(s);
        SamplingSettings g;
        g.greedy = true;
        TokenSampler greedy(g);
        for (int i = 0; i < 20; ++i)
            QCOMPARE(topOne.next(topOne.distribution(logits)), greedy.next(greedy.distribution(logits)));
        QCOMPARE(greedy.next(greedy.distribution(logits)), std::int64_t(1));
        // top-p keeps the smallest set of the likeliest whose mass reaches p: softmax = e^1, e^3, e^2, e^3, e^-1 over Z.
        std::vector<double> p;
        double z = 0;
        for (double x : {1.0, 3.0, 2.0, 3.0, -1.0})
            z += std::exp(x);
        for (double x : {1.0, 3.0, 2.0, 3.0, -1.0})
            p.push_back(std::exp(x) / z);
        SamplingSettings nucleus;
        nucleus.topP = p[1] + p[3] - 1e-9; // the two likeliest reach it together, not alone
        auto d = TokenSampler(nucleus).distribution(logits);
        QVERIFY(std::abs(d[1] - 0.5) < 1e-12 && std::abs(d[3] - 0.5) < 1e-12 && d[0] == 0 && d[2] == 0 && d[4] == 0);
        nucleus.topP = p[1] + p[3] + 0.01; // a little more: the third likeliest joins
        d = TokenSampler(nucleus).distribution(logits);
        QVERIFY(d[2] > 0 && d[0] == 0 && std::abs(d[2] - p[2] / (p[1] + p[2] + p[3])) < 1e-12);
        // Temperature divides the logits.
        SamplingSettings hot;
        hot.temperature = 2.0;
        d = TokenSampler(hot).distribution(logits);
        QVERIFY(std::abs(d[1] / d[0] - std::exp(1.0)) < 1e-12);
        // A seed repeats its draws; another seed draws otherwise.
        SamplingSettings seeded;
        seeded.seed = 42;
        TokenSampler a(seeded), b(seeded);
        seeded.seed = 43;
        TokenSampler c(seeded);
        std::vector<std::int64_t> drawsA, drawsB, drawsC;
        const auto flat = TokenSampler(SamplingSettings{}).distribution(logits);
        for (int i = 0; i < 50; ++i) {
            drawsA.push_back(a.next(flat));
            drawsB.push_back(b.next(flat));
            drawsC.push_back(c.next(flat));
        }
        QCOMPARE(drawsA, drawsB);
        QVERIFY(drawsA != drawsC);
        // The bounds, each named.
        for (const auto& [bad, key] : std::vector<std::pair<SamplingSettings, std::string>>{
                 {[] { SamplingSettings x; x.temperature = 0; return x; }(), "temperature"},
                 {[] { SamplingSettings x; x.temperature = std::nan(""); return x; }(), "temperature"},
                 {[] { SamplingSettings x; x.temperature = INFINITY; return x; }(), "temperature"},
                 {[] { SamplingSettings x; x.topK = -1; return x; }(), "top_k"},
                 {[] { SamplingSettings x; x.topP = 0; return x; }(), "top_p"},
                 {[] { SamplingSettings x; x.topP = 1.5; return x; }(), "top_p"},
                 {[] { SamplingSettings x; x.tokens = SamplingSettings::kMaxTokens + 1; return x; }(), "tokens"}})
            QVERIFY2(bad.problem().rfind(key + ":", 0) == 0, bad.problem().c_str());
    }

};

QTEST_GUILESS_MAIN(TestDecoding)
#include "test_decoding.moc"
