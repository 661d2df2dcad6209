// Byte-level BPE (SmolLM2's tokenizer) on a hand-made vocabulary, without the model: the byte alphabet, merges
// in rank order, digits one by one, GPT-2's pattern, special tokens, decoding, byte ranges and every error. Each
// expected output was worked out by hand and agrees with Hugging Face `tokenizers` given the same vocabulary
// (BPE + Sequence[Digits(individual_digits), ByteLevel(add_prefix_space=false)]). SmolLM2 itself against the
// reference: tests/core/fixtures/smollm2/tokens.json.
#include "core/data/DataError.h"
#include "core/data/pretrained/ByteLevelBpeTokenizer.h"

#include <QtTest/QtTest>

#include <stdexcept>

using namespace attnlab;

namespace {

using Strings = std::vector<std::string>;
using Ranges = std::vector<std::pair<int, int>>;

// GPT-2's byte alphabet writes ' ' as "Ġ" (U+0120), '\n' as "Ċ", '\t' as "ĉ"; "é" is the bytes C3 A9, which
// stand for themselves: "Ã" and "©".
// clang-format off
const Strings kTokens = {
    "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|im",                 // 0-3: control, control, control, user
    "a", "b", "c", "i", "t", "s", "'", "I", "T", "S", "r",                 // 4-14
    "1", "2", "3", "Ġ", "Ċ", "ĉ", "<", "|", ">", "_", "m", "Ã", "©", "¨", // 15-28
    "bc", "ab", "aa", "Ġa", "ĠĠ", "12", "Ġ1", "it", "'s", "Ã©",           // 29-38: the merges' results
};
const std::vector<int> kTypes = {3, 3, 3, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
// clang-format on
// Rank = index: "b c" before "a b", so "abc" is "a" "bc" although "a b" comes first from the left.
const Strings kMerges = {"b c", "a b", "a a", "Ġ a", "Ġ Ġ", "1 2", "Ġ 1", "i t", "' s", "Ã ©"};

ByteLevelBpeTokenizer tokenizer()
{
    return ByteLevelBpeTokenizer(kTokens, kTypes, kMerges, "tiny.gguf");
}

// The DataError's message when the tokenizer is built, "" when it builds.
QString buildError(const Strings& tokens, const std::vector<int>& types, const Strings& merges)
{
    try {
        ByteLevelBpeTokenizer t(tokens, types, merges, "tiny.gguf");
    } catch (const DataError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestBpeTokenizer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void byteAlphabet();
    void mergesInRankOrder();
    void digitsOneByOne();
    void contractions();
    void whiteSpaceRuns();
    void specialTokens();
    void decodeRoundTrip();
    void byteRanges();
    void vocabularyErrors();
    void textErrors();
};

void TestBpeTokenizer::byteAlphabet()
{
    const auto t = tokenizer();
    QCOMPARE(t.size(), 39);
    QCOMPARE(t.encode(" ").tokens, (Strings {"Ġ"}));
    QCOMPARE(t.encode("\n").tokens, (Strings {"Ċ"}));
    QCOMPARE(t.encode("\t").tokens, (Strings {"ĉ"}));
    QCOMPARE(t.pieceText(t.idOf("Ġa")), std::string(" a"));
    QCOMPARE(t.pieceText(t.idOf("Ċ")), std::string("\n"));
    QCOMPARE(t.pieceText(t.idOf("Ã©")), std::string("é"));
    QCOMPARE(t.encode("é").tokens, (Strings {"Ã©"}));
    QCOMPARE(t.idOf("Ġa"), 32);
    QCOMPARE(t.idOf("nothing"), -1);
    QCOMPARE(t.tokenOf(29), std::string("bc"));
    // A byte whose character the vocabulary lacks ("z") is dropped, as the reference does without an unknown token.
    QCOMPARE(t.encode("zaz").tokens, (Strings {"a"}));
}

void TestBpeTokenizer::mergesInRankOrder()
{
    const auto t = tokenizer();
    QCOMPARE(t.encode("abc").tokens, (Strings {"a", "bc"})); // "b c" (rank 0) before "a b" (rank 1)
    QCOMPARE(t.encode("abc").ids, (std::vector<int> {4, 29}));
    QCOMPARE(t.encode("ab").tokens, (Strings {"ab"}));
    QCOMPARE(t.encode("aaa").tokens, (Strings {"aa", "a"})); // equal ranks: the leftmost first
    QCOMPARE(t.encode("aaaa").tokens, (Strings {"aa", "aa"}));
}

void TestBpeTokenizer::digitsOneByOne()
{
    const auto t = tokenizer();
    // "1 2" and "Ġ 1" are merges, but each number character is a chunk of its own, so neither applies.
    QCOMPARE(t.encode("123").tokens, (Strings {"1", "2", "3"}));
    QCOMPARE(t.encode("a 12").tokens, (Strings {"a", "Ġ", "1", "2"}));
}

void TestBpeTokenizer::contractions()
{
    const auto t = tokenizer();
    QCOMPARE(t.encode("it's").tokens, (Strings {"it", "'s"})); // 's is a chunk of its own
    QCOMPARE(t.encode("IT'S").tokens, (Strings {"I", "T", "'", "S"})); // the pattern is case-sensitive
}

void TestBpeTokenizer::whiteSpaceRuns()
{
    const auto t = tokenizer();
    // \s+(?!\S): of two spaces before a word the first is a chunk and the second goes with the word, so the
    // merge "Ġ Ġ" does not apply; at the end of the text the run is one chunk, and it does.
    QCOMPARE(t.encode("  a").tokens, (Strings {"Ġ", "Ġa"}));
    QCOMPARE(t.encode("a  ").tokens, (Strings {"a", "ĠĠ"}));
    QCOMPARE(t.encode("a a").tokens, (Strings {"a", "Ġa"}));
}

void TestBpeTokenizer::specialTokens()
{
    const auto t = tokenizer();
    const auto e = t.encode("<|im_start|>ab<|im_end|>");
    QCOMPARE(e.ids, (std::vector<int> {1, 30, 2}));
    QCOMPARE(e.tokens, (Strings {"<|im_start|>", "ab", "<|im_end|>"}));
    QCOMPARE(e.pieces, (Strings {"<|im_start|>", "ab", "<|im_end|>"}));
    QVERIFY(t.isSpecial(1));
    QVERIFY(t.isSpecial(3)); // user defined
    QVERIFY(!t.isSpecial(4));
    // "<|im" and "<|im_start|>" both start at 0: the longer is taken; "<|im" alone where the longer is not there.
    QCOMPARE(t.encode("<|im_start|>").ids, (std::vector<int> {1}));
    QCOMPARE(t.encode("<|im_a").tokens, (Strings {"<|im", "_", "a"}));
    QCOMPARE(t.encode("<|endoftext|><|endoftext|>").ids, (std::vector<int> {0, 0}));
    // specialTokens false: read as text, by the pattern ("<|" "im" "_" "start" "|>").
    QCOMPARE(t.encode("<|im_start|>", false).tokens,
             (Strings {"<", "|", "i", "m", "_", "s", "t", "a", "r", "t", "|", ">"}));
}

void TestBpeTokenizer::decodeRoundTrip()
{
    const auto t = tokenizer();
    for (const std::string s : {"abc", "  a", "a  ", "it's a 123\n\t", "<|im_start|>ab<|im_end|>\n", "é è", ""}) {
        const auto e = t.encode(s);
        QCOMPARE(t.decode(e.ids), s);
    }
    QCOMPARE(t.decode({1, 32, 2}), std::string("<|im_start|> a<|im_end|>")); // special tokens as their text
    QCOMPARE(t.decode({}), std::string());
    QVERIFY(t.encode("").ids.empty());
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, t.decode({39}));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, t.decode({-1}));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, t.tokenOf(39));
}

