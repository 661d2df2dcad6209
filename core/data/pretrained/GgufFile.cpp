#include "core/data/pretrained/GgufFile.h"

#include "core/data/DataError.h"
#include "core/data/pretrained/HalfFloat.h"
#include "core/platform/MappedFile.h"

#include <cstring>
#include <limits>

namespace attnlab {

namespace {

// ggml's types (ggml.h's enum ggml_type, ggml.c's type_traits): values per block and bytes per block. Every type is
// known so a file's offsets can be checked, though only four are dequantized.
struct GgmlTypeTraits {
    std::uint32_t type;
    const char* name;
    std::uint64_t blockValues, blockBytes;
};
constexpr GgmlTypeTraits kGgmlTypes[] = {
    {0, "F32", 1, 4},         {1, "F16", 1, 2},         {2, "Q4_0", 32, 18},      {3, "Q4_1", 32, 20},
    {6, "Q5_0", 32, 22},      {7, "Q5_1", 32, 24},      {8, "Q8_0", 32, 34},      {9, "Q8_1", 32, 40},
    {10, "Q2_K", 256, 84},    {11, "Q3_K", 256, 110},   {12, "Q4_K", 256, 144},   {13, "Q5_K", 256, 176},
    {14, "Q6_K", 256, 210},   {15, "Q8_K", 256, 292},   {16, "IQ2_XXS", 256, 66}, {17, "IQ2_XS", 256, 74},
    {18, "IQ3_XXS", 256, 98}, {19, "IQ1_S", 256, 50},   {20, "IQ4_NL", 32, 18},   {21, "IQ3_S", 256, 110},
    {22, "IQ2_S", 256, 82},   {23, "IQ4_XS", 256, 136}, {24, "I8", 1, 1},         {25, "I16", 1, 2},
    {26, "I32", 1, 4},        {27, "I64", 1, 8},        {28, "F64", 1, 8},        {29, "IQ1_M", 256, 56},
    {30, "BF16", 1, 2},       {34, "TQ1_0", 256, 54},   {35, "TQ2_0", 256, 66},   {39, "MXFP4", 32, 17},
};

const GgmlTypeTraits* traitsOf(std::uint32_t type)
{
    for (const auto& t : kGgmlTypes)
        if (t.type == type)
            return &t;
    return nullptr;
}

constexpr std::uint32_t kF32 = 0, kF16 = 1, kQ4_1 = 3, kQ8_0 = 8;
constexpr int kMaxDims = 4; // GGML_MAX_DIMS
constexpr int kMaxArrayDepth = 8; // arrays of arrays: deeper is a damaged file, not a model
constexpr std::uint64_t kMaxAlignment = 1u << 20;

// Reads the header's fields in order, each checked against the bytes left: a cut-short file or a length that points
// past the end is an error naming what was being read.
class HeaderCursor {
public:
    HeaderCursor(const unsigned char* data, std::size_t size, const std::string& path)
        : data_(data), size_(size), path_(path)
    {
    }
    std::size_t at() const { return at_; }
    std::size_t left() const { return size_ - at_; }

