// the translation metrics. BLEU, chrF and the 13a tokenizer against sacreBLEU's own numbers on 255
// invented pairs (tests/core/fixtures/translation/bleu_chrf.json, made by make_bleu_fixtures.py beside it:
// scores to 1e-9, counts, lengths, tokens and signatures exactly), then BLEU, chrF and AER worked out by hand
// (the numbers in the comments) and argmax links read off a small attention matrix.
#include "core/analysis/TokenGrouping.h"
#include "core/results/AlignmentErrorRate.h"
#include "core/results/AttentionAverage.h"
#include "core/results/BleuByLength.h"
#include "core/results/BleuScore.h"
#include "core/results/ChrfScore.h"
#include "core/results/Tokenizer13a.h"

#include <QtTest/QtTest>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

using namespace attnlab;
using nlohmann::json;

namespace {

const json& fixture()
{
    static const json data = [] {
        std::ifstream in(std::string(ATTNLAB_SOURCE_DIR) + "/tests/core/fixtures/translation/bleu_chrf.json", std::ios::binary);
        std::stringstream s;
        s << in.rdbuf();
        return json::parse(s.str()); // throws (and the test fails) when the file is missing or broken
    }();
    return data;
}

// Every mismatch of a comparison over many cases, so that one run names them all.
struct Mismatches {
    std::vector<std::string> lines;
    void near(double actual, double expected, const std::string& what)
    {
        if (!(std::abs(actual - expected) <= 1e-9))
            lines.push_back(what + ": " + std::to_string(actual) + " != " + std::to_string(expected));
    }
    template <typename T>
    void equal(const T& actual, const T& expected, const std::string& what)
    {
        if (!(actual == expected))
            lines.push_back(what + " differs");
    }
    void text(const std::string& actual, const std::string& expected, const std::string& what)
    {
        if (actual != expected)
            lines.push_back(what + ": '" + actual + "' != '" + expected + "'");
    }
    QByteArray report() const
    {
        std::string all = std::to_string(lines.size()) + " mismatches";
        for (std::size_t i = 0; i < lines.size() && i < 20; ++i)
            all += "\n  " + lines[i];
        return QByteArray::fromStdString(all);
    }
};

struct Corpus {
    std::vector<std::string> hypotheses;
    std::vector<std::string> firstReferences;
    std::vector<std::vector<std::string>> allReferences;
};

Corpus corpusOf(const json& data, const std::string& subset)
{
    Corpus c;
    for (const auto& index : data.at("subsets").at(subset)) {
        const json& pair = data.at("pairs").at(index.get<std::size_t>());
        c.hypotheses.push_back(pair.at("hyp").get<std::string>());
        const auto refs = pair.at("refs").get<std::vector<std::string>>();
        c.firstReferences.push_back(refs.front());
        c.allReferences.push_back(refs);
    }
    return c;
}

std::vector<AlignmentLink> links(std::initializer_list<std::pair<int, int>> sourceTarget)
{
    std::vector<AlignmentLink> out;
    for (const auto& [s, t] : sourceTarget)
        out.push_back({s, t});
    return out;
}

} // namespace

