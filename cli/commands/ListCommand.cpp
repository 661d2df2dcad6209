#include "cli/commands/ListCommand.h"

#include "cli/CliFlags.h"
#include "core/config/Registry.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <ostream>

namespace attnlab {
namespace {

nlohmann::json entriesJson(const std::vector<RegistryEntry>& entries)
{
    nlohmann::json a = nlohmann::json::array();
    for (const auto& e : entries) {
        nlohmann::json o = {{"id", e.id}, {"name", e.name}, {"description", e.description}};
        if (!e.positions.empty())
            o["positions"] = e.positions;
        a.push_back(o);
    }
    return a;
}

void printEntries(std::ostream& out, const char* title, const std::vector<RegistryEntry>& entries)
{
    out << title << ":\n";
    for (const auto& e : entries) {
        out << "  " << std::left << std::setw(22) << e.id << e.description;
        if (!e.positions.empty()) {
            out << " [positions:";
            for (const auto& p : e.positions)
                out << " " << p;
            out << "]";
        }
        out << "\n";
    }
}

} // namespace

int ListCommand::run(const std::vector<std::string>& args)
{
    const CliFlags flags(args, {}, {"--json"});
    if (flags.has("--json")) {
        out_ << nlohmann::json{{"datasets", entriesJson(Registry::datasets())}, {"models", entriesJson(Registry::models())},
                               {"positions", entriesJson(Registry::positions())}}.dump()
             << "\n";
        return 0;
    }
    printEntries(out_, "datasets", Registry::datasets());
    printEntries(out_, "models", Registry::models());
    printEntries(out_, "positions", Registry::positions());
    return 0;
}

} // namespace attnlab
