// the pretrained encoder's parts on hand-made input, without the model: safetensors files (values,
// every check of the header), BertConfig's errors, WordPiece on a hand-made vocabulary and its errors, and a
// map's word pieces merged into words. all-MiniLM-L6-v2 itself against the reference: test_pretrained.
#include "core/analysis/TokenGrouping.h"
#include "core/data/DataError.h"
#include "core/data/pretrained/BertConfig.h"
#include "core/data/pretrained/SafetensorsFile.h"
#include "core/data/pretrained/WordPieceTokenizer.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>
#include <cstring>
#include <fstream>

using namespace attnlab;

namespace {

// A .safetensors file: the 8-byte little-endian header length, the header, the data.
std::string safetensors(const std::string& header, const std::string& data)
{
    std::string out(8, '\0');
    std::uint64_t n = header.size();
    for (int i = 0; i < 8; ++i)
        out[static_cast<std::size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xFF);
    return out + header + data;
}

std::string bytesOf(const std::vector<float>& v)
{
    std::string s(v.size() * 4, '\0');
    std::memcpy(s.data(), v.data(), s.size());
    return s;
}

// The DataError's message when `path` is opened, "" when it opens.
QString openError(const std::string& path)
{
    try {
        SafetensorsFile f(path);
    } catch (const DataError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestPretrainedParts : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

    std::string write(const std::string& name, const std::string& bytes)
    {
        const std::string path = dir_.filePath(QString::fromStdString(name)).toStdString();
        std::ofstream(path, std::ios::binary) << bytes;
        return path;
    }

private Q_SLOTS:
    void initTestCase();
    void safetensorsValues();
    void safetensorsRejectsDamage_data();
    void safetensorsRejectsDamage();
    void configErrors();
    void wordPieceByHand();
    void vocabularyErrors();
    void piecesMergedIntoWords();
};

void TestPretrainedParts::initTestCase()
{
    QVERIFY(dir_.isValid());
}

void TestPretrainedParts::safetensorsValues()
{
    // Two tensors: a 2x2 F32 and a 3-element F16 (1.0, -2.5, 65504, the largest half), plus a BF16 scalar.
    const std::string f32 = bytesOf({1.5f, -2.0f, 0.25f, 1e-3f});
    const std::string f16("\x00\x3c\x00\xc1\xff\x7b", 6);
    const std::string bf16("\x49\x40", 2); // 0x4049 -> 3.140625
    const std::string header = R"({"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},)"
                               R"("h":{"dtype":"F16","shape":[3],"data_offsets":[16,22]},)"
                               R"("b":{"dtype":"BF16","shape":[],"data_offsets":[22,24]},)"
                               R"("__metadata__":{"format":"pt"}})";
    const SafetensorsFile file(write("ok.safetensors", safetensors(header, f32 + f16 + bf16)));
    QCOMPARE(file.entries().size(), std::size_t(3));
    QCOMPARE(file.entries()[0].name, std::string("w")); // in the order of their bytes
    QCOMPARE(file.find("w")->shape, (std::vector<std::int64_t>{2, 2}));
    QCOMPARE(file.find("b")->elements(), std::int64_t(1)); // a scalar's empty shape holds one value
    QCOMPARE(file.metadata().at("format"), std::string("pt"));
    QCOMPARE(file.floats("w"), (std::vector<float>{1.5f, -2.0f, 0.25f, 1e-3f}));
    QCOMPARE(file.floats("h"), (std::vector<float>{1.0f, -2.5f, 65504.0f}));
    QCOMPARE(file.floats("b"), (std::vector<float>{3.140625f}));
    QVERIFY(!file.find("nothing"));
    QVERIFY_THROWS_EXCEPTION(DataError, file.floats("nothing"));
    // An empty file of tensors is a valid one.
    QCOMPARE(openError(write("empty.safetensors", safetensors("{}", ""))), QString());
}

void TestPretrainedParts::safetensorsRejectsDamage_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("says");
    auto file = [](const std::string& header, const std::string& data) {
        const std::string s = safetensors(header, data);
        return QByteArray(s.data(), static_cast<int>(s.size()));
    };
    const std::string four(4, '\0');
    QTest::newRow("shorter than 8 bytes") << QByteArray("abc") << "shorter than its 8-byte header length";
    QTest::newRow("header past the end") << QByteArray("\xff\x00\x00\x00\x00\x00\x00\x00{}", 10) << "header length 255 is beyond";
    QTest::newRow("not JSON") << file("{nope", "") << "header is not JSON";
    QTest::newRow("not an object") << file("[1,2]", "") << "not a JSON object";
    QTest::newRow("unknown dtype") << file(R"({"t":{"dtype":"F12","shape":[1],"data_offsets":[0,4]}})", four) << "tensor \"t\": unknown dtype \"F12\"";
    QTest::newRow("negative size") << file(R"({"t":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})", four) << "tensor \"t\": shape holds -1";
    QTest::newRow("fractional size") << file(R"({"t":{"dtype":"F32","shape":[1.5],"data_offsets":[0,4]}})", four) << "shape holds 1.5";
    QTest::newRow("offsets past the data") << file(R"({"t":{"dtype":"F32","shape":[1],"data_offsets":[0,8]}})", four) << "lie outside the 4 bytes";
    QTest::newRow("wrong byte count") << file(R"({"t":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}})", four) << "needs 8";
    QTest::newRow("huge shape") << file(R"({"t":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,4]}})", four) << "too large";
    QTest::newRow("gap") << file(R"({"t":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", std::string(8, '\0')) << "leaving a gap";
    QTest::newRow("overlap") << file(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                                     std::string(8, '\0')) << "inside the tensor before it";
    QTest::newRow("bytes left over") << file(R"({"t":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", std::string(6, '\0')) << "end at byte 4";
    QTest::newRow("metadata not strings") << file(R"({"__metadata__":{"n":1}})", "") << "__metadata__ \"n\" is not a string";
    QTest::newRow("no offsets") << file(R"({"t":{"dtype":"F32","shape":[1]}})", four) << "data_offsets is not [begin, end]";
}

