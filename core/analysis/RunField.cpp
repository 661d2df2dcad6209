#include "core/analysis/RunField.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace attnlab {
namespace {

std::string trimmed(std::string s)
{
    const auto first = s.find_first_not_of(" \t");
    const auto last = s.find_last_not_of(" \t");
    return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
}

std::string joined(const std::vector<std::string>& parts, const std::string& separator)
{
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i)
        out += (i ? separator : std::string()) + parts[i];
    return out;
}

void flattenInto(const nlohmann::json& value, const std::string& prefix, std::map<std::string, std::string>& out)
{
    if (value.is_object() && !value.empty()) {
        for (const auto& [key, inner] : value.items())
            flattenInto(inner, prefix.empty() ? key : prefix + "." + key, out);
        return;
    }
    out[prefix] = value.is_string() ? value.get<std::string>() : value.dump();
}

std::optional<std::string> recordField(const RunRecord& r, const std::string& key)
{
    if (key == "dataset") return r.dataset;
    if (key == "model") return r.model;
    if (key == "position") return r.position;
    if (key == "seed") return std::to_string(r.seed);
    if (key == "status") return toString(r.status);
    if (key == "device") return r.device;
    if (key == "host") return r.host;
    if (key == "name") return r.name;
    if (key == "app_version") return r.appVersion;
    if (key == "git_hash") return r.gitHash;
    if (key == "torch_version") return r.torchVersion;
    if (key == "tags") return joined(r.tags, ",");
    if (key == "id") return std::to_string(r.id);
    return std::nullopt;
}

} // namespace

std::vector<std::string> RunField::split(const std::string& keys)
{
    std::vector<std::string> out;
    std::stringstream in(keys);
    std::string key;
    while (std::getline(in, key, ','))
        if (!trimmed(key).empty())
            out.push_back(trimmed(key));
    return out;
}

std::map<std::string, std::string> RunField::flatten(const std::string& json)
{
    std::map<std::string, std::string> out;
    if (json.empty())
        return out;
    const auto parsed = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_object())
        flattenInto(parsed, "", out);
    return out;
}

std::map<std::string, std::string> RunField::flatConfig(const RunRecord& run)
{
    return flatten(run.configJson);
}

bool RunField::isRecordField(const std::string& key)
{
    for (const auto& one : split(key))
        if (!recordField(RunRecord{}, one))
            return false;
    return true;
}

std::string RunField::text(const RunRecord& run, const std::string& key)
{
    return isRecordField(key) ? text(run, key, {}) : text(run, key, flatConfig(run));
}

std::string RunField::text(const RunRecord& run, const std::string& key, const std::map<std::string, std::string>& config)
{
    const auto keys = split(key);
    if (keys.size() > 1) {
        std::vector<std::string> parts;
        for (const auto& k : keys)
            parts.push_back(text(run, k, config));
        return joined(parts, " / ");
    }
    const std::string one = keys.empty() ? std::string() : keys.front();
    if (auto field = recordField(run, one))
        return *field;
    const auto found = config.find(one);
    return found == config.end() ? std::string() : found->second;
}

const std::vector<std::string>& RunField::metricNames()
{
    static const std::vector<std::string> names = {
        "test", "dev", "test_accuracy", "test_macro_f1", "test_rmse", "test_mae", "test_mape", "best_dev_accuracy",
        "best_dev_rmse", "seconds", "params", "steps",
        // translation: sacreBLEU's BLEU and chrF (0-100),
        // exact match and the attention's AER (fractions)
        "test_bleu", "test_chrf", "test_bleu_tokenized", "test_exact_match", "test_aer", "best_dev_bleu"};
    return names;
}

void RunField::checkMetric(const std::string& name)
{
    const auto& names = metricNames();
    if (std::find(names.begin(), names.end(), name) == names.end())
        throw std::invalid_argument("unknown metric '" + name + "' (one of: " + joined(names, ", ") + ")");
}

std::optional<double> RunField::metric(const RunRecord& r, const std::string& name)
{
    checkMetric(name);
    if (r.status != RunStatus::Completed)
        return std::nullopt;
    if (name == "seconds") return r.seconds;
    if (name == "params") return static_cast<double>(r.parameters);
    if (name == "steps") return static_cast<double>(r.steps);
    if (r.bestStep <= 0) // never evaluated (a bench run measures characteristics only): no results, not zeros
        return std::nullopt;
    if (name.rfind("test_bleu", 0) == 0 || name == "test_chrf" || name == "test_exact_match" || name == "test_aer" ||
        name == "best_dev_bleu") {
        const RunSummary s = r.summary();
        if (!s.translation)
            return std::nullopt;
        const double value = name == "test_bleu" ? s.testBleu : name == "test_chrf" ? s.testChrf
                           : name == "test_bleu_tokenized" ? s.testBleuTokenized : name == "best_dev_bleu" ? s.bestDevBleu
                           : name == "test_exact_match" ? s.testExactMatch : s.testAer;
        return value < 0.0 ? std::nullopt : std::optional<double>(value); // -1: not measured on this dataset
    }
    if (name == "test") return r.regression ? r.testRmse : r.testAccuracy;
    if (name == "dev") return r.regression ? r.bestDevRmse : r.bestDevAccuracy;
    if (r.regression) {
        if (name == "test_rmse") return r.testRmse;
        if (name == "test_mae") return r.testMae;
        if (name == "test_mape") return r.testMape;
        if (name == "best_dev_rmse") return r.bestDevRmse;
        return std::nullopt;
    }
    if (name == "test_accuracy") return r.testAccuracy;
    if (name == "test_macro_f1") return r.testMacroF1;
    if (name == "best_dev_accuracy") return r.bestDevAccuracy;
    return std::nullopt;
}

bool RunField::higherIsBetter(const std::string& name, bool regression)
{
    if (name == "test" || name == "dev")
        return !regression;
    return name == "test_accuracy" || name == "test_macro_f1" || name == "best_dev_accuracy" || name == "test_bleu" ||
           name == "test_chrf" || name == "test_bleu_tokenized" || name == "test_exact_match" || name == "best_dev_bleu";
}

bool RunField::isPercent(const std::string& name, bool regression)
{
    if (name == "test" || name == "dev")
        return !regression;
    return name == "test_accuracy" || name == "test_macro_f1" || name == "best_dev_accuracy" || name == "test_exact_match" ||
           name == "test_aer";
}

} // namespace attnlab
