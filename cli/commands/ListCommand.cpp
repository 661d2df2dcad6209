#include "cli/commands/ListCommand.h"

#include "cli/CliFlags.h"
#include "core/config/Registry.h"
#include "core/data/install/DatasetManifest.h"
#include "core/training/PretrainedEncoder.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <ostream>

namespace attnlab {
namespace {

nlohmann::json entriesJson(const std::vector<RegistryEntry>& entries, bool withTask)
{
    nlohmann::json a = nlohmann::json::array();
    for (const auto& e : entries) {
        nlohmann::json o = {{"id", e.id}, {"name", e.name}, {"description", e.description}};
        if (withTask)
            o["task"] = taskKindId(e.task);
        a.push_back(o);
    }
    return a;
}

// A model with what it trains on and can do: a script picks the models that explain or take positions.
nlohmann::json entriesJson(const std::vector<ModelSpec>& models)
{
    nlohmann::json a = nlohmann::json::array();
    for (const auto& m : models) {
        nlohmann::json tasks = nlohmann::json::array();
        for (TaskKind t :
             {TaskKind::Classification, TaskKind::Regression, TaskKind::Translation, TaskKind::LanguageModel})
            if (m.servesTask(t))
                tasks.push_back(taskKindId(t));
        a.push_back({{"id", m.id},
                     {"name", m.name},
                     {"description", m.description},
                     {"positions", m.positions},
                     {"tasks", tasks},
                     {"attention", m.can.attention},
                     {"options", m.options}});
    }
    return a;
}

void printEntries(std::ostream& out, const char* title, const std::vector<RegistryEntry>& entries)
{
    out << title << ":\n";
    for (const auto& e : entries)
        out << "  " << std::left << std::setw(22) << e.id << e.description << "\n";
}

void printEntries(std::ostream& out, const char* title, const std::vector<ModelSpec>& models)
{
    out << title << ":\n";
    for (const auto& m : models) {
        out << "  " << std::left << std::setw(22) << m.id << m.description;
        if (!m.positions.empty()) {
            out << " [positions:";
            for (const auto& p : m.positions)
                out << " " << p;
            out << "]";
        }
        out << "\n";
    }
}

// Pretrained models: the manifests of task "pretrained", each with where it is installed, if it is.
nlohmann::json pretrainedJson()
{
    nlohmann::json a = nlohmann::json::array();
    for (const auto& m : DatasetManifest::all()) {
        if (m.task != "pretrained")
            continue;
        std::string folder;
        try {
            folder = PretrainedEncoder::locate(m.id);
        } catch (const std::exception&) {
        }
        a.push_back({{"id", m.id}, {"name", m.name}, {"license", m.license}, {"bytes", m.totalBytes()},
                     {"installed", folder.empty() ? nlohmann::json(nullptr) : nlohmann::json(folder)}});
    }
    return a;
}

} // namespace

int ListCommand::run(const std::vector<std::string>& args)
{
    const CliFlags flags(args, {}, {"--json"});
    if (flags.has("--json")) {
        out_ << nlohmann::json {{"datasets", entriesJson(Registry::datasets(), true)},
                                {"models", entriesJson(Registry::models())},
                                {"positions", entriesJson(Registry::positions(), false)},
                                {"pretrained", pretrainedJson()}}
                    .dump()
             << "\n";
        return 0;
    }
    printEntries(out_, "datasets", Registry::datasets());
    printEntries(out_, "models", Registry::models());
    printEntries(out_, "positions", Registry::positions());
    out_ << "pretrained models (explain --pretrained ID; a language model's generate and heads too; fetch ID or "
            "import ID FILE to install):\n";
    for (const auto& m : pretrainedJson()) {
        const std::string id = m["id"];
        out_ << "  " << id << std::string(id.size() < 22 ? 22 - id.size() : 1, ' ') << m["name"].get<std::string>() << " ["
             << (m["installed"].is_null() ? std::string("not installed") : "installed: " + m["installed"].get<std::string>()) << "]\n";
    }
    return 0;
}

} // namespace attnlab
