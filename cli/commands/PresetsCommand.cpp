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
        // The window's lessons: presets trained side by side, or a pretrained model explored (resources/scenarios).
        nlohmann::json list = nlohmann::json::array();
        for (const auto& s : TeachingScenario::all()) {
            nlohmann::json presets = nlohmann::json::array();
            for (const TrainPreset* p : s.presets)
                presets.push_back(p->name);
            nlohmann::json lesson = {{"id", s.id}, {"title", s.title}, {"description", s.description}, {"lesson", s.lesson}, {"presets", presets}};
            nlohmann::json real = nlohmann::json::array();
            for (const TrainPreset* p : s.realPresets)
                real.push_back(p->name);
            if (!s.realPresets.empty())
                lesson["real_data"] = {{"title", s.realTitle}, {"lesson", s.realLesson}, {"presets", real}};
            if (s.explore)
                lesson["explore"] = {{"model", s.explore->model},
                                     {"view", s.explore->view},
                                     {"prompt", s.explore->prompt},
                                     {"ablate", s.explore->ablate},
                                     {"ablation", s.explore->ablateMean ? "mean" : "zero"},
                                     {"measure", s.explore->measureCopying}};
            list.push_back(lesson);
            if (!flags.has("--json")) {
                out_ << std::left << std::setw(24) << s.id << " " << s.title << ": "
                     << (s.explore ? "explores " + s.explore->model + " (" + s.explore->view + " view), nothing trained"
                                   : presets.dump())
                     << "\n";
                if (!s.realPresets.empty())
                    out_ << std::left << std::setw(24) << "" << " " << s.realTitle << ": " << real.dump() << "\n";
            }
        }
        if (flags.has("--json"))
            out_ << list.dump() << "\n";
        return 0;
    }
    if (flags.has("--json")) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& p : TrainPreset::all())
        {
            nlohmann::json item = {{"name", p.name}, {"description", p.description}, {"repeats", p.repeats},
                                   {"config", nlohmann::json::parse(p.config.toJson())}};
            if (!p.expected.empty())
                item["expected"] = {{"metric", p.expected.metric}, {"mean", p.expected.mean}, {"std", p.expected.stdDev},
                                    {"runs", p.expected.runs}, {"source", p.expected.source}, {"text", p.expected.text()}};
            list.push_back(item);
        }
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