void TestBpeTokenizer::byteRanges()
{
    const auto t = tokenizer();
    const auto e = t.encode("a é");
    QCOMPARE(e.tokens, (Strings {"a", "Ġ", "Ã©"}));
    QCOMPARE(e.pieces, (Strings {"a", " ", "é"}));
    QCOMPARE(e.bytes, (Ranges {{0, 1}, {1, 2}, {2, 4}})); // bytes, not characters: "é" is two
    // "è" is C3 A8 and "Ã ¨" is no merge: two tokens, each a byte that is not UTF-8 on its own.
    const auto split = t.encode("è");
    QCOMPARE(split.tokens, (Strings {"Ã", "¨"}));
    QCOMPARE(split.pieces, (Strings {"\xC3", "\xA8"}));
    QCOMPARE(split.bytes, (Ranges {{0, 1}, {1, 2}}));
    const auto special = t.encode("ab<|im_end|>  a");
    QCOMPARE(special.bytes, (Ranges {{0, 2}, {2, 12}, {12, 13}, {13, 15}}));
}

void TestBpeTokenizer::vocabularyErrors()
{
    QCOMPARE(buildError(kTokens, kTypes, kMerges), QString());
    QCOMPARE(buildError(kTokens, {}, kMerges), QString()); // no types: all normal
    QCOMPARE(buildError(kTokens, kTypes, {"a b", "ab"}),
             QString("tiny.gguf: merge 1 \"ab\" is not two tokens separated by one space"));
    QVERIFY(buildError(kTokens, kTypes, {"a  b"}).contains("merge 0 \"a  b\" is not two tokens"));
    QVERIFY(buildError(kTokens, kTypes, {"a b c"}).contains("merge 0 \"a b c\" is not two tokens"));
    QVERIFY(buildError(kTokens, kTypes, {" ab"}).contains("merge 0 \" ab\" is not two tokens"));
    QCOMPARE(buildError(kTokens, kTypes, {"a b", "b z"}),
             QString("tiny.gguf: merge 1 \"b z\": \"z\" is not in the vocabulary"));
    QCOMPARE(buildError(kTokens, kTypes, {"b a"}),
             QString("tiny.gguf: merge 0 \"b a\": its result \"ba\" is not in the vocabulary"));
    QCOMPARE(buildError({"a", "b", "a"}, {}, {}), QString("tiny.gguf: token 2 \"a\" is already token 0"));
    QCOMPARE(buildError(kTokens, {1, 1}, kMerges), QString("tiny.gguf: 2 token types for 39 tokens"));
    try {
        ByteLevelBpeTokenizer t(kTokens, kTypes, {"ab"}, "tiny.gguf");
        QFAIL("no error");
    } catch (const DataError& e) {
        QCOMPARE(e.file(), std::string("tiny.gguf"));
        QCOMPARE(e.line(), 0);
    }
}

void TestBpeTokenizer::textErrors()
{
    const auto t = tokenizer();
    auto error = [&](const std::string& text) {
        try {
            t.encode(text);
        } catch (const std::invalid_argument& e) {
            return QString::fromStdString(e.what());
        }
        return QString();
    };
    QCOMPARE(error("abcd\xff"), QString("text: invalid UTF-8 at byte 5")); // counted from 1
    QCOMPARE(error("ab\xc3"), QString("text: invalid UTF-8 at byte 3")); // a character cut short
    QCOMPARE(error("\xed\xa0\x80"), QString("text: invalid UTF-8 at byte 1")); // a surrogate
    QCOMPARE(error("\xc0\xaf"), QString("text: invalid UTF-8 at byte 1")); // an overlong "/"
    QCOMPARE(error("<|im_start|>\xfe"), QString("text: invalid UTF-8 at byte 13"));
    QCOMPARE(error("é"), QString());
}

QTEST_APPLESS_MAIN(TestBpeTokenizer)
#include "test_bpe_tokenizer.moc"
