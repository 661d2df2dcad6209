#include "cli/commands/PresetsCommand.h"

#include "cli/CliFlags.h"
#include "core/config/TeachingScenario.h"
#include "core/config/TrainPreset.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <ostream>

namespace attnlab {

int PresetsCommand::run(const std::vector<std::string>& args)
{
    const CliFlags flags(args, {}, {"--json", "--lessons"});
    if (flags.has("--lessons")) {
        // The window's lessons: presets trained side by side (resources/scenarios).
        nlohmann::json list = nlohmann::json::array();
        for (const auto& s : TeachingScenario::all()) {
            nlohmann::json presets = nlohmann::json::array();
            for (const TrainPreset* p : s.presets)
                presets.push_back(p->name);
            list.push_back({{"id", s.id}, {"title", s.title}, {"description", s.description}, {"lesson", s.lesson}, {"presets", presets}});
            if (!flags.has("--json"))
                out_ << std::left << std::setw(24) << s.id << " " << s.title << ": " << presets.dump() << "\n";
        }
        if (flags.has("--json"))
            out_ << list.dump() << "\n";
        return 0;
    }
    if (flags.has("--json")) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& p : TrainPreset::all())
            list.push_back({{"name", p.name}, {"description", p.description}, {"repeats", p.repeats},
                            {"config", nlohmann::json::parse(p.config.toJson())}});
        out_ << list.dump() << "\n";
        return 0;
    }
    for (const auto& p : TrainPreset::all())
        out_ << std::left << std::setw(38) << p.name << " " << p.description << " (" << p.config.dataset << ", "
             << (p.config.epochs > 0 ? std::to_string(p.config.epochs) + " epochs" : std::to_string(p.config.steps) + " steps")
             << ", " << p.repeats << (p.repeats == 1 ? " run" : " runs") << ")\n";
    return 0;
}

} // namespace attnlab