    const unsigned char* take(std::size_t n, const std::string& what)
    {
        if (n > left())
            throw DataError(path_, 0,
                            "cut short: " + what + " needs " + std::to_string(n) + " bytes at byte " +
                                std::to_string(at_) + ", the file has " + std::to_string(left()) + " left");
        const unsigned char* p = data_ + at_;
        at_ += n;
        return p;
    }
    template<typename T> T read(const std::string& what)
    {
        T v;
        std::memcpy(&v, take(sizeof v, what), sizeof v); // little-endian, as every machine the lab builds for
        return v;
    }
    std::string string(const std::string& what)
    {
        const auto n = read<std::uint64_t>(what + "'s length");
        if (n > left())
            throw DataError(path_, 0,
                            what + ": a string of " + std::to_string(n) + " bytes at byte " + std::to_string(at_) +
                                " runs past the file's end (" + std::to_string(left()) + " bytes left)");
        const auto* p = take(static_cast<std::size_t>(n), what);
        return std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(n));
    }

private:
    const unsigned char* data_;
    std::size_t size_, at_ = 0;
    const std::string& path_;
};

std::size_t fixedSize(GgufValueType t)
{
    switch (t) {
    case GgufValueType::Uint8:
    case GgufValueType::Int8:
    case GgufValueType::Bool:
        return 1;
    case GgufValueType::Uint16:
    case GgufValueType::Int16:
        return 2;
    case GgufValueType::Uint32:
    case GgufValueType::Int32:
    case GgufValueType::Float32:
        return 4;
    case GgufValueType::Uint64:
    case GgufValueType::Int64:
    case GgufValueType::Float64:
        return 8;
    default:
        return 0; // STRING, ARRAY: variable
    }
}

GgufValueType valueTypeOf(std::uint32_t raw, const std::string& path, const std::string& where)
{
    if (raw > static_cast<std::uint32_t>(GgufValueType::Float64))
        throw DataError(path, 0, where + ": unknown value type " + std::to_string(raw) + " (GGUF defines 0 to 12)");
    return static_cast<GgufValueType>(raw);
}

// One scalar of type t into v (integer, real or text).
void readScalar(HeaderCursor& in, GgufValueType t, GgufValue& v, const std::string& where)
{
    switch (t) {
    case GgufValueType::Uint8:
        v.integer = in.read<std::uint8_t>(where);
        break;
    case GgufValueType::Int8:
        v.integer = in.read<std::int8_t>(where);
        break;
    case GgufValueType::Uint16:
        v.integer = in.read<std::uint16_t>(where);
        break;
    case GgufValueType::Int16:
        v.integer = in.read<std::int16_t>(where);
        break;
    case GgufValueType::Uint32:
        v.integer = in.read<std::uint32_t>(where);
        break;
    case GgufValueType::Int32:
        v.integer = in.read<std::int32_t>(where);
        break;
    case GgufValueType::Float32:
        v.real = in.read<float>(where);
        break;
    case GgufValueType::Bool:
        v.integer = in.read<std::uint8_t>(where) != 0;
        break;
    case GgufValueType::String:
        v.text = in.string(where);
        break;
    case GgufValueType::Uint64:
        v.unsignedBits = in.read<std::uint64_t>(where);
        v.integer = static_cast<std::int64_t>(v.unsignedBits);
        break;
    case GgufValueType::Int64:
        v.integer = in.read<std::int64_t>(where);
        break;
    case GgufValueType::Float64:
        v.real = in.read<double>(where);
        break;
    case GgufValueType::Array:
        break; // not a scalar
    }
}

GgufValue readValue(HeaderCursor& in, GgufValueType t, const std::string& path, const std::string& where, int depth)
{
    GgufValue v;
    v.type = t;
    if (t != GgufValueType::Array) {
        readScalar(in, t, v, where);
        return v;
    }
    if (depth >= kMaxArrayDepth)
        throw DataError(path, 0, where + ": arrays nested more than " + std::to_string(kMaxArrayDepth) + " deep");
    v.elementType = valueTypeOf(in.read<std::uint32_t>(where + "'s element type"), path, where);
    const auto n = in.read<std::uint64_t>(where + "'s length");
    // Every element takes at least a byte (a string its 8-byte length): a count the file cannot hold is refused
    // before anything is reserved for it.
    const std::size_t least =
        v.elementType == GgufValueType::String || v.elementType == GgufValueType::Array ? 8 : fixedSize(v.elementType);
    if (n > in.left() / least)
        throw DataError(path, 0,
                        where + ": an array of " + std::to_string(n) + " " + GgufFile::valueTypeName(v.elementType) +
                            " values at byte " + std::to_string(in.at()) + " runs past the file's end");
    v.count = static_cast<std::size_t>(n);
    const std::string element = where + "[]";
    for (std::size_t i = 0; i < v.count; ++i) {
        if (v.elementType == GgufValueType::Array) { // each inner array: its element type, length and values
            v.items.push_back(readValue(in, GgufValueType::Array, path, element, depth + 1));
            continue;
        }
        GgufValue e;
        readScalar(in, v.elementType, e, element);
        if (v.elementType == GgufValueType::String)
            v.texts.push_back(std::move(e.text));
        else if (v.elementType == GgufValueType::Float32 || v.elementType == GgufValueType::Float64)
            v.reals.push_back(e.real);
        else
            v.integers.push_back(e.integer);
    }
    return v;
}

std::string inQuotes(const std::string& s)
{
    return "'" + s + "'";
}

} // namespace