class TestTranslationMetrics : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A subword run's alignment over words: SentencePiece's "▁" starts a word, <eos> stays apart;
    // attention to a word is the sum over its pieces, from a word the mean of its pieces' rows.
    void sentencePiecesMergeIntoWords()
    {
        std::vector<std::string> words;
        int count = 0;
        const auto source = TokenGrouping::forSentencePieces({"\xe2\x96\x81" "ein", "\xe2\x96\x81" "Hund", "e", "\xe2\x96\x81" "l\xc3\xa4" "uft"}, &words, &count);
        QCOMPARE(source, (std::vector<int>{0, 1, 1, 2}));
        QCOMPARE(words, (std::vector<std::string>{"ein", "Hunde", "l\xc3\xa4" "uft"}));
        const auto target = TokenGrouping::forSentencePieces({"\xe2\x96\x81" "do", "gs", "<eos>"}, &words, &count);
        QCOMPARE(target, (std::vector<int>{0, 0, 1}));
        QCOMPARE(words, (std::vector<std::string>{"dogs", "<eos>"}));
        AttentionMap cross; // 3 target pieces x 4 source pieces, rows summing to 1
        cross.size = 3;
        cross.columns = 4;
        cross.weights = {0.1f, 0.5f, 0.3f, 0.1f, 0.3f, 0.3f, 0.2f, 0.2f, 0.0f, 0.0f, 0.0f, 1.0f};
        const auto merged = TokenGrouping::apply(cross, target, 2, source, 3);
        QCOMPARE(merged.size, 2);
        QCOMPARE(merged.width(), 3);
        const std::vector<float> expected = {0.2f, 0.65f, 0.15f, 0.0f, 0.0f, 1.0f}; // "dogs": mean of its two rows
        for (std::size_t i = 0; i < expected.size(); ++i)
            QVERIFY2(std::abs(merged.weights[i] - expected[i]) < 1e-6f, std::to_string(i).c_str());
        QVERIFY_EXCEPTION_THROWN(TokenGrouping::apply(cross, source, 3, target, 2), std::invalid_argument);
    }

    // The alignment read from several heads: the last layer's maps averaged, an earlier layer's left out.
    void theAlignmentIsTheLastLayersMeanOverHeads()
    {
        const auto map = [](int layer, int head, std::vector<float> w) {
            AttentionMap m;
            m.layer = layer;
            m.head = head;
            m.size = 1;
            m.columns = 2;
            m.weights = std::move(w);
            return m;
        };
        const auto mean = AttentionAverage::ofLastLayer({map(0, 0, {1.0f, 0.0f}), map(1, 0, {0.2f, 0.8f}), map(1, 1, {0.6f, 0.4f})});
        QCOMPARE(mean.layer, 1);
        QCOMPARE(mean.width(), 2);
        QVERIFY(std::abs(mean.weights[0] - 0.4f) < 1e-7f && std::abs(mean.weights[1] - 0.6f) < 1e-7f);
        QCOMPARE(AttentionAverage::ofLastLayer({}).size, 0);
    }

    void fixtureIsTheVersionTheSignaturesName()
    {
        QCOMPARE(QString::fromStdString(fixture().at("sacrebleu_version").get<std::string>()),
                 QString::fromStdString(BleuScore::sacrebleuVersion()));
        QVERIFY(fixture().at("pairs").size() >= 200);
    }

    void tokenizer13aMatchesSacrebleu()
    {
        Mismatches m;
        for (const auto& c : fixture().at("tokenize_13a"))
            m.text(Tokenizer13a::tokenize(c.at("input").get<std::string>()), c.at("output").get<std::string>(),
                   "13a of '" + c.at("input").get<std::string>() + "'");
        for (const auto& p : fixture().at("pairs"))
            m.text(Tokenizer13a()(p.at("hyp").get<std::string>()), p.at("hyp_13a").get<std::string>(), "13a of a hypothesis");
        QVERIFY2(m.lines.empty(), m.report().constData());
        // Two rules by hand: a period splits off unless a digit follows it (and one precedes it); a dash only
        // after a digit.
        QCOMPARE(Tokenizer13a::tokenize("It costs 1,250.50 euros."), std::string("It costs 1,250.50 euros ."));
        QCOMPARE(Tokenizer13a::tokenize("a well-known 3-2 win"), std::string("a well-known 3 - 2 win"));
        QCOMPARE(Tokenizer13a::tokenize("x &amp;lt; y"), std::string("x < y")); // the entities one after another
    }

    void lowercaseIsPythons()
    {
        Mismatches m;
        for (const auto& c : fixture().at("lowercase")) {
            const auto input = c.at("input").get<std::string>();
            m.text(Tokenizer13a::encodeUtf8(Tokenizer13a::lower(Tokenizer13a::decodeUtf8(input))),
                   c.at("output").get<std::string>(), "lower of '" + input + "'");
        }
        QVERIFY2(m.lines.empty(), m.report().constData());
        // Final sigma needs the whole word: "ΟΔΟΣ" -> "οδος" ending in ς (U+03C2), "Σ" alone stays σ.
        QCOMPARE(Tokenizer13a::lower(U"ΟΔΟΣ Σ"), std::u32string(U"οδος σ"));
        QCOMPARE(Tokenizer13a::lower(U"İ").size(), std::size_t(2)); // i + combining dot above
    }

    void utf8RoundTripsAndBadBytesBecomeReplacementCharacters()
    {
        const std::string text = "Grüße 東京 👩‍💻";
        QCOMPARE(Tokenizer13a::encodeUtf8(Tokenizer13a::decodeUtf8(text)), text);
        QCOMPARE(Tokenizer13a::decodeUtf8(text).size(), std::size_t(12)); // code points, as Python's len()
        QCOMPARE(Tokenizer13a::decodeUtf8(std::string("a\xC3", 2)), std::u32string(U"a\uFFFD"));       // cut short
        QCOMPARE(Tokenizer13a::decodeUtf8(std::string("\xC0\xAF", 2)), std::u32string(U"\uFFFD\uFFFD")); // overlong
        QCOMPARE(Tokenizer13a::decodeUtf8(std::string("\xED\xA0\x80", 3)).front(), U'\uFFFD');            // surrogate
    }

    void corpusBleuMatchesSacrebleu()
    {
        Mismatches m;
        const json& data = fixture();
        for (const auto& c : data.at("bleu")) {
            const auto& o = c.at("options");
            BleuOptions options;
            options.lowercase = o.at("lowercase").get<bool>();
            options.tokenize = o.at("tokenize").get<std::string>();
            options.smoothMethod = o.at("smooth_method").get<std::string>();
            options.smoothValue = o.at("smooth_value").get<double>();
            options.effectiveOrder = o.at("effective_order").get<bool>();
            const Corpus corpus = corpusOf(data, c.at("subset").get<std::string>());
            const BleuScore bleu(options);
            const BleuResult r = c.at("refs") == "first" ? bleu.corpusScore(corpus.hypotheses, corpus.firstReferences)
                                                         : bleu.corpusScoreMultiRef(corpus.hypotheses, corpus.allReferences);
            const std::string what = "BLEU " + c.at("subset").get<std::string>() + " " + c.at("signature").get<std::string>();
            m.near(r.score, c.at("score").get<double>(), what + " score");
            const auto precisions = c.at("precisions").get<std::vector<double>>();
            for (std::size_t n = 0; n < precisions.size() && n < r.precisions.size(); ++n)
                m.near(r.precisions[n], precisions[n], what + " p" + std::to_string(n + 1));
            m.equal(r.precisions.size(), precisions.size(), what + " orders");
            m.near(r.bp, c.at("bp").get<double>(), what + " BP");
            m.near(r.ratio, c.at("ratio").get<double>(), what + " ratio");
            m.equal(r.counts, c.at("counts").get<std::vector<std::int64_t>>(), what + " counts");
            m.equal(r.totals, c.at("totals").get<std::vector<std::int64_t>>(), what + " totals");
            m.equal(r.hypLen, c.at("sys_len").get<std::int64_t>(), what + " sys_len");
            m.equal(r.refLen, c.at("ref_len").get<std::int64_t>(), what + " ref_len");
            m.text(r.signature, c.at("signature").get<std::string>(), what + " signature");
            m.text(r.format(), c.at("format").get<std::string>(), what + " format");
            m.text(r.format(true), c.at("format_signature").get<std::string>(), what + " format with signature");
        }
        QVERIFY2(m.lines.empty(), m.report().constData());
        QVERIFY(data.at("bleu").size() >= 50);
    }

    void corpusChrfMatchesSacrebleu()
    {
        Mismatches m;
        const json& data = fixture();
        for (const auto& c : data.at("chrf")) {
            const auto& o = c.at("options");
            ChrfOptions options;
            options.charOrder = o.at("char_order").get<int>();
            options.wordOrder = o.at("word_order").get<int>();
            options.beta = o.at("beta").get<int>();
            options.lowercase = o.at("lowercase").get<bool>();
            options.whitespace = o.at("whitespace").get<bool>();
            options.epsSmoothing = o.at("eps_smoothing").get<bool>();
            const Corpus corpus = corpusOf(data, c.at("subset").get<std::string>());
            const ChrfScore chrf(options);
            const ChrfResult r = c.at("refs") == "first" ? chrf.corpusScore(corpus.hypotheses, corpus.firstReferences)
                                                         : chrf.corpusScoreMultiRef(corpus.hypotheses, corpus.allReferences);
            const std::string what = "chrF " + c.at("subset").get<std::string>() + " " + c.at("signature").get<std::string>();
            m.near(r.score, c.at("score").get<double>(), what + " score");
            m.text(r.name, c.at("metric_name").get<std::string>(), what + " name");
            m.text(r.signature, c.at("signature").get<std::string>(), what + " signature");
            m.text(r.format(), c.at("format").get<std::string>(), what + " format");
            m.text(r.format(true), c.at("format_signature").get<std::string>(), what + " format with signature");
        }
        QVERIFY2(m.lines.empty(), m.report().constData());
        QVERIFY(data.at("chrf").size() >= 30);
    }

    void sentenceScoresMatchSacrebleu()
    {
        // sacrebleu.sentence_bleu's settings: effective order on; chrF's defaults.
        BleuOptions sentenceOptions;
        sentenceOptions.effectiveOrder = true;
        const BleuScore bleu(sentenceOptions);
        const ChrfScore chrf;
        Mismatches m;
        int i = 0;
        for (const auto& p : fixture().at("pairs")) {
            const auto refs = p.at("refs").get<std::vector<std::string>>();
            const BleuResult b = bleu.sentenceScore(p.at("hyp").get<std::string>(), refs);
            const std::string what = "pair " + std::to_string(i++);
            m.near(b.score, p.at("sentence_bleu").at(0).get<double>(), what + " sentence BLEU");
            m.equal(b.hypLen, p.at("sentence_bleu").at(1).get<std::int64_t>(), what + " sys_len");
            m.equal(b.refLen, p.at("sentence_bleu").at(2).get<std::int64_t>(), what + " ref_len");
            m.near(chrf.sentenceScore(p.at("hyp").get<std::string>(), refs).score, p.at("sentence_chrf").get<double>(),
                   what + " sentence chrF");
        }
        QVERIFY2(m.lines.empty(), m.report().constData());
    }

    void bleuByHand()
    {
        // Segment 1: "the cat sat on the mat" against "the cat sat on a mat" (6 words each)
        //   1-grams 5/6 ("the" twice, once in the reference), 2-grams 3/5, 3-grams 2/4, 4-grams 1/3.
        // Segment 2: "a dog barked" against "the dog barked loudly": 1-grams 2/3, 2-grams 1/2, 3-grams 0/1, 4-grams 0/0.
        // Corpus: matches 7, 4, 2, 1 of 9, 7, 5, 3; c = 9, r = 10.
        //   BP = exp(1 - 10/9) = 0.8948; BLEU = 100 * BP * (7/9 * 4/7 * 2/5 * 1/3)^(1/4) = 100 * BP * (8/135)^(1/4) = 44.15
        const BleuScore bleu;
        const BleuResult r = bleu.corpusScore({"the cat sat on the mat", "a dog barked"},
                                              {"the cat sat on a mat", "the dog barked loudly"});
        QCOMPARE(r.counts, (std::vector<std::int64_t>{7, 4, 2, 1}));
        QCOMPARE(r.totals, (std::vector<std::int64_t>{9, 7, 5, 3}));
        QCOMPARE(r.hypLen, std::int64_t(9));
        QCOMPARE(r.refLen, std::int64_t(10));
        QVERIFY(std::abs(r.bp - std::exp(-1.0 / 9.0)) < 1e-12);
        QVERIFY(std::abs(r.precisions[0] - 700.0 / 9.0) < 1e-12);
        QVERIFY(std::abs(r.score - 100.0 * std::exp(-1.0 / 9.0) * std::pow(8.0 / 135.0, 0.25)) < 1e-9);
        QVERIFY(std::abs(r.score - 44.150) < 1e-3);
        QCOMPARE(QString::fromStdString(r.signature),
                 QString("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:%1").arg(QString::fromStdString(BleuScore::sacrebleuVersion())));

        // Segment 2 alone has no 3-gram match and no 4-gram: corpus BLEU is 0 (log of the missing order floored);
        // with effective order, N = 3 and "exp" smoothing gives p3 = 100 / (2 * 1) = 50:
        //   100 * exp(1 - 4/3) * (2/3 * 1/2 * 1/2)^(1/3) = 100 * 0.7165 * 0.5503 = 39.43.
        QCOMPARE(bleu.sentenceScore("a dog barked", {"the dog barked loudly"}).score, 0.0);
        BleuOptions effective;
        effective.effectiveOrder = true;
        const BleuResult s = BleuScore(effective).sentenceScore("a dog barked", {"the dog barked loudly"});
        QVERIFY(std::abs(s.precisions[2] - 50.0) < 1e-12);
        QVERIFY(std::abs(s.score - 100.0 * std::exp(-1.0 / 3.0) * std::cbrt(1.0 / 6.0)) < 1e-9);

        // Two references: matches clipped by the larger count in either, length the closest (the shorter on a tie).
        const BleuResult two = bleu.sentenceScore("the the the the", {"the cat", "the the mat is here"});
        QCOMPARE(two.counts.front(), std::int64_t(2));
        QCOMPARE(two.refLen, std::int64_t(5)); // |4 - 2| = 2 > |4 - 5| = 1
        QCOMPARE(bleu.sentenceScore("a b c", {"a b", "a b c d"}).refLen, std::int64_t(2)); // 1 = 1: the shorter
        // Perfect: 100; empty hypothesis: 0 with BP 0.
        QVERIFY(std::abs(bleu.sentenceScore("the cat sat on the mat", {"the cat sat on the mat"}).score - 100.0) < 1e-9);
        const BleuResult empty = bleu.corpusScore({""}, {"a cat"});
        QCOMPARE(empty.score, 0.0);
        QCOMPARE(empty.bp, 0.0);
        // Lowercase and "none" change what matches: "The" vs "the", "mat." vs "mat".
        BleuOptions lc;
        lc.lowercase = true;
        QCOMPARE(BleuScore(lc).sentenceScore("The Mat", {"the mat"}).counts.front(), std::int64_t(2));
        BleuOptions none;
        none.tokenize = "none";
        QCOMPARE(BleuScore(none).sentenceScore("a mat.", {"a mat ."}).counts.front(), std::int64_t(1));
        QCOMPARE(bleu.sentenceScore("a mat.", {"a mat ."}).counts.front(), std::int64_t(3));
    }

    void chrfByHand()
    {
        // "ab c" against "a bcd", white space removed: "abc" vs "abcd".
        //   1-grams: 3 hyp, 4 ref, 3 matches (P 1, R 3/4); 2-grams: 2, 3, 2 (P 1, R 2/3);
        //   3-grams: 1, 2, 1 (P 1, R 1/2); 4-grams: 0 hyp, 1 ref -> outside the effective order; 5, 6: none.
        //   P = 1, R = (3/4 + 2/3 + 1/2) / 3 = 23/36; chrF2 = 100 * 5 P R / (4 P + R) = 100 * 115/167 = 68.86.
        const ChrfScore chrf;
        const ChrfStatistics s = chrf.segmentStatistics("ab c", {"a bcd"});
        QCOMPARE(s.counts, (std::vector<std::int64_t>{3, 4, 3, 2, 3, 2, 1, 2, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0}));
        QVERIFY(std::abs(chrf.sentenceScore("ab c", {"a bcd"}).score - 100.0 * 115.0 / 167.0) < 1e-9);
        QCOMPARE(QString::fromStdString(chrf.sentenceScore("ab c", {"a bcd"}).format()), QString("chrF2 = 68.86"));
        // Corpus chrF sums the statistics, it is not the mean of sentence scores: "abc"/"abcd" and a perfect
        // "xy"/"xy" sum to 1-grams 5/6/5, 2-grams 3/4/3, 3-grams 1/2/1: R = (5/6 + 3/4 + 1/2) / 3 = 25/36,
        // chrF2 = 100 * 5 * 25/36 / (4 + 25/36) = 100 * 125/169 = 73.96 (the sentences' mean would be 84.43).
        QVERIFY(std::abs(chrf.corpusScore({"ab c", "xy"}, {"a bcd", "xy"}).score - 100.0 * 125.0 / 169.0) < 1e-9);
        // Several references: the one with the better F-score counts.
        QVERIFY(std::abs(chrf.sentenceScore("ab c", {"zzz", "a bcd"}).score - 100.0 * 115.0 / 167.0) < 1e-9);
        QCOMPARE(chrf.corpusScore({""}, {"abc"}).score, 0.0);
        // chrF++ adds word 1- and 2-grams, with a trailing punctuation mark split off: "cat." -> "cat" ".".
        ChrfOptions plus;
        plus.wordOrder = 2;
        const ChrfScore chrfpp(plus);
        QCOMPARE(chrfpp.name(), std::string("chrF2++"));
        const ChrfStatistics w = chrfpp.segmentStatistics("the cat.", {"the cat ."});
        QCOMPARE(std::vector<std::int64_t>(w.counts.end() - 6, w.counts.end()), (std::vector<std::int64_t>{3, 3, 3, 2, 2, 2}));
        QVERIFY(std::abs(chrfpp.sentenceScore("the cat.", {"the cat ."}).score - 100.0) < 1e-9);
    }

    void alignmentErrorRateByHand()
    {
        // S = {0-0, 1-1}, P = S + {2-1}, A = {0-0, 2-1, 2-2}: |A| = 3, |S| = 2, |A∩S| = 1, |A∩P| = 2,
        // AER = 1 - (1 + 2) / (3 + 2) = 0.4.
        const auto sure = links({{0, 0}, {1, 1}});
        const auto possible = links({{2, 1}});
        const auto predicted = links({{0, 0}, {2, 1}, {2, 2}});
        const AlignmentCounts c = AlignmentErrorRate::sentence(predicted, sure, possible);
        QCOMPARE(c.predicted, std::int64_t(3));
        QCOMPARE(c.sure, std::int64_t(2));
        QCOMPARE(c.predictedSure, std::int64_t(1));
        QCOMPARE(c.predictedPossible, std::int64_t(2));
        QVERIFY(std::abs(c.aer() - 0.4) < 1e-12);
        QVERIFY(std::abs(c.precision() - 2.0 / 3.0) < 1e-12);
        QVERIFY(std::abs(c.recall() - 0.5) < 1e-12);
        // P listed with S in it gives the same; a link given twice counts once.
        QCOMPARE(AlignmentErrorRate::sentence(predicted, sure, links({{0, 0}, {1, 1}, {2, 1}})).aer(), c.aer());
        QCOMPARE(AlignmentErrorRate::sentence(links({{0, 0}, {0, 0}, {2, 1}, {2, 2}}), sure, possible).aer(), c.aer());
        // Only sure links: P = S, so 2-1 is now wrong: 1 - 2 * 1 / (3 + 2) = 0.6.
        QVERIFY(std::abs(AlignmentErrorRate::sentence(predicted, sure).aer() - 0.6) < 1e-12);
        // Perfect alignment: 0; nothing in common: 1.
        QCOMPARE(AlignmentErrorRate::sentence(sure, sure).aer(), 0.0);
        QCOMPARE(AlignmentErrorRate::sentence(links({{0, 1}, {1, 0}}), sure, possible).aer(), 1.0);
        // A corpus sums the counts first: the sentence above and a perfect one of 2 links give
        // 1 - (1 + 2 + 2 + 2) / (3 + 2 + 2 + 2) = 2/9, not the mean of 0.4 and 0.
        AlignmentErrorRate corpus;
        corpus.add(predicted, sure, possible);
        corpus.add(sure, sure);
        QCOMPARE(corpus.sentences(), std::int64_t(2));
        QVERIFY(std::abs(corpus.value() - 2.0 / 9.0) < 1e-12);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, corpus.add(links({{-1, 0}}), sure));
    }

    void attentionArgmaxGivesOneLinkPerTargetRow()
    {
        // Rows are target words, columns source words: row 0 peaks at source 0, row 1 at source 2, row 2 ties
        // between sources 0 and 3 and takes the first.
        const std::vector<float> attention = {0.7f, 0.1f, 0.1f, 0.1f,
                                              0.1f, 0.2f, 0.6f, 0.1f,
                                              0.4f, 0.1f, 0.1f, 0.4f};
        const auto a = AlignmentErrorRate::argmaxLinks(attention, 3, 4);
        QCOMPARE(a, links({{0, 0}, {2, 1}, {0, 2}}));
        // Against gold S = {0-0, 2-1, 3-2}: two of three right, AER = 1 - 2 * 2 / (3 + 3) = 1/3.
        QVERIFY(std::abs(AlignmentErrorRate::sentence(a, links({{0, 0}, {2, 1}, {3, 2}})).aer() - 1.0 / 3.0) < 1e-12);
        QVERIFY(AlignmentErrorRate::argmaxLinks(std::vector<float>{}, 0, 5).empty());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, AlignmentErrorRate::argmaxLinks(attention, 4, 4)); // 12 weights, not 16
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, AlignmentErrorRate::argmaxLinks(std::vector<float>{}, 2, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 AlignmentErrorRate::argmaxLinks(std::vector<float>{0.5f, std::nanf("")}, 1, 2));
    }

    void badInputIsRefused()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, BleuScore().corpusScore({"a", "b"}, {"a"}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, BleuScore().sentenceScore("a", {}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ChrfScore().corpusScore({"a"}, {"a", "b"}));
        BleuOptions intl;
        intl.tokenize = "intl";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, BleuScore{intl});
        BleuOptions addK;
        addK.smoothMethod = "add-k";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, BleuScore{addK});
        ChrfOptions nothing;
        nothing.charOrder = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ChrfScore{nothing});
        // Segments with different numbers of references: "var", as sacreBLEU writes it.
        QVERIFY(QString::fromStdString(BleuScore().corpusScoreMultiRef({"a", "b"}, {{"a"}, {"b", "c"}}).signature).startsWith("nrefs:var|"));
    }

    // BLEU by source length: buckets as a user writes them, refused by the part that is wrong; each row is its
    // sentences' corpus BLEU and "all" the whole corpus'.
    void bleuByLengthBuckets()
    {
        const auto b = BleuByLength::parse("1-5,6-10,11-");
        QCOMPARE(static_cast<int>(b.size()), 3);
        QCOMPARE(b[2].label(), std::string("11+"));
        QVERIFY(b[2].contains(400) && !b[1].contains(11) && b[1].contains(6));
        QCOMPARE(BleuByLength::parse("7")[0].label(), std::string("7"));
        for (const char* bad : {"5-3", "1-5,4-8", "a-3", "1-5,,7", "0-4", "11-,12-14"}) {
            bool refused = false;
            try {
                BleuByLength::parse(bad);
            } catch (const std::invalid_argument& e) {
                refused = std::string(e.what()).rfind("buckets: '", 0) == 0;
            }
            QVERIFY2(refused, bad);
        }
        const std::vector<int> lengths = {2, 3, 7, 8, 12};
        const std::vector<std::string> hyps = {"a b", "a b c", "the cat sat on the mat now", "x y z w v u t s", "one"};
        const std::vector<std::string> refs = {"a b", "a c b", "the cat sat on the mat now", "x y z w v u t r", "one two three"};
        const std::vector<bool> exact = {true, false, true, false, false};
        const auto rows = BleuByLength::score(lengths, hyps, refs, exact, BleuByLength::parse("1-5,6-10,20-"));
        QCOMPARE(static_cast<int>(rows.size()), 3); // 20+ is empty: left out; 12 words fall in no bucket but in "all"
        QCOMPARE(rows[0].sentences, 2);
        QCOMPARE(rows[0].bleu, BleuScore().corpusScore({"a b", "a b c"}, {"a b", "a c b"}).score);
        QCOMPARE(rows[0].exact, 0.5);
        QCOMPARE(rows[1].bleu, BleuScore().corpusScore({hyps[2], hyps[3]}, {refs[2], refs[3]}).score);
        QCOMPARE(rows[1].low, 6);
        QCOMPARE(rows[2].label, std::string("all"));
        QCOMPARE(rows[2].sentences, 5);
        QCOMPARE(rows[2].bleu, BleuScore().corpusScore(hyps, refs).score);
        QCOMPARE(rows[2].sourceWords, 32.0 / 5);
    }
};

QTEST_APPLESS_MAIN(TestTranslationMetrics)
#include "test_translation_metrics.moc"
