#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace attnlab {

class MappedFile;

// One tensor of a .safetensors file: its name, element type, shape and bytes within the file's data.
struct SafetensorsEntry {
    std::string name;
    std::string dtype;                 // "F32", "F16", "BF16", "I64", ... as the file writes it
    std::vector<std::int64_t> shape;
    std::size_t begin = 0, end = 0;    // byte offsets relative to the data section (after the header)
    std::size_t elementSize = 0;       // bytes per element of dtype
    std::int64_t elements() const;
};

// Hugging Face's safetensors format (https://huggingface.co/docs/safetensors): an 8-byte little-endian header
// length N, N bytes of a JSON object {name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__": {...}},
// then the tensors' raw little-endian bytes. Written by hand: Debian packages no C or C++ reader of it (only
// python3-safetensors' Rust, with no C API). The file is mapped, not read, so opening a 90 MB model costs a
// header parse and tensors are copied only when asked for.
//
// Everything is checked when the file opens, as the reference reader does: the header's length within the
// file and at most 100 MB, JSON that is an object of objects, a known dtype, a shape of non-negative integers,
// offsets that lie inside the data, cover it exactly with no gap or overlap, and hold shape's product times the
// dtype's size. A problem is a DataError naming the file and the tensor (or the header).
class SafetensorsFile {
public:
    explicit SafetensorsFile(const std::string& path);
    ~SafetensorsFile();
    SafetensorsFile(const SafetensorsFile&) = delete;
    SafetensorsFile& operator=(const SafetensorsFile&) = delete;

    const std::string& path() const { return path_; }
    const std::vector<SafetensorsEntry>& entries() const { return entries_; } // in the order of their bytes
    const std::map<std::string, std::string>& metadata() const { return metadata_; }
    const SafetensorsEntry* find(const std::string& name) const;

    // The raw bytes of a tensor (little-endian, row-major), valid while this object lives.
    const unsigned char* data(const SafetensorsEntry& entry) const;
    // A tensor as float32 values: F32 copied, F16 and BF16 widened, F64 narrowed. Throws a DataError naming the
    // file and tensor for another dtype, and for a missing name.
    std::vector<float> floats(const std::string& name) const;

    // The bytes per element of a dtype name, 0 when it is not one the format defines.
    static std::size_t dtypeSize(const std::string& dtype);

private:
    void parseHeader(const std::string& header, std::size_t dataSize);

    std::string path_;
    std::unique_ptr<MappedFile> file_; // core/platform: the mapping, released with this object
    const unsigned char* mapped_ = nullptr;
    std::size_t size_ = 0;
    std::size_t dataStart_ = 0;
    std::vector<SafetensorsEntry> entries_;
    std::map<std::string, std::size_t> index_;
    std::map<std::string, std::string> metadata_;
};

} // namespace attnlab
