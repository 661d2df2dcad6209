#include "core/sweep/SweepFolder.h"

#include "core/platform/AtomicFile.h"
#include "core/sweep/SweepPlan.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace attnlab {

SweepFolder::SweepFolder(std::string path) : path_(std::move(path)) {}

std::string SweepFolder::pathFor(const std::string& storePath, const std::string& sweepId)
{
    const std::filesystem::path store = std::filesystem::absolute(storePath);
    return (store.parent_path() / "sweeps" / sweepId).lexically_normal().string();
}

bool SweepFolder::exists() const
{
    return std::filesystem::exists(file("sweep.json"));
}

std::string SweepFolder::file(const std::string& name) const { return path_ + "/" + name; }
std::string SweepFolder::configPath(int index) const { return file("run-" + std::to_string(index) + ".json"); }
std::string SweepFolder::logPath(int index) const { return file("run-" + std::to_string(index) + ".log"); }
std::string SweepFolder::resultPath(int index) const { return file("run-" + std::to_string(index) + ".out"); }
std::string SweepFolder::taskStorePath(int index) const { return file("task-" + std::to_string(index) + ".sqlite"); }
std::string SweepFolder::exitPath(int index) const { return file("task-" + std::to_string(index) + ".exit"); }

void SweepFolder::writeText(const std::string& path, const std::string& text)
{
    AtomicFile::replace(path, text);
}

std::string SweepFolder::readText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return {};
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void SweepFolder::write(const SweepPlan& plan, const std::string& executor, const std::string& storePath) const
{
    std::error_code error;
    std::filesystem::create_directories(path_, error);
    if (error)
        throw std::runtime_error(path_ + ": cannot create the sweep folder (" + error.message() + ")");
    nlohmann::json runs = nlohmann::json::array();
    for (const auto& run : plan.runs()) {
        runs.push_back({{"index", run.index}, {"key", run.key}, {"label", run.label()}});
        writeText(configPath(run.index), run.config.toJson());
    }
    const nlohmann::json manifest = {{"id", plan.id()},
                                     {"name", plan.spec().name},
                                     {"executor", executor},
                                     {"store", std::filesystem::absolute(storePath).lexically_normal().string()},
                                     {"spec", nlohmann::json::parse(plan.spec().toJson())},
                                     {"runs", runs}};
    writeText(file("sweep.json"), manifest.dump(2) + "\n");
}

SweepFolder::Manifest SweepFolder::read() const
{
    const std::string path = file("sweep.json");
    const std::string text = readText(path);
    if (text.empty())
        throw std::runtime_error(path + ": no such sweep (the id is printed when a sweep starts; give the same --db as then)");
    const auto j = nlohmann::json::parse(text, nullptr, false);
    Manifest m;
    try {
        m.id = j.at("id").get<std::string>();
        m.name = j.value("name", "");
        m.executor = j.at("executor").get<std::string>();
        m.store = j.at("store").get<std::string>();
        for (const auto& r : j.at("runs"))
            m.runs.push_back({r.at("index").get<int>(), r.at("key").get<std::string>(), r.at("label").get<std::string>()});
    } catch (const nlohmann::json::exception&) {
        throw std::runtime_error(path + ": not a sweep manifest (damaged? delete the folder and start the sweep again)");
    }
    return m;
}

} // namespace attnlab
