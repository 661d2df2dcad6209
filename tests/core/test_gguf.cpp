// The GGUF reader on files this test writes byte by byte: every metadata value type read back, F32, F16, Q8_0 and
// Q4_1 dequantized against values worked out by hand from ggml's block layouts, the alignment, LlamaConfig from the
// metadata, and each kind of damage refused with the file and the key or tensor named. The real SmolLM2 file:
// test_pretrained_llm.
#include "core/data/DataError.h"
#include "core/data/pretrained/GgufFile.h"
#include "core/data/pretrained/LlamaConfig.h"

#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <cstring>
#include <fstream>

using namespace attnlab;

namespace {

// A GGUF file assembled field by field (little-endian, as the format is).
class GgufWriter {
public:
    template<typename T> GgufWriter& raw(T v)
    {
        char b[sizeof v];
        std::memcpy(b, &v, sizeof v);
        bytes_.append(b, sizeof v);
        return *this;
    }
    GgufWriter& str(const std::string& s)
    {
        raw<std::uint64_t>(s.size());
        bytes_ += s;
        return *this;
    }
    GgufWriter& header(std::uint64_t tensors, std::uint64_t keys, std::uint32_t version = 3)
    {
        bytes_ += "GGUF";
        return raw<std::uint32_t>(version).raw<std::uint64_t>(tensors).raw<std::uint64_t>(keys);
    }
    GgufWriter& key(const std::string& k, GgufValueType t)
    {
        str(k);
        return raw<std::uint32_t>(static_cast<std::uint32_t>(t));
    }
    GgufWriter& tensor(const std::string& name, std::vector<std::uint64_t> dims, std::uint32_t type,
                       std::uint64_t offset)
    {
        str(name).raw<std::uint32_t>(static_cast<std::uint32_t>(dims.size()));
        for (auto d : dims)
            raw<std::uint64_t>(d);
        return raw<std::uint32_t>(type).raw<std::uint64_t>(offset);
    }
    GgufWriter& align(std::size_t to = 32)
    {
        while (bytes_.size() % to != 0)
            bytes_ += '\0';
        return *this;
    }
    GgufWriter& data(const std::string& d)
    {
        bytes_ += d;
        return *this;
    }
    std::string& bytes() { return bytes_; }

private:
    std::string bytes_;
};

std::uint16_t half(float f) // exact for the values used here (small integers and halves)
{
    std::uint32_t bits;
    std::memcpy(&bits, &f, 4);
    const std::uint32_t sign = (bits >> 16) & 0x8000u;
    if ((bits & 0x7FFFFFFFu) == 0)
        return static_cast<std::uint16_t>(sign);
    const int exponent = static_cast<int>((bits >> 23) & 0xFF) - 127 + 15;
    return static_cast<std::uint16_t>(sign | (exponent << 10) | ((bits >> 13) & 0x3FF));
}

template<typename T> std::string bytesOf(const std::vector<T>& v)
{
    return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

} // namespace

class TestGguf : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::string write(const std::string& name, const std::string& bytes)
    {
        const std::string path = dir_.filePath(QString::fromStdString(name)).toStdString();
        std::ofstream(path, std::ios::binary) << bytes;
        return path;
    }
    QString openError(const std::string& bytes)
    {
        const std::string path = write("damaged.gguf", bytes);
        try {
            GgufFile f(path);
        } catch (const DataError& e) {
            const QString what = QString::fromStdString(e.what());
            if (!what.startsWith(QString::fromStdString(path)))
                return "error does not name the file: " + what;
            return what.mid(static_cast<int>(path.size()) + 2);
        }
        return QString();
    }
    // A well-formed file: two tensors (F32 [2 x 3] and Q8_0 [32]) and one metadata key.
    GgufWriter twoTensors()
    {
        GgufWriter w;
        w.header(2, 1).key("general.architecture", GgufValueType::String).str("llama");
        w.tensor("a", {3, 2}, 0, 0).tensor("b", {32}, 8, 32).align();
        w.data(bytesOf(std::vector<float> {1, 2, 3, 4, 5, 6})).align();
        w.raw<std::uint16_t>(half(0.5f)).data(std::string(32, '\x02'));
        return w;
    }

private Q_SLOTS:
    void everyValueTypeIsReadBack();
    void dequantizesEveryTypeAsGgmlDefinesIt();
    void alignmentIsTheFilesOwn();
    void llamaConfigFromMetadata();
    void damageIsRefusedByName();
    void anUnsupportedTypeIsRefusedByName();
};

