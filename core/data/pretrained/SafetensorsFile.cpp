#include "core/data/pretrained/SafetensorsFile.h"

#include "core/data/DataError.h"
#include "core/data/pretrained/HalfFloat.h"
#include "core/data/pretrained/PretrainedJson.h"
#include "core/platform/JsonInteger.h"
#include "core/platform/MappedFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

namespace attnlab {

namespace {

constexpr std::uint64_t kMaxHeader = 100u * 1000u * 1000u; // the reference reader's limit

} // namespace

std::int64_t SafetensorsEntry::elements() const
{
    std::int64_t n = 1;
    for (auto d : shape)
        n *= d;
    return n;
}

std::size_t SafetensorsFile::dtypeSize(const std::string& dtype)
{
    static const std::map<std::string, std::size_t> sizes = {
        {"BOOL", 1}, {"U8", 1}, {"I8", 1}, {"F8_E5M2", 1}, {"F8_E4M3", 1}, {"I16", 2}, {"U16", 2}, {"F16", 2},
        {"BF16", 2}, {"I32", 4}, {"U32", 4}, {"F32", 4}, {"F64", 8}, {"I64", 8}, {"U64", 8}};
    const auto it = sizes.find(dtype);
    return it == sizes.end() ? 0 : it->second;
}

SafetensorsFile::SafetensorsFile(const std::string& path) : path_(path)
{
    try {
        file_ = std::make_unique<MappedFile>(path);
    } catch (const MappedFile::Failure& f) {
        throw DataError(path, 0, f.reason().empty() ? f.step() : f.step() + ": " + f.reason());
    }
    size_ = file_->size();
    if (size_ < 8)
        throw DataError(path, 0, "not a safetensors file: " + std::to_string(size_) + " bytes, shorter than its 8-byte header length");
    mapped_ = file_->data();
    try {
        std::uint64_t headerLength = 0;
        for (int i = 7; i >= 0; --i) // little-endian u64
            headerLength = (headerLength << 8) | mapped_[i];
        if (headerLength > kMaxHeader || headerLength > size_ - 8)
            throw DataError(path, 0, "not a safetensors file: its header length " + std::to_string(headerLength) +
                                         " is beyond the file's " + std::to_string(size_) + " bytes" +
                                         (headerLength > kMaxHeader ? " (or the 100 MB limit)" : ""));
        dataStart_ = 8 + static_cast<std::size_t>(headerLength);
        parseHeader(std::string(reinterpret_cast<const char*>(mapped_) + 8, static_cast<std::size_t>(headerLength)),
                    size_ - dataStart_);
    } catch (...) {
        file_.reset();
        mapped_ = nullptr;
        throw;
    }
}

SafetensorsFile::~SafetensorsFile() = default;

void SafetensorsFile::parseHeader(const std::string& header, std::size_t dataSize)
{
    const nlohmann::json j = PretrainedJson::parse(header, path_, "header");
    if (!j.is_object())
        throw DataError(path_, 0, "header is not a JSON object");
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string& name = it.key();
        const auto& v = it.value();
        if (name == "__metadata__") {
            if (!v.is_object())
                throw DataError(path_, 0, "__metadata__ is not an object of strings");
            for (auto m = v.begin(); m != v.end(); ++m) {
                if (!m.value().is_string())
                    throw DataError(path_, 0, "__metadata__ \"" + m.key() + "\" is not a string");
                metadata_[m.key()] = m.value().get<std::string>();
            }
            continue;
        }
        const std::string where = "tensor \"" + name + "\": ";
        if (!v.is_object())
            throw DataError(path_, 0, where + "not an object with dtype, shape and data_offsets");
        SafetensorsEntry e;
        e.name = name;
        if (!v.contains("dtype") || !v["dtype"].is_string())
            throw DataError(path_, 0, where + "no dtype");
        e.dtype = v["dtype"].get<std::string>();
        e.elementSize = dtypeSize(e.dtype);
        if (e.elementSize == 0)
            throw DataError(path_, 0, where + "unknown dtype \"" + e.dtype + "\"");
        if (!v.contains("shape") || !v["shape"].is_array())
            throw DataError(path_, 0, where + "no shape (a list of sizes)");
        // The tensor's byte count, overflow-checked: a shape of huge sizes must not wrap around to a small one.
        std::uint64_t bytes = e.elementSize;
        for (const auto& d : v["shape"]) {
            const auto size = JsonInteger::of<std::int64_t>(d);
            if (!size || *size < 0)
                throw DataError(path_, 0, where + "shape holds " + d.dump() + ", not a size");
            e.shape.push_back(*size);
            if (*size != 0 && bytes > std::numeric_limits<std::uint64_t>::max() / static_cast<std::uint64_t>(*size))
                throw DataError(path_, 0, where + "shape " + v["shape"].dump() + " is too large");
            bytes *= static_cast<std::uint64_t>(*size);
        }
        const auto& offsets = v.contains("data_offsets") ? v["data_offsets"] : nlohmann::json();
        if (!offsets.is_array() || offsets.size() != 2)
            throw DataError(path_, 0, where + "data_offsets is not [begin, end]");
        const auto begin = JsonInteger::of<std::uint64_t>(offsets[0]);
        const auto end = JsonInteger::of<std::uint64_t>(offsets[1]);
        if (!begin || !end || *begin > *end || *end > dataSize)
            throw DataError(path_, 0, where + "data_offsets " + offsets.dump() + " lie outside the " +
                                          std::to_string(dataSize) + " bytes of data");
        if (*end - *begin != bytes)
            throw DataError(path_, 0, where + "data_offsets " + offsets.dump() + " hold " + std::to_string(*end - *begin) +
                                          " bytes, but " + e.dtype + " " + v["shape"].dump() + " needs " + std::to_string(bytes));
        e.begin = static_cast<std::size_t>(*begin);
        e.end = static_cast<std::size_t>(*end);
        entries_.push_back(std::move(e));
    }
    // The tensors must tile the data: sorted by offset, each starts where the previous ended, the last at its end.
    std::sort(entries_.begin(), entries_.end(),
              [](const SafetensorsEntry& a, const SafetensorsEntry& b) { return a.begin != b.begin ? a.begin < b.begin : a.end < b.end; });
    std::size_t at = 0;
    for (const auto& e : entries_) {
        if (e.begin != at)
            throw DataError(path_, 0, "tensor \"" + e.name + "\": starts at byte " + std::to_string(e.begin) + " of the data, " +
                                          (e.begin < at ? "inside the tensor before it" : "leaving a gap after byte " + std::to_string(at)));
        at = e.end;
    }
    if (at != dataSize)
        throw DataError(path_, 0, "the tensors end at byte " + std::to_string(at) + " of the data, but the file holds " +
                                      std::to_string(dataSize) + " bytes after its header");
    for (std::size_t i = 0; i < entries_.size(); ++i)
        index_[entries_[i].name] = i;
}