bool GgufValue::isInteger() const
{
    return type != GgufValueType::Float32 && type != GgufValueType::Float64 && type != GgufValueType::String &&
        type != GgufValueType::Array;
}

bool GgufValue::isReal() const
{
    return type == GgufValueType::Float32 || type == GgufValueType::Float64;
}

std::int64_t GgufTensor::elements() const
{
    std::int64_t n = 1;
    for (auto d : dims)
        n *= d;
    return n;
}

std::vector<std::int64_t> GgufTensor::shape() const
{
    return std::vector<std::int64_t>(dims.rbegin(), dims.rend());
}

std::string GgufFile::typeName(std::uint32_t type)
{
    const auto* t = traitsOf(type);
    return t ? t->name : "type " + std::to_string(type);
}

bool GgufFile::canDequantize(std::uint32_t type)
{
    return type == kF32 || type == kF16 || type == kQ8_0 || type == kQ4_1;
}

std::string GgufFile::valueTypeName(GgufValueType type)
{
    static const char* names[] = {"UINT8", "INT8",   "UINT16", "INT16",  "UINT32", "INT32",  "FLOAT32",
                                  "BOOL",  "STRING", "ARRAY",  "UINT64", "INT64",  "FLOAT64"};
    const auto i = static_cast<std::uint32_t>(type);
    return i < sizeof names / sizeof names[0] ? names[i] : "type " + std::to_string(i);
}