void TestGguf::everyValueTypeIsReadBack()
{
    GgufWriter w;
    w.header(0, 14);
    w.key("u8", GgufValueType::Uint8).raw<std::uint8_t>(200);
    w.key("i8", GgufValueType::Int8).raw<std::int8_t>(-100);
    w.key("u16", GgufValueType::Uint16).raw<std::uint16_t>(65000);
    w.key("i16", GgufValueType::Int16).raw<std::int16_t>(-30000);
    w.key("u32", GgufValueType::Uint32).raw<std::uint32_t>(4000000000u);
    w.key("i32", GgufValueType::Int32).raw<std::int32_t>(-2000000000);
    w.key("f32", GgufValueType::Float32).raw<float>(1.5f);
    w.key("bool", GgufValueType::Bool).raw<std::uint8_t>(1);
    w.key("str", GgufValueType::String).str("héllo");
    w.key("u64", GgufValueType::Uint64).raw<std::uint64_t>(18000000000000000000ull);
    w.key("i64", GgufValueType::Int64).raw<std::int64_t>(-9000000000000000000ll);
    w.key("f64", GgufValueType::Float64).raw<double>(-2.25);
    w.key("strings", GgufValueType::Array).raw<std::uint32_t>(8).raw<std::uint64_t>(3).str("a").str("").str("c c");
    // An array of two arrays: [[1, 2], [3]] of INT32.
    w.key("nested", GgufValueType::Array).raw<std::uint32_t>(9).raw<std::uint64_t>(2);
    w.raw<std::uint32_t>(5).raw<std::uint64_t>(2).raw<std::int32_t>(1).raw<std::int32_t>(2);
    w.raw<std::uint32_t>(5).raw<std::uint64_t>(1).raw<std::int32_t>(3);
    const GgufFile f(write("values.gguf", w.bytes()));
    QCOMPARE(f.version(), 3u);
    QCOMPARE(f.metadata().size(), std::size_t(14));
    QCOMPARE(f.integer("u8"), std::int64_t(200));
    QCOMPARE(f.integer("i8"), std::int64_t(-100));
    QCOMPARE(f.integer("u16"), std::int64_t(65000));
    QCOMPARE(f.integer("i16"), std::int64_t(-30000));
    QCOMPARE(f.integer("u32"), std::int64_t(4000000000ll));
    QCOMPARE(f.integer("i32"), std::int64_t(-2000000000));
    QCOMPARE(f.real("f32"), 1.5);
    QCOMPARE(f.integer("bool"), std::int64_t(1));
    QCOMPARE(f.text("str"), std::string("héllo"));
    QCOMPARE(f.find("u64")->unsignedBits, std::uint64_t(18000000000000000000ull));
    QCOMPARE(f.integer("i64"), std::int64_t(-9000000000000000000ll));
    QCOMPARE(f.real("f64"), -2.25);
    QCOMPARE(f.real("u32"), 4e9); // an integer read as a number
    QCOMPARE(f.texts("strings"), (std::vector<std::string> {"a", "", "c c"}));
    const GgufValue* nested = f.find("nested");
    QVERIFY(nested);
    QCOMPARE(nested->items.size(), std::size_t(2));
    QCOMPARE(nested->items[0].integers, (std::vector<std::int64_t> {1, 2}));
    QCOMPARE(nested->items[1].integers, (std::vector<std::int64_t> {3}));
    // Asked for as the wrong kind, or absent: the key named.
    QVERIFY_THROWS_EXCEPTION(DataError, f.text("u8"));
    try {
        f.integer("str");
        QFAIL("a string read as an integer");
    } catch (const DataError& e) {
        QVERIFY2(std::string(e.what()).find("metadata 'str' is STRING, not an integer") != std::string::npos, e.what());
    }
    try {
        f.integer("llama.block_count");
        QFAIL("a missing key read");
    } catch (const DataError& e) {
        QVERIFY2(std::string(e.what()).find("missing metadata key 'llama.block_count'") != std::string::npos, e.what());
    }
    QVERIFY_THROWS_EXCEPTION(DataError, f.integer("u64")); // above INT64_MAX
}