const SafetensorsEntry* SafetensorsFile::find(const std::string& name) const
{
    const auto it = index_.find(name);
    return it == index_.end() ? nullptr : &entries_[it->second];
}

const unsigned char* SafetensorsFile::data(const SafetensorsEntry& entry) const { return mapped_ + dataStart_ + entry.begin; }

std::vector<float> SafetensorsFile::floats(const std::string& name) const
{
    const SafetensorsEntry* e = find(name);
    if (!e)
        throw DataError(path_, 0, "no tensor \"" + name + "\"");
    const auto n = static_cast<std::size_t>(e->elements());
    const unsigned char* p = data(*e);
    std::vector<float> out(n);
    if (e->dtype == "F32") {
        std::memcpy(out.data(), p, n * 4);
    } else if (e->dtype == "F16" || e->dtype == "BF16") {
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint16_t h = static_cast<std::uint16_t>(p[2 * i] | (p[2 * i + 1] << 8));
            if (e->dtype == "F16") {
                out[i] = halfToFloat(h);
            } else {
                const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16; // bf16 is float32's upper half
                std::memcpy(&out[i], &bits, 4);
            }
        }
    } else if (e->dtype == "F64") {
        for (std::size_t i = 0; i < n; ++i) {
            double d;
            std::memcpy(&d, p + 8 * i, 8);
            out[i] = static_cast<float>(d);
        }
    } else {
        throw DataError(path_, 0, "tensor \"" + name + "\": dtype " + e->dtype + " is not a floating-point type");
    }
    return out;
}

} // namespace attnlab