void TestPretrainedParts::safetensorsRejectsDamage()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, says);
    const std::string path = write("bad.safetensors", bytes.toStdString());
    const QString error = openError(path);
    QVERIFY2(error.startsWith(QString::fromStdString(path) + ": "), qPrintable(error)); // names the file
    QVERIFY2(error.contains(says), qPrintable(error));
}

void TestPretrainedParts::configErrors()
{
    const BertConfig c = BertConfig::fromJson(
        R"({"vocab_size":100,"hidden_size":8,"num_hidden_layers":2,"num_attention_heads":2,"intermediate_size":16,)"
        R"("max_position_embeddings":32,"hidden_act":"gelu","model_type":"bert"})", "c.json");
    QCOMPARE(c.headSize(), 4);
    QCOMPARE(c.layerNormEps, 1e-12);
    auto error = [](const std::string& json) {
        try {
            BertConfig::fromJson(json, "cfg/config.json");
        } catch (const DataError& e) {
            return QString::fromStdString(e.what());
        }
        return QString();
    };
    const std::string base = R"("vocab_size":100,"num_hidden_layers":2,"intermediate_size":16,"max_position_embeddings":32)";
    QVERIFY(error("{" + base + R"(,"hidden_size":8,"num_attention_heads":3})").contains("cfg/config.json: \"num_attention_heads\" (3) does not divide"));
    QVERIFY(error("{" + base + R"(,"hidden_size":8.5,"num_attention_heads":2})").contains("\"hidden_size\" is 8.5, not a size"));
    QVERIFY(error("{" + base + R"(,"num_attention_heads":2})").contains("no \"hidden_size\""));
    QVERIFY(error("{" + base + R"(,"hidden_size":8,"num_attention_heads":2,"hidden_act":"relu"})").contains("exact GELU"));
    QVERIFY(error("{" + base + R"(,"hidden_size":8,"num_attention_heads":2,"position_embedding_type":"relative_key"})").contains("learned absolute positions only"));
    QVERIFY(error("{" + base + R"(,"hidden_size":8,"num_attention_heads":2,"model_type":"gpt2"})").contains("only BERT-style"));
    QVERIFY(error("{oops").startsWith("cfg/config.json: not JSON"));
}

void TestPretrainedParts::wordPieceByHand()
{
    // ids by line: 0 [PAD], 1 [UNK], 2 [CLS], 3 [SEP], 4 [MASK], then the words.
    const std::string vocab = write("vocab.txt", "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nun\n##aff\n##able\nunaffable\n##a\n"
                                                 "cafe\n!\n,\n##ly\nhappy\n中\n$\n");
    const WordPieceTokenizer t(vocab, {});
    auto tokens = [&](const std::string& s, int max = 0) { return t.encode(s, max).tokens; };
    using V = std::vector<std::string>;
    QCOMPARE(tokens("unaffable"), (V{"[CLS]", "unaffable", "[SEP]"}));                   // the longest match first
    QCOMPARE(tokens("unaffablea"), (V{"[CLS]", "unaffable", "##a", "[SEP]"}));
    QCOMPARE(tokens("UNAFFABLY"), (V{"[CLS]", "[UNK]", "[SEP]"})); // un ##aff ##a, then no piece for "bly": all unknown
    QCOMPARE(tokens("Café, happy!"), (V{"[CLS]", "cafe", ",", "happy", "!", "[SEP]"})); // accents, case, punctuation
    QCOMPARE(tokens("happy中happy"), (V{"[CLS]", "happy", "中", "happy", "[SEP]"}));     // CJK padded
    QCOMPARE(tokens("$happy"), (V{"[CLS]", "$", "happy", "[SEP]"}));                     // ASCII symbols split too
    QCOMPARE(tokens("happy[MASK]happy"), (V{"[CLS]", "happy", "[MASK]", "happy", "[SEP]"})); // specials as written
    QCOMPARE(tokens("[mask]"), (V{"[CLS]", "[UNK]", "[UNK]", "[UNK]", "[SEP]"}));      // only as written: "[", "mask", "]"
    QCOMPARE(tokens("soft\u00adhap\u200bpy\x01"), (V{"[CLS]", "[UNK]", "[SEP]"}));       // Cf and Cc removed: "softhappy"
    QCOMPARE(tokens(std::string(101, 'a')), (V{"[CLS]", "[UNK]", "[SEP]"}));           // longer than 100 characters
    QCOMPARE(tokens("\xff\xfehappy"), (V{"[CLS]", "happy", "[SEP]"}));                  // invalid UTF-8 is U+FFFD, removed
    QCOMPARE(tokens(""), (V{"[CLS]", "[SEP]"}));
    const auto e = t.encode("happy, unaffablea cafe", 4);
    QCOMPARE(e.tokens, (V{"[CLS]", "happy", ",", "[SEP]"}));
    QCOMPARE(e.truncated, 3);
    const auto words = t.encode("unaffablea happy").words;
    QCOMPARE(words, (std::vector<int>{-1, 0, 0, 1, -1}));
    QCOMPARE(t.encode("unaffablea happy").wordTexts, (V{"unaffablea", "happy"}));
    QCOMPARE(t.encode("happy").ids, (std::vector<int>{2, 14, 3}));
}