void TestGguf::dequantizesEveryTypeAsGgmlDefinesIt()
{
    // F16 [4]: 1, -2, 0.5, 65504 (the largest half). Q8_0 [32]: d = 0.25, q = -16 .. 15 -> x = q / 4.
    // Q4_1 [2 x 32] (two blocks): block 0 d = 0.5, m = -1, byte j = (j << 4) | (15 - j): low nibbles 15 - j are
    // values 0..15, high nibbles j values 16..31. Block 1 d = 2, m = 3, every byte 0x21: low 1, high 2.
    std::string q8;
    for (int j = 0; j < 32; ++j)
        q8 += static_cast<char>(static_cast<std::int8_t>(j - 16));
    std::string q41a, q41b;
    for (int j = 0; j < 16; ++j) {
        q41a += static_cast<char>(static_cast<unsigned char>((j << 4) | (15 - j)));
        q41b += '\x21';
    }
    GgufWriter w;
    w.header(4, 0);
    w.tensor("f32", {2}, 0, 0)
        .tensor("f16", {4}, 1, 32)
        .tensor("q8", {32}, 8, 64)
        .tensor("q41", {32, 2}, 3, 128)
        .align();
    w.data(bytesOf(std::vector<float> {3.25f, -7.0f})).align();
    w.raw<std::uint16_t>(half(1.0f))
        .raw<std::uint16_t>(half(-2.0f))
        .raw<std::uint16_t>(half(0.5f))
        .raw<std::uint16_t>(0x7BFF);
    w.align();
    w.raw<std::uint16_t>(half(0.25f)).data(q8).align();
    w.raw<std::uint16_t>(half(0.5f)).raw<std::uint16_t>(half(-1.0f)).data(q41a);
    w.raw<std::uint16_t>(half(2.0f)).raw<std::uint16_t>(half(3.0f)).data(q41b);
    const GgufFile f(write("types.gguf", w.bytes()));
    QCOMPARE(f.tensors().size(), std::size_t(4));
    QCOMPARE(f.floats("f32"), (std::vector<float> {3.25f, -7.0f}));
    QCOMPARE(f.floats("f16"), (std::vector<float> {1.0f, -2.0f, 0.5f, 65504.0f}));
    const auto q8values = f.floats("q8");
    for (int j = 0; j < 32; ++j)
        QCOMPARE(q8values[static_cast<std::size_t>(j)], static_cast<float>(j - 16) / 4.0f);
    const GgufTensor& q41 = f.require("q41");
    QCOMPARE(q41.shape(), (std::vector<std::int64_t> {2, 32})); // two rows of 32: ggml's {32, 2} reversed
    QCOMPARE(q41.bytes, std::uint64_t(40));
    const auto q41values = f.floats("q41");
    for (int j = 0; j < 16; ++j) {
        QCOMPARE(q41values[static_cast<std::size_t>(j)], 0.5f * static_cast<float>(15 - j) - 1.0f);
        QCOMPARE(q41values[static_cast<std::size_t>(j + 16)], 0.5f * static_cast<float>(j) - 1.0f);
        QCOMPARE(q41values[static_cast<std::size_t>(32 + j)], 2.0f * 1 + 3.0f);
        QCOMPARE(q41values[static_cast<std::size_t>(48 + j)], 2.0f * 2 + 3.0f);
    }
}

void TestGguf::alignmentIsTheFilesOwn()
{
    GgufWriter w;
    w.header(2, 1).key("general.alignment", GgufValueType::Uint32).raw<std::uint32_t>(64);
    w.tensor("a", {1}, 0, 0).tensor("b", {1}, 0, 64).align(64);
    w.data(bytesOf(std::vector<float> {1.0f})).align(64).data(bytesOf(std::vector<float> {2.0f}));
    const GgufFile f(write("aligned.gguf", w.bytes()));
    QCOMPARE(f.alignment(), std::uint64_t(64));
    QCOMPARE(f.dataStart() % 64, std::uint64_t(0));
    QCOMPARE(f.floats("b"), std::vector<float> {2.0f});

    GgufWriter odd;
    odd.header(0, 1).key("general.alignment", GgufValueType::Uint32).raw<std::uint32_t>(48);
    QVERIFY(openError(odd.bytes()).contains("'general.alignment' must be a UINT32 power of two, not 48"));
}

