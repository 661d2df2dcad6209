#include "core/results/SeriesForecast.h"

#include <nlohmann/json.hpp>

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>

namespace attnlab {
namespace {

// A float's 7 significant digits as a JSON number (nlohmann writes a double's 17).
nlohmann::json shortNumber(double value)
{
    if (!std::isfinite(value))
        return nullptr; // a diverged prediction: JSON has no NaN, and null reads back as NaN
    char text[32];
    std::snprintf(text, sizeof text, "%.7g", value);
    return nlohmann::json::parse(text);
}

std::vector<double> numbers(const nlohmann::json& values, const char* name)
{
    if (!values.is_array())
        throw std::invalid_argument(std::string("forecast: '") + name + "' is not a list of numbers");
    std::vector<double> out;
    out.reserve(values.size());
    for (const auto& v : values)
        out.push_back(v.is_null() ? std::nan("") : v.get<double>());
    return out;
}

// A count stored as a JSON integer, 0 when absent. A float or an integer beyond int is refused by name (converting
// one would be undefined behaviour, not an error).
int storedCount(const nlohmann::json& j, const char* name)
{
    if (!j.contains(name))
        return 0;
    const auto& v = j.at(name);
    if (!v.is_number_integer() || (v.is_number_unsigned() ? v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT_MAX)
                                                            : v.get<std::int64_t>() < INT_MIN || v.get<std::int64_t>() > INT_MAX))
        throw std::invalid_argument(std::string("forecast: '") + name + "' is not a whole number within " + std::to_string(INT_MIN) +
                                    " .. " + std::to_string(INT_MAX) + " (got " + v.dump() + ")");
    return static_cast<int>(v.get<std::int64_t>());
}

} // namespace

std::string SeriesForecast::toJson() const
{
    nlohmann::json actualJson = nlohmann::json::array(), predictedJson = nlohmann::json::array();
    for (double v : actual)
        actualJson.push_back(shortNumber(v));
    for (double v : predicted)
        predictedJson.push_back(shortNumber(v));
    nlohmann::json j = {{"target", target}, {"first_row", firstRow}, {"window", window},
                        {"actual", actualJson}, {"predicted", predictedJson}};
    if (!attention.empty()) {
        nlohmann::json rows = nlohmann::json::array();
        for (const auto& row : attention) {
            nlohmann::json r = nlohmann::json::array();
            for (float w : row)
                r.push_back(shortNumber(w));
            rows.push_back(std::move(r));
        }
        j["attention_name"] = attentionName;
        j["attention"] = std::move(rows);
    }
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

SeriesForecast SeriesForecast::fromJson(const std::string& json)
{
    SeriesForecast f;
    try {
        const auto j = nlohmann::json::parse(json);
        f.target = j.value("target", std::string());
        f.firstRow = storedCount(j, "first_row");
        f.window = storedCount(j, "window");
        f.actual = numbers(j.at("actual"), "actual");
        f.predicted = numbers(j.at("predicted"), "predicted");
        if (j.contains("attention")) {
            f.attentionName = j.value("attention_name", std::string());
            for (const auto& row : j.at("attention")) {
                std::vector<float> weights;
                for (double w : numbers(row, "attention"))
                    weights.push_back(static_cast<float>(w));
                f.attention.push_back(std::move(weights));
            }
        }
    } catch (const nlohmann::json::exception& e) {
        throw std::invalid_argument(std::string("forecast: ") + e.what());
    }
    if (f.actual.size() != f.predicted.size())
        throw std::invalid_argument("forecast: " + std::to_string(f.actual.size()) + " real values but " +
                                    std::to_string(f.predicted.size()) + " predictions");
    if (!f.attention.empty() && f.attention.size() != f.actual.size())
        throw std::invalid_argument("forecast: attention for " + std::to_string(f.attention.size()) + " of " +
                                    std::to_string(f.actual.size()) + " predictions");
    for (const auto& row : f.attention)
        if (static_cast<int>(row.size()) != f.window)
            throw std::invalid_argument("forecast: a row of attention has " + std::to_string(row.size()) +
                                        " weights for a window of " + std::to_string(f.window));
    return f;
}

} // namespace attnlab
