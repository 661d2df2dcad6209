#include "cli/commands/RunsForecastCommand.h"

#include "cli/CliFlags.h"
#include "cli/commands/RunIds.h"
#include "core/results/SeriesForecast.h"
#include "core/store/RunStore.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <ostream>
#include <stdexcept>

namespace attnlab {
namespace {

std::string csvNumber(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.7g", v);
    return text;
}

} // namespace

int RunsForecastCommand::run(const std::vector<std::string>& args)
{
    const CliFlags flags(args, {"--db"}, {"--json"}, 1u << 20);
    const auto ids = flags.positional();
    if (ids.empty())
        throw CliUsageError("runs forecast needs the id of one or more time-series runs");
    RunStore store(flags.text("--db", RunStore::defaultPath()));
    std::vector<std::int64_t> runIds;
    std::vector<SeriesForecast> forecasts;
    for (const auto& text : ids) {
        const std::int64_t id = runIdFrom(text);
        const RunRecord record = existingRun(store, id);
        if (!record.regression)
            throw std::runtime_error("run " + std::to_string(id) + " trained on '" + record.dataset +
                                     "', not a time series: a forecast is kept for time-series runs");
        const auto stored = store.analysis(id, "forecast", "test");
        if (!stored)
            throw std::runtime_error("run " + std::to_string(id) + " has no stored forecast (runs trained before " +
                                     "forecasts were kept, or that did not finish); train it again to get one");
        try {
            forecasts.push_back(SeriesForecast::fromJson(stored->json));
        } catch (const std::invalid_argument& e) {
            throw std::runtime_error("run " + std::to_string(id) + ": its stored " + e.what());
        }
        if (forecasts.size() > 1 && (forecasts.back().firstRow != forecasts.front().firstRow ||
                                     forecasts.back().size() != forecasts.front().size()))
            throw std::runtime_error("run " + std::to_string(id) + "'s test split (rows " +
                                     std::to_string(forecasts.back().firstRow) + " on, " +
                                     std::to_string(forecasts.back().size()) + " of them) is not run " +
                                     std::to_string(runIds.front()) + "'s: compare runs of one dataset");
        runIds.push_back(id);
    }
    if (flags.has("--json")) {
        nlohmann::json runs = nlohmann::json::array();
        for (std::size_t r = 0; r < forecasts.size(); ++r) {
            auto j = nlohmann::json::parse(forecasts[r].toJson());
            j["run_id"] = runIds[r];
            runs.push_back(std::move(j));
        }
        out_ << nlohmann::json{{"split", "test"}, {"runs", runs}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
             << "\n";
        return 0;
    }
    const SeriesForecast& first = forecasts.front();
    out_ << "row,actual";
    for (auto id : runIds)
        out_ << ",run_" << id;
    out_ << "\n";
    for (int i = 0; i < first.size(); ++i) {
        out_ << first.firstRow + i << "," << csvNumber(first.actual[static_cast<std::size_t>(i)]);
        for (const auto& f : forecasts)
            out_ << "," << csvNumber(f.predicted[static_cast<std::size_t>(i)]);
        out_ << "\n";
    }
    return 0;
}

} // namespace attnlab