void TestGguf::llamaConfigFromMetadata()
{
    const auto u32 = [](GgufWriter& w, const std::string& k, std::uint32_t v) {
        w.key(k, GgufValueType::Uint32).raw(v);
    };
    const auto file = [&](const std::string& architecture, std::uint32_t kvHeads) {
        GgufWriter w;
        w.header(0, 10).key("general.architecture", GgufValueType::String).str(architecture);
        u32(w, "llama.block_count", 2);
        u32(w, "llama.embedding_length", 64);
        u32(w, "llama.attention.head_count", 4);
        u32(w, "llama.attention.head_count_kv", kvHeads);
        u32(w, "llama.feed_forward_length", 96);
        u32(w, "llama.context_length", 128);
        u32(w, "llama.vocab_size", 300);
        w.key("llama.rope.freq_base", GgufValueType::Float32).raw<float>(100000.0f);
        w.key("llama.attention.layer_norm_rms_epsilon", GgufValueType::Float32).raw<float>(1e-5f);
        return write("config.gguf", w.bytes());
    };
    const LlamaConfig c = LlamaConfig::fromGguf(GgufFile(file("llama", 2)));
    QCOMPARE(c.layers, 2);
    QCOMPARE(c.heads, 4);
    QCOMPARE(c.kvHeads, 2);
    QCOMPARE(c.headSize, 16);
    QCOMPARE(c.ropeDimensions, 16);
    QCOMPARE(c.ropeBase, 100000.0);
    QVERIFY(c.tiedOutput);
    // Per layer q 64x64, k and v 64x32 each, o 64x64, the MLP 3 x 64x96, two norms of 64; the table; the final norm.
    QCOMPARE(c.parameters(), std::int64_t(300 * 64 + 2 * (4096 + 2 * 2048 + 4096 + 3 * 6144 + 128) + 64));
    try {
        LlamaConfig::fromGguf(GgufFile(file("gpt2", 2)));
        QFAIL("another architecture read as llama");
    } catch (const DataError& e) {
        QVERIFY2(std::string(e.what()).find("architecture 'gpt2': the lab reads llama models only") !=
                     std::string::npos,
                 e.what());
    }
    try {
        LlamaConfig::fromGguf(GgufFile(file("llama", 3)));
        QFAIL("3 key/value heads accepted for 4 query heads");
    } catch (const DataError& e) {
        QVERIFY2(std::string(e.what()).find("'llama.attention.head_count_kv' = 3 does not divide the 4 query heads") !=
                     std::string::npos,
                 e.what());
    }
}