GgufFile::GgufFile(const std::string& path) : path_(path)
{
    try {
        file_ = std::make_unique<MappedFile>(path);
    } catch (const MappedFile::Failure& f) {
        throw DataError(path, 0, f.reason().empty() ? f.step() : f.step() + ": " + f.reason());
    }
    mapped_ = file_->data();
    size_ = file_->size();
    HeaderCursor in(mapped_, size_, path_);
    if (size_ < 4 || std::memcmp(mapped_, "GGUF", 4) != 0)
        throw DataError(path_, 0, "not a GGUF file: it does not start with the magic \"GGUF\"");
    in.take(4, "the magic");
    version_ = in.read<std::uint32_t>("the version");
    if (version_ != 2 && version_ != 3)
        throw DataError(path_, 0, "GGUF version " + std::to_string(version_) + ", the lab reads versions 2 and 3");
    const auto tensorCount = in.read<std::uint64_t>("the tensor count");
    const auto keyCount = in.read<std::uint64_t>("the metadata count");
    // A metadata pair takes at least 8 + 4 + 1 bytes and a tensor entry 8 + 4 + 8 + 4 + 8.
    if (keyCount > in.left() / 13 || tensorCount > in.left() / 32)
        throw DataError(path_, 0,
                        "its header claims " + std::to_string(keyCount) + " metadata values and " +
                            std::to_string(tensorCount) + " tensors, more than its " + std::to_string(size_) +
                            " bytes can hold");
    for (std::uint64_t i = 0; i < keyCount; ++i) {
        const std::string key = in.string("metadata key " + std::to_string(i));
        const std::string where = "metadata " + inQuotes(key);
        const auto type = valueTypeOf(in.read<std::uint32_t>(where + "'s type"), path_, where);
        GgufValue value = readValue(in, type, path_, where, 0);
        if (!metadata_.emplace(key, std::move(value)).second)
            throw DataError(path_, 0, where + " is written twice");
    }
    if (const GgufValue* a = find("general.alignment")) {
        if (a->type != GgufValueType::Uint32 || a->integer == 0 || (a->integer & (a->integer - 1)) != 0 ||
            static_cast<std::uint64_t>(a->integer) > kMaxAlignment)
            throw DataError(path_, 0,
                            "metadata 'general.alignment' must be a UINT32 power of two, not " +
                                (a->isInteger() ? std::to_string(a->integer) : valueTypeName(a->type)));
        alignment_ = static_cast<std::uint64_t>(a->integer);
    }
    tensors_.reserve(static_cast<std::size_t>(tensorCount));
    for (std::uint64_t i = 0; i < tensorCount; ++i) {
        GgufTensor t;
        t.name = in.string("tensor " + std::to_string(i) + "'s name");
        const std::string where = "tensor " + inQuotes(t.name);
        const auto dims = in.read<std::uint32_t>(where + "'s dimension count");
        if (dims < 1 || dims > kMaxDims)
            throw DataError(path_, 0, where + ": " + std::to_string(dims) + " dimensions (ggml has 1 to 4)");
        std::uint64_t elements = 1;
        for (std::uint32_t d = 0; d < dims; ++d) {
            const auto n = in.read<std::uint64_t>(where + "'s sizes");
            if (n == 0 || n > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) ||
                elements > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) / n)
                throw DataError(path_, 0,
                                where + ": size " + std::to_string(n) + " of dimension " + std::to_string(d) +
                                    (n == 0 ? " is empty" : " is too large"));
            elements *= n;
            t.dims.push_back(static_cast<std::int64_t>(n));
        }
        t.type = in.read<std::uint32_t>(where + "'s type");
        const auto* traits = traitsOf(t.type);
        if (!traits)
            throw DataError(path_, 0, where + ": ggml type " + std::to_string(t.type) + " is not one ggml defines");
        if (static_cast<std::uint64_t>(t.dims[0]) % traits->blockValues != 0)
            throw DataError(path_, 0,
                            where + ": its rows of " + std::to_string(t.dims[0]) + " values do not divide into " +
                                traits->name + "'s blocks of " + std::to_string(traits->blockValues));
        t.bytes = elements / traits->blockValues * traits->blockBytes;
        t.offset = in.read<std::uint64_t>(where + "'s offset");
        if (t.offset % alignment_ != 0)
            throw DataError(path_, 0,
                            where + ": offset " + std::to_string(t.offset) + " is not a multiple of the alignment " +
                                std::to_string(alignment_));
        if (!index_.emplace(t.name, tensors_.size()).second)
            throw DataError(path_, 0, where + " is written twice");
        tensors_.push_back(std::move(t));
    }
    dataStart_ = (in.at() + alignment_ - 1) / alignment_ * alignment_;
    if (dataStart_ > size_ && !tensors_.empty())
        throw DataError(path_, 0,
                        "cut short: the tensor data would start at byte " + std::to_string(dataStart_) +
                            ", past the file's " + std::to_string(size_) + " bytes");
    const std::uint64_t dataSize = size_ > dataStart_ ? size_ - dataStart_ : 0;
    for (const auto& t : tensors_)
        if (t.offset > dataSize || t.bytes > dataSize - t.offset)
            throw DataError(path_, 0,
                            "tensor " + inQuotes(t.name) + ": its " + std::to_string(t.bytes) + " bytes at offset " +
                                std::to_string(t.offset) + " run past the file's end (the data holds " +
                                std::to_string(dataSize) + " bytes)");
}

GgufFile::~GgufFile() = default;

const GgufValue* GgufFile::find(const std::string& key) const
{
    const auto it = metadata_.find(key);
    return it == metadata_.end() ? nullptr : &it->second;
}

namespace {

const GgufValue& requireKey(const GgufFile& file, const std::string& key)
{
    const GgufValue* v = file.find(key);
    if (!v)
        throw DataError(file.path(), 0, "missing metadata key " + inQuotes(key));
    return *v;
}

DataError wrongKind(const GgufFile& file, const std::string& key, const GgufValue& v, const std::string& wanted)
{
    std::string is = GgufFile::valueTypeName(v.type);
    if (v.type == GgufValueType::Array)
        is += " of " + GgufFile::valueTypeName(v.elementType);
    return DataError(file.path(), 0, "metadata " + inQuotes(key) + " is " + is + ", not " + wanted);
}

} // namespace

