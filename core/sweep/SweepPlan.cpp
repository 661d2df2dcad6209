#include "core/sweep/SweepPlan.h"

#include "core/config/Registry.h"
#include "core/config/TrainPreset.h"
#include "core/data/install/Sha256.h"
#include "core/store/RunStore.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace attnlab {
namespace {

template<typename Entry> void checkId(const std::vector<Entry>& list, const std::string& key, const std::string& id)
{
    if (!Registry::find(list, id))
        throw std::invalid_argument("sweep: " + key + " '" + id + "' is unknown (known: " + Registry::idList(list) +
                                    "; attnlab-cli list)");
}

// Why this combination cannot run, or "" when it can.
std::string problemOf(const TrainConfig& c)
{
    const ModelSpec* model = Registry::model(c.model.model);
    if (!model->takesPosition(c.model.position)) {
        std::string takes;
        for (const auto& p : model->positions)
            takes += (takes.empty() ? "" : ", ") + p;
        return "model '" + model->id + "' takes position " + takes + " only, not '" + c.model.position + "'";
    }
    return c.validate(); // names a model of another task first
}

} // namespace

std::string SweepRun::label() const
{
    std::string text = config.dataset + " " + config.model.model + "/" + config.model.position + " seed " +
                       std::to_string(config.seed);
    for (const auto& [key, value] : settings)
        if (key != "dataset" && key != "model" && key != "position" && key != "seed")
            text += " " + key + "=" + (value.size() > 1 && value.front() == '"' ? value.substr(1, value.size() - 2) : value);
    if (!preset.empty())
        text += " [" + preset + "]";
    return text;
}

SweepPlan SweepPlan::expand(const SweepSpec& spec)
{
    SweepPlan plan;
    plan.spec_ = spec;
    const auto base = nlohmann::json::parse(spec.baseJson);
    bool seedAxis = false, positionGiven = base.contains("position");
    for (const auto& axis : spec.axes) {
        seedAxis = seedAxis || axis.first == "seed";
        positionGiven = positionGiven || axis.first == "position";
    }
    const std::vector<std::string> presets = spec.presets.empty() ? std::vector<std::string>{""} : spec.presets;
    std::map<std::string, int> seen; // key -> index of the run that has it
    for (const auto& presetName : presets) {
        const TrainPreset* preset = presetName.empty() ? nullptr : TrainPreset::find(presetName);
        if (!presetName.empty() && !preset)
            throw std::invalid_argument("sweep: preset '" + presetName + "' is unknown (attnlab-cli presets)");
        const TrainConfig start = preset ? preset->config : TrainConfig{};
        const int repeats = seedAxis ? 1 : spec.repeats > 0 ? spec.repeats : preset ? preset->repeats : 1;
        // An odometer over the axes: the last one turns fastest.
        std::vector<std::size_t> at(spec.axes.size(), 0);
        for (bool more = true; more;) {
            auto j = nlohmann::json::parse(start.toJson());
            std::vector<std::pair<std::string, std::string>> settings;
            bool lrGiven = base.contains("learning_rate");
            for (const auto& [key, value] : base.items())
                j[key] = value;
            for (std::size_t a = 0; a < spec.axes.size(); ++a) {
                const auto& [key, values] = spec.axes[a];
                j[key] = nlohmann::json::parse(values[at[a]]);
                settings.emplace_back(key, values[at[a]]);
                lrGiven = lrGiven || key == "learning_rate";
            }
            // As train does: another optimiser starts from its own default rate unless a rate is given.
            if (!lrGiven && j["optimizer"].get<std::string>() != start.optimizer)
                j["learning_rate"] = TrainConfig::defaultLearningRate(j["optimizer"].get<std::string>());
            // A position the user did not write (none in the base or the grid) follows the model as train's does
            // (Registry::defaultPosition: an LSTM gets none, a translation Transformer sinusoidal, a SAN rpr); a
            // preset's own position stays with the preset's own model. A combination the user did write that
            // cannot run is still skipped with its reason.
            if (!positionGiven && j["model"].is_string()) {
                const std::string model = j["model"].get<std::string>();
                const ModelSpec* entry = Registry::model(model);
                const std::string position = j["position"].is_string() ? j["position"].get<std::string>() : "";
                const bool presetsOwn = preset && model == start.model.model;
                if (entry && (!presetsOwn || !entry->takesPosition(position)))
                    j["position"] = Registry::defaultPosition(model);
            }
            const TrainConfig combined = TrainConfig::fromJson(j.dump());
            checkId(Registry::datasets(), "dataset", combined.dataset);
            checkId(Registry::models(), "model", combined.model.model);
            checkId(Registry::positions(), "position", combined.model.position);
            for (int r = 0; r < repeats; ++r) {
                SweepRun run;
                run.preset = presetName;
                run.settings = settings;
                run.config = combined;
                if (!seedAxis) {
                    run.config.seed = combined.seed + static_cast<std::uint64_t>(r);
                    run.settings.emplace_back("seed", std::to_string(run.config.seed));
                }
                if (const std::string problem = problemOf(run.config); !problem.empty()) {
                    plan.skipped_.push_back({run.label(), problem});
                    continue;
                }
                run.key = runKey(run.config);
                if (const auto it = seen.find(run.key); it != seen.end()) {
                    plan.skipped_.push_back({run.label(), "the same configuration as run " + std::to_string(it->second)});
                    continue;
                }
                run.index = static_cast<int>(plan.runs_.size());
                seen.emplace(run.key, run.index);
                plan.runs_.push_back(std::move(run));
            }
            more = false;
            for (std::size_t a = spec.axes.size(); a-- > 0;) {
                if (++at[a] < spec.axes[a].second.size()) {
                    more = true;
                    break;
                }
                at[a] = 0;
            }
        }
    }
    std::string keys;
    for (const auto& run : plan.runs_)
        keys += run.key + "\n";
    plan.id_ = "sw-" + Sha256::ofText(keys).substr(0, 10);
    return plan;
}

std::string SweepPlan::runKey(const TrainConfig& config)
{
    return runKeyOfJson(config.toJson());
}

std::string SweepPlan::runKeyOfJson(const std::string& configJson)
{
    auto j = nlohmann::json::parse(configJson, nullptr, false);
    if (!j.is_object())
        return {};
    // Where and how a run executes, not what it is: a cluster's paths and thread counts differ from a laptop's.
    for (const char* key : {"threads", "data_dir", "checkpoint_dir"})
        j.erase(key);
    if (j.contains("embeddings") && j["embeddings"].is_string()) {
        const std::string path = j["embeddings"].get<std::string>();
        j["embeddings"] = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
        // The vectors' width is read from the file: the stored run has it (100), the planned one does not (0).
        if (!path.empty())
            j.erase("embedding_dim");
    }
    return Sha256::ofText(j.dump()).substr(0, 12); // nlohmann::json keeps keys sorted: canonical
}

std::set<std::string> SweepPlan::completedKeys(const RunStore& store)
{
    RunFilter filter;
    filter.status = "completed";
    std::set<std::string> keys;
    for (const auto& record : store.listRuns(filter))
        keys.insert(runKeyOfJson(record.configJson));
    return keys;
}

std::vector<SweepRun> SweepPlan::pending(const std::set<std::string>& done) const
{
    std::vector<SweepRun> left;
    for (const auto& run : runs_)
        if (!done.count(run.key))
            left.push_back(run);
    return left;
}

} // namespace attnlab
