#include "core/data/install/DatasetManifest.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>

namespace attnlab {

const std::vector<std::pair<std::string, std::string>>& embeddedManifests(); // generated (cmake/EmbedJsonFiles.cmake)

std::int64_t DatasetManifest::totalBytes() const
{
    std::int64_t total = 0;
    for (const auto& f : files)
        total += std::max<std::int64_t>(f.bytes, 0);
    return total;
}

std::string DatasetManifest::relativePath(const ManifestFile& file) const
{
    const std::string prefix = folder.empty() ? std::string() : folder + "/";
    if (!prefix.empty() && file.path.compare(0, prefix.size(), prefix) == 0)
        return file.path.substr(prefix.size());
    return file.path;
}

DatasetManifest DatasetManifest::parse(const std::string& text, const std::string& source)
{
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) { // parse_error, or out_of_range for a number like 1e999
        throw std::runtime_error(source + ": not valid JSON (" + e.what() + ")");
    }
    auto string = [&](const nlohmann::json& o, const char* key, bool required) -> std::string {
        if (!o.contains(key) || o.at(key).is_null()) {
            if (required)
                throw std::runtime_error(source + ": key '" + key + "' is missing");
            return {};
        }
        if (!o.at(key).is_string())
            throw std::runtime_error(source + ": key '" + key + "' must be a string");
        return o.at(key).get<std::string>();
    };
    if (!j.is_object())
        throw std::runtime_error(source + ": expected a JSON object");
    DatasetManifest m;
    m.id = string(j, "id", true);
    m.name = string(j, "name", false);
    m.task = string(j, "task", false);
    m.folder = string(j, "folder", false);
    m.upstream = string(j, "upstream", false);
    m.license = string(j, "license", false);
    m.citation = string(j, "citation", false);
    if (j.contains("files")) {
        if (!j.at("files").is_array())
            throw std::runtime_error(source + ": key 'files' must be an array");
        for (const auto& f : j.at("files")) {
            ManifestFile file;
            file.path = string(f, "path", true);
            file.sha256 = string(f, "sha256", true);
            file.url = string(f, "url", false);
            if (f.contains("bytes") && f.at("bytes").is_number_integer())
                file.bytes = f.at("bytes").get<std::int64_t>();
            if (file.path.empty() || file.path[0] == '/' || file.path.find("..") != std::string::npos)
                throw std::runtime_error(source + ": file path '" + file.path + "' must be relative, without '..'");
            if (file.sha256.size() != 64)
                throw std::runtime_error(source + ": sha256 of '" + file.path + "' must be 64 hex digits");
            m.files.push_back(std::move(file));
        }
    }
    if (j.contains("archive")) {
        const auto& a = j.at("archive");
        if (!a.is_object())
            throw std::runtime_error(source + ": key 'archive' must be an object {path, url, sha256, bytes}");
        m.archive.path = string(a, "path", true);
        m.archive.url = string(a, "url", true);
        m.archive.sha256 = string(a, "sha256", true);
        if (a.contains("bytes") && a.at("bytes").is_number_integer())
            m.archive.bytes = a.at("bytes").get<std::int64_t>();
        if (m.archive.path.empty() || m.archive.path.find('/') != std::string::npos || m.archive.sha256.size() != 64)
            throw std::runtime_error(source + ": archive needs a file name without '/' and a sha256 of 64 hex digits");
    }
    return m;
}

const std::vector<DatasetManifest>& DatasetManifest::all()
{
    static const std::vector<DatasetManifest> manifests = [] {
        std::vector<DatasetManifest> list;
        for (const auto& [file, text] : embeddedManifests())
            list.push_back(parse(text, "datasets/" + file + ".json"));
        std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
        return list;
    }();
    return manifests;
}

const DatasetManifest* DatasetManifest::find(const std::string& id)
{
    for (const auto& m : all())
        if (m.id == id)
            return &m;
    return nullptr;
}

std::string DatasetManifest::idList()
{
    std::string ids;
    for (const auto& m : all())
        ids += (ids.empty() ? "" : ", ") + m.id;
    return ids;
}

} // namespace attnlab
