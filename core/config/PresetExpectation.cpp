#include "core/config/PresetExpectation.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace attnlab {

std::string PresetExpectation::text() const
{
    if (empty())
        return {};
    const bool percent = metric == "accuracy" || metric == "mape";
    const int digits = metric == "accuracy" || metric == "bleu" ? 1 : 4;
    char buffer[160];
    std::snprintf(buffer, sizeof buffer, "%.*f \xc2\xb1 %.*f%s test %s (%d run%s)", digits, mean, digits, stdDev,
                  percent ? "%" : "", metric == "accuracy" ? "accuracy" : metric == "bleu" ? "BLEU" : metric == "mae" ? "MAE" : metric == "rmse" ? "RMSE" : "MAPE",
                  runs, runs == 1 ? "" : "s");
    return buffer;
}

PresetExpectation PresetExpectation::parse(const std::string& json, const std::string& where)
{
    const auto j = nlohmann::json::parse(json, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        throw std::invalid_argument(where + ": 'expected' must be an object {metric, mean, std, runs, source}");
    for (const auto& [key, value] : j.items())
        if (key != "metric" && key != "mean" && key != "std" && key != "runs" && key != "source")
            throw std::invalid_argument(where + ": unknown key 'expected." + key + "'");
    PresetExpectation e;
    if (!j.contains("metric") || !j.at("metric").is_string())
        throw std::invalid_argument(where + ": 'expected.metric' must be accuracy, bleu, mae, rmse or mape");
    e.metric = j.at("metric").get<std::string>();
    if (e.metric != "accuracy" && e.metric != "bleu" && e.metric != "mae" && e.metric != "rmse" && e.metric != "mape")
        throw std::invalid_argument(where + ": 'expected.metric' must be accuracy, bleu, mae, rmse or mape (got '" + e.metric + "')");
    const auto number = [&](const char* key) {
        if (!j.contains(key) || !j.at(key).is_number() || !std::isfinite(j.at(key).get<double>()) || j.at(key).get<double>() < 0)
            throw std::invalid_argument(where + ": 'expected." + key + "' must be a finite number >= 0");
        return j.at(key).get<double>();
    };
    e.mean = number("mean");
    e.stdDev = number("std");
    if (!j.contains("runs") || !j.at("runs").is_number_integer() || j.at("runs").get<long long>() < 1 ||
        j.at("runs").get<long long>() > 1000)
        throw std::invalid_argument(where + ": 'expected.runs' must be a whole number from 1 to 1000");
    e.runs = j.at("runs").get<int>();
    if (!j.contains("source") || !j.at("source").is_string() || j.at("source").get<std::string>().empty())
        throw std::invalid_argument(where + ": 'expected.source' must say where the number was measured");
    e.source = j.at("source").get<std::string>();
    if ((e.metric == "accuracy" || e.metric == "bleu") && e.mean > 100)
        throw std::invalid_argument(where + ": 'expected.mean' is " + (e.metric == "bleu" ? "a BLEU score" : "an accuracy in %") + " (0 to 100)");
    return e;
}

} // namespace attnlab