std::int64_t GgufFile::integer(const std::string& key) const
{
    const GgufValue& v = requireKey(*this, key);
    if (!v.isInteger())
        throw wrongKind(*this, key, v, "an integer");
    if (v.type == GgufValueType::Uint64 &&
        v.unsignedBits > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        throw DataError(path_, 0,
                        "metadata " + inQuotes(key) + " = " + std::to_string(v.unsignedBits) + " is too large");
    return v.integer;
}

double GgufFile::real(const std::string& key) const
{
    const GgufValue& v = requireKey(*this, key);
    if (v.isReal())
        return v.real;
    if (v.isInteger() && v.type != GgufValueType::Bool)
        return static_cast<double>(v.integer);
    throw wrongKind(*this, key, v, "a number");
}

const std::string& GgufFile::text(const std::string& key) const
{
    const GgufValue& v = requireKey(*this, key);
    if (v.type != GgufValueType::String)
        throw wrongKind(*this, key, v, "a STRING");
    return v.text;
}

const std::vector<std::string>& GgufFile::texts(const std::string& key) const
{
    const GgufValue& v = requireKey(*this, key);
    if (v.type != GgufValueType::Array || v.elementType != GgufValueType::String)
        throw wrongKind(*this, key, v, "an ARRAY of STRING");
    return v.texts;
}

const std::vector<std::int64_t>& GgufFile::integers(const std::string& key) const
{
    const GgufValue& v = requireKey(*this, key);
    if (v.type != GgufValueType::Array || v.elementType == GgufValueType::String ||
        v.elementType == GgufValueType::Array || v.elementType == GgufValueType::Float32 ||
        v.elementType == GgufValueType::Float64)
        throw wrongKind(*this, key, v, "an ARRAY of integers");
    return v.integers;
}

const GgufTensor* GgufFile::tensor(const std::string& name) const
{
    const auto it = index_.find(name);
    return it == index_.end() ? nullptr : &tensors_[it->second];
}

const GgufTensor& GgufFile::require(const std::string& name) const
{
    const GgufTensor* t = tensor(name);
    if (!t)
        throw DataError(path_, 0, "no tensor " + inQuotes(name));
    return *t;
}

const unsigned char* GgufFile::data(const GgufTensor& tensor) const
{
    return mapped_ + dataStart_ + tensor.offset;
}

void GgufFile::dequantize(const GgufTensor& tensor, float* out) const
{
    const unsigned char* p = data(tensor);
    const auto n = static_cast<std::size_t>(tensor.elements());
    const auto half = [](const unsigned char* b) {
        return halfToFloat(static_cast<std::uint16_t>(b[0] | (b[1] << 8)));
    };
    switch (tensor.type) {
    case kF32:
        std::memcpy(out, p, n * 4);
        return;
    case kF16:
        for (std::size_t i = 0; i < n; ++i)
            out[i] = half(p + 2 * i);
        return;
    case kQ8_0: // block_q8_0 { ggml_half d; int8_t qs[32]; }
        for (std::size_t b = 0; b < n / 32; ++b, p += 34) {
            const float d = half(p);
            const auto* q = reinterpret_cast<const std::int8_t*>(p + 2);
            for (int j = 0; j < 32; ++j)
                out[32 * b + j] = static_cast<float>(q[j]) * d;
        }
        return;
    case kQ4_1: // block_q4_1 { ggml_half d; ggml_half m; uint8_t qs[16]; }
        for (std::size_t b = 0; b < n / 32; ++b, p += 20) {
            const float d = half(p), m = half(p + 2);
            const unsigned char* q = p + 4;
            for (int j = 0; j < 16; ++j) {
                out[32 * b + j] = static_cast<float>(q[j] & 0x0F) * d + m;
                out[32 * b + j + 16] = static_cast<float>(q[j] >> 4) * d + m;
            }
        }
        return;
    default:
        throw DataError(path_, 0,
                        "tensor " + inQuotes(tensor.name) + " is " + typeName(tensor.type) +
                            ", which the lab does not read (it reads F32, F16, Q8_0 and Q4_1)");
    }
}

std::vector<float> GgufFile::floats(const std::string& name) const
{
    const GgufTensor& t = require(name);
    if (!canDequantize(t.type))
        dequantize(t, nullptr); // throws, naming the type
    std::vector<float> out(static_cast<std::size_t>(t.elements()));
    dequantize(t, out.data());
    return out;
}

} // namespace attnlab