void TestGguf::damageIsRefusedByName()
{
    QVERIFY(openError(twoTensors().bytes()).isEmpty());
    std::string wrongMagic = twoTensors().bytes();
    wrongMagic[0] = 'X';
    QCOMPARE(openError(wrongMagic), QString("not a GGUF file: it does not start with the magic \"GGUF\""));
    QCOMPARE(openError(std::string("GG")), QString("not a GGUF file: it does not start with the magic \"GGUF\""));
    GgufWriter v1;
    v1.header(0, 0, 1);
    QCOMPARE(openError(v1.bytes()), QString("GGUF version 1, the lab reads versions 2 and 3"));
    // Cut short inside the header, and inside the last tensor's data.
    const std::string whole = twoTensors().bytes();
    QVERIFY(openError(whole.substr(0, 100)).startsWith("cut short: tensor 'a'"));
    QVERIFY(openError(whole.substr(0, 30)).contains("more than its 30 bytes can hold"));
    QVERIFY2(openError(whole.substr(0, whole.size() - 1))
                 .contains("tensor 'b': its 34 bytes at offset 32 run past the file's end"),
             qPrintable(openError(whole.substr(0, whole.size() - 1))));
    // A tensor whose offset lies past the end.
    GgufWriter past;
    past.header(1, 0).tensor("far", {4}, 0, 4096).align().data(std::string(16, '\0'));
    QVERIFY(openError(past.bytes()).contains("tensor 'far': its 16 bytes at offset 4096 run past the file's end"));
    // A count the file cannot hold, a string longer than the file, an unknown value type.
    GgufWriter many;
    many.header(1000000000, 0);
    QVERIFY(openError(many.bytes()).contains("more than its"));
    GgufWriter longString;
    longString.header(0, 1).raw<std::uint64_t>(1u << 30).data(std::string(64, 'x'));
    QVERIFY(openError(longString.bytes()).contains("runs past the file's end"));
    GgufWriter badType;
    badType.header(0, 1).str("k").raw<std::uint32_t>(13);
    QCOMPARE(openError(badType.bytes()), QString("metadata 'k': unknown value type 13 (GGUF defines 0 to 12)"));
    GgufWriter twice;
    twice.header(0, 2)
        .key("k", GgufValueType::Uint8)
        .raw<std::uint8_t>(1)
        .key("k", GgufValueType::Uint8)
        .raw<std::uint8_t>(2);
    QCOMPARE(openError(twice.bytes()), QString("metadata 'k' is written twice"));
    // Tensors: no dimensions, an empty size, a row that splits a block, a misaligned offset, a type ggml lacks.
    GgufWriter noDims;
    noDims.header(1, 0).tensor("t", {}, 0, 0);
    QCOMPARE(openError(noDims.bytes() + std::string(64, '\0')), QString("tensor 't': 0 dimensions (ggml has 1 to 4)"));
    GgufWriter empty;
    empty.header(1, 0).tensor("t", {0}, 0, 0);
    QCOMPARE(openError(empty.bytes() + std::string(64, '\0')), QString("tensor 't': size 0 of dimension 0 is empty"));
    GgufWriter split;
    split.header(1, 0).tensor("t", {16}, 3, 0);
    QCOMPARE(openError(split.bytes() + std::string(64, '\0')),
             QString("tensor 't': its rows of 16 values do not divide into Q4_1's blocks of 32"));
    GgufWriter misaligned;
    misaligned.header(1, 0).tensor("t", {1}, 0, 4);
    QCOMPARE(openError(misaligned.bytes() + std::string(64, '\0')),
             QString("tensor 't': offset 4 is not a multiple of the alignment 32"));
    GgufWriter unknownType;
    unknownType.header(1, 0).tensor("t", {1}, 77, 0);
    QCOMPARE(openError(unknownType.bytes() + std::string(64, '\0')),
             QString("tensor 't': ggml type 77 is not one ggml defines"));
    GgufWriter sameName;
    sameName.header(2, 0).tensor("t", {1}, 0, 0).tensor("t", {1}, 0, 32).align().data(std::string(64, '\0'));
    QCOMPARE(openError(sameName.bytes()), QString("tensor 't' is written twice"));
    // A file that is not there.
    try {
        GgufFile f(dir_.filePath("absent.gguf").toStdString());
        QFAIL("a missing file opened");
    } catch (const DataError& e) {
        QVERIFY2(std::string(e.what()).find("absent.gguf: cannot open") != std::string::npos, e.what());
    }
}

void TestGguf::anUnsupportedTypeIsRefusedByName()
{
    // Q4_K [256]: one block of 144 bytes; opened (it is a type ggml defines), refused when read.
    GgufWriter w;
    w.header(1, 0).tensor("blk.0.ffn_up.weight", {256}, 12, 0).align().data(std::string(144, '\0'));
    const GgufFile f(write("q4k.gguf", w.bytes()));
    QCOMPARE(GgufFile::typeName(f.require("blk.0.ffn_up.weight").type), std::string("Q4_K"));
    QVERIFY(!GgufFile::canDequantize(12));
    try {
        f.floats("blk.0.ffn_up.weight");
        QFAIL("Q4_K dequantized");
    } catch (const DataError& e) {
        QVERIFY2(std::string(e.what()).find(
                     "tensor 'blk.0.ffn_up.weight' is Q4_K, which the lab does not read (it reads F32, "
                     "F16, Q8_0 and Q4_1)") != std::string::npos,
                 e.what());
    }
    try {
        f.floats("nope");
        QFAIL("a missing tensor read");
    } catch (const DataError& e) {
        QVERIFY2(std::string(e.what()).find("no tensor 'nope'") != std::string::npos, e.what());
    }
}

QTEST_APPLESS_MAIN(TestGguf)
#include "test_gguf.moc"