void TestPretrainedParts::vocabularyErrors()
{
    auto error = [&](const std::string& text) {
        const std::string path = write("v.txt", text);
        try {
            WordPieceTokenizer t(path, {});
        } catch (const DataError& e) {
            return QString::fromStdString(e.what()).remove(QString::fromStdString(path));
        }
        return QString();
    };
    QCOMPARE(error("[UNK]\n[CLS]\n[SEP]\nword\nword\n"), QString(":5: \"word\" is already entry 3"));
    QCOMPARE(error("[UNK]\n\n[CLS]\n[SEP]\n"), QString(":2: empty vocabulary entry"));
    QCOMPARE(error("[UNK]\n[SEP]\n"), QString(": no [CLS] entry: not a BERT vocabulary"));
    QCOMPARE(error("[UNK]\n\xff\xfe\n[CLS]\n[SEP]\n"), QString(":2: invalid UTF-8 at byte 1 of the line"));
}

void TestPretrainedParts::piecesMergedIntoWords()
{
    // [CLS] a ##b c, by hand: merging sums attention to a word's pieces and averages the rows from them;
    // hiding [CLS] drops its column and renormalises each row over the rest.
    AttentionMap m;
    m.size = 4;
    m.layer = 2;
    m.head = 5;
    m.weights = {0.1f, 0.2f, 0.3f, 0.4f, 0.4f, 0.1f, 0.1f, 0.4f, 0.2f, 0.2f, 0.2f, 0.4f, 0.5f, 0.25f, 0.25f, 0.0f};
    const std::vector<std::string> tokens = {"[CLS]", "a", "##b", "c"};
    const std::vector<int> words = {-1, 0, 0, 1};
    std::vector<std::string> labels;
    int count = 0;
    auto groups = TokenGrouping::forPieces(tokens, words, true, true, &labels, &count);
    QCOMPARE(groups, (std::vector<int>{-1, 0, 0, 1}));
    QCOMPARE(labels, (std::vector<std::string>{"ab", "c"}));
    auto merged = TokenGrouping::apply(m, groups, count);
    QCOMPARE(merged.size, 2);
    QCOMPARE(merged.layer, 2);
    // "ab": rows a [.1+.1, .4] / .6 and ##b [.2+.2, .4] / .8, averaged; "c": [.25+.25, 0] / .5.
    const std::vector<float> expected = {(1.0f / 3 + 0.5f) / 2, (2.0f / 3 + 0.5f) / 2, 1.0f, 0.0f};
    for (std::size_t i = 0; i < expected.size(); ++i)
        QVERIFY2(std::abs(merged.weights[i] - expected[i]) < 1e-6f, qPrintable(QString::number(i)));
    groups = TokenGrouping::forPieces(tokens, words, true, false, &labels, &count);
    QCOMPARE(labels, (std::vector<std::string>{"[CLS]", "ab", "c"}));
    merged = TokenGrouping::apply(m, groups, count);
    const std::vector<float> kept = {0.1f, 0.5f, 0.4f, 0.3f, 0.3f, 0.4f, 0.5f, 0.5f, 0.0f};
    for (std::size_t i = 0; i < kept.size(); ++i)
        QVERIFY2(std::abs(merged.weights[i] - kept[i]) < 1e-6f, qPrintable(QString::number(i)));
    groups = TokenGrouping::forPieces(tokens, words, false, true, &labels, &count);
    QCOMPARE(labels, (std::vector<std::string>{"a", "##b", "c"}));
    QCOMPARE(TokenGrouping::applyToWeights({0.5f, 0.1f, 0.2f, 0.2f}, groups, count), (std::vector<float>{0.2f, 0.4f, 0.4f}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, TokenGrouping::apply(m, {0, 1}, 2));
}

QTEST_GUILESS_MAIN(TestPretrainedParts)
#include "test_pretrained_parts.moc"
