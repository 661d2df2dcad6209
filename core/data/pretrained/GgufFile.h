#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace attnlab {

class MappedFile;

// The value types of GGUF's metadata, numbered as the format numbers them.
enum class GgufValueType : std::uint32_t {
    Uint8 = 0,
    Int8 = 1,
    Uint16 = 2,
    Int16 = 3,
    Uint32 = 4,
    Int32 = 5,
    Float32 = 6,
    Bool = 7,
    String = 8,
    Array = 9,
    Uint64 = 10,
    Int64 = 11,
    Float64 = 12
};

// One metadata value. An integer or bool is in `integer` (a UINT64 above INT64_MAX keeps its bits in `unsignedBits`),
// a float in `real`, a string in `text`; an array's elements are in the vector of their kind, an array of arrays in
// `items`.
struct GgufValue {
    GgufValueType type = GgufValueType::Uint8;
    GgufValueType elementType = GgufValueType::Uint8; // an array's
    std::int64_t integer = 0;
    std::uint64_t unsignedBits = 0;
    double real = 0.0;
    std::string text;
    std::vector<std::int64_t> integers;
    std::vector<double> reals;
    std::vector<std::string> texts;
    std::vector<GgufValue> items;
    std::size_t count = 0; // an array's length
    bool isInteger() const; // any integer type or bool
    bool isReal() const; // FLOAT32 or FLOAT64
};

// One tensor's entry: its name, ggml type, sizes (ggml's order: dims[0] the fastest-varying, so a matrix of R rows
// and C columns is {C, R}) and where its bytes lie, relative to the data section.
struct GgufTensor {
    std::string name;
    std::uint32_t type = 0;
    std::vector<std::int64_t> dims;
    std::uint64_t offset = 0;
    std::uint64_t bytes = 0;
    std::int64_t elements() const;
    std::vector<std::int64_t> shape() const; // row-major, slowest first (LibTorch's order): {R, C}
};

// llama.cpp's model file, GGUF version 2 or 3 (https://github.com/ggml-org/ggml/blob/master/docs/gguf.md): the magic
// "GGUF", a version, the tensor and metadata counts, the metadata as key/typed-value pairs, each tensor's name, sizes,
// type and offset, then the tensors' bytes from the next multiple of `general.alignment` (32 by default), each at a
// multiple of it. All little-endian. Written by hand as SafetensorsFile is: Debian packages no GGUF reader (ggml is
// not in bookworm), and the format is a few hundred lines of fixed structs.
//
// The file is mapped, not read: opening parses the header and copies nothing; floats() or dequantize() widen a
// tensor into float32 once, straight into the caller's buffer. Everything is checked when the file opens: every
// length and count against the bytes left, a known value type, unique keys and tensor names, 1 to 4 sizes of at
// least 1 whose product neither overflows nor splits a quantized block, a known ggml type, an aligned offset and a
// tensor that ends inside the file. A problem is a DataError naming the file and the key or tensor.
//
// Dequantized as ggml's reference code defines it (ggml-quants.c, dequantize_row_*): F32 as is, F16 widened, Q8_0
// (blocks of 32: an f16 scale d, 32 int8 q; x = d q), Q4_1 (blocks of 32: f16 d and m, 16 bytes of nibbles; x = d q +
// m, low nibbles the first 16 values, high nibbles the last 16). Another type is refused by its name.
class GgufFile {
public:
    explicit GgufFile(const std::string& path);
    ~GgufFile();
    GgufFile(const GgufFile&) = delete;
    GgufFile& operator=(const GgufFile&) = delete;

    const std::string& path() const { return path_; }
    std::uint32_t version() const { return version_; }
    std::uint64_t alignment() const { return alignment_; }
    std::uint64_t dataStart() const { return dataStart_; } // the file offset of the data section
    std::size_t fileSize() const { return size_; }

    const std::map<std::string, GgufValue>& metadata() const { return metadata_; }
    const GgufValue* find(const std::string& key) const;
    // A metadata value of the expected kind, or a DataError naming the file and the key ("missing metadata key
    // 'llama.block_count'", "... is a STRING, not an integer").
    std::int64_t integer(const std::string& key) const;
    double real(const std::string& key) const; // a float, or an integer as a float
    const std::string& text(const std::string& key) const;
    const std::vector<std::string>& texts(const std::string& key) const; // an array of strings
    const std::vector<std::int64_t>& integers(const std::string& key) const; // an array of integers

    const std::vector<GgufTensor>& tensors() const { return tensors_; } // in the file's order
    const GgufTensor* tensor(const std::string& name) const;
    // The tensor named, or a DataError "no tensor 'blk.3.attn_q.weight'".
    const GgufTensor& require(const std::string& name) const;
    const unsigned char* data(const GgufTensor& tensor) const; // valid while this object lives

    // The tensor as float32, `out` holding elements() values in row-major order. Throws a DataError naming the file,
    // the tensor and its type for a type the lab does not read.
    void dequantize(const GgufTensor& tensor, float* out) const;
    std::vector<float> floats(const std::string& name) const;

    // ggml's names of its types ("Q4_1", "F32"); "type 42" for a number it does not know.
    static std::string typeName(std::uint32_t type);
    static bool canDequantize(std::uint32_t type); // F32, F16, Q8_0, Q4_1
    static std::string valueTypeName(GgufValueType type);

private:
    std::string path_;
    std::unique_ptr<MappedFile> file_; // core/platform: the mapping, released with this object
    const unsigned char* mapped_ = nullptr;
    std::size_t size_ = 0;
    std::uint32_t version_ = 0;
    std::uint64_t alignment_ = 32;
    std::uint64_t dataStart_ = 0;
    std::map<std::string, GgufValue> metadata_;
    std::vector<GgufTensor> tensors_;
    std::map<std::string, std::size_t> index_;
};

} // namespace attnlab
