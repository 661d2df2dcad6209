#include "cli/commands/RunsCommand.h"
#include "core/platform/AtomicFile.h"

#include "cli/CliFlags.h"
#include "cli/commands/RunIds.h"
#include "cli/commands/RunsBleuByLengthCommand.h"
#include "cli/commands/RunsForecastCommand.h"
#include "cli/commands/RunsPlotCommand.h"
#include "core/analysis/ConfigDiff.h"
#include "core/analysis/ResultsMatrix.h"
#include "core/analysis/RunField.h"
#include "core/analysis/TableWriter.h"
#include "core/data/install/Sha256.h"
#include "core/results/RunResult.h"
#include "core/store/RunExport.h"
#include "core/store/RunStore.h"
#include "core/platform/Terminal.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <cctype>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <ostream>
#include <sstream>

namespace attnlab {
namespace {

// A run in runs list --json: RunResult's fields (status, steps, seconds, params, best_step, device,
// message, stopped_early, regression and the result figures, as train --json prints them) and the record's.
nlohmann::json recordJson(const RunRecord& r)
{
    auto o = nlohmann::json::parse(RunResult(r.summary()).toJson());
    o.update({{"id", r.id}, {"uuid", r.uuid}, {"name", r.name}, {"started_at", r.startedAt},
              {"finished_at", r.finishedAt}, {"dataset", r.dataset}, {"model", r.model}, {"position", r.position},
              {"seed", r.seed}, {"tags", r.tags}, {"notes", r.notes}, {"group_key", r.groupKey}});
    return o;
}

// The filters list and table share: --dataset, --model, --position, --status, --tag, --search.
RunFilter filterFrom(const CliFlags& flags)
{
    RunFilter f;
    f.dataset = flags.text("--dataset", "");
    f.model = flags.text("--model", "");
    f.position = flags.text("--position", "");
    f.status = flags.text("--status", "");
    if (!f.status.empty()) {
        try {
            runStatusFromString(f.status);
        } catch (const std::invalid_argument& e) {
            throw CliUsageError(std::string("--status: ") + e.what() +
                                " (running, completed, cancelled, diverged, failed, interrupted)");
        }
    }
    f.tag = flags.text("--tag", "");
    f.text = flags.text("--search", "");
    return f;
}

const char* kRunsUsage =
    "  runs list [--dataset D] [--model M] [--position P] [--status S] [--tag T] [--search TEXT]\n"
    "            [--sort started|test|dev|name] [--ascending] [--limit N] [--json]\n"
    "  runs show ID [--json]                 everything stored about a run (--json: the export document)\n"
    "  runs export [--out FILE] [--format json|csv] [ID...]   every run when no ids are given; standard output\n"
    "                                        without --out (json unless --format csv)\n"
    "  runs compare ID ID... [--json]        the runs side by side: results, then only the configuration keys\n"
    "                                        and environment facts (versions, device, data hashes) that differ\n"
    "  runs table [--rows KEY[,KEY]] [--cols KEY] [--metric M] [--format csv|markdown|latex] [--decimals N]\n"
    "             [--thesis] [--no-average] [--top] [--out FILE] [--json] [list's filters]\n"
    "                                        thesis-style matrix (default rows model, cols dataset, metric test):\n"
    "                                        mean ± std (n) over completed runs, best per column in bold;\n"
    "                                        --top adds each column's best single run (Table 5.6's Top)\n"
    "  runs import FILE                      merge runs from another run database (.sqlite) or an export (.json)\n"
    "  runs tag ID --tags a,b                replace a run's tags;  runs note ID --text TEXT: its notes\n"
    "  runs rename ID --name NAME            a run's name\n"
    "  runs delete ID... [--yes]             remove runs, their rows and checkpoint files (asks unless --yes)\n"
    "  runs groups [--json]                  repeats of one configuration: mean ± std over completed runs\n"
    "  runs plot ID... --metric SPLIT_NAME --out FILE.png|svg|pdf   curves of runs to a file (GUI build only)\n"
    "            [--smoothing W] [--x step|epoch|wall] [--group-by KEY[,KEY]] [--width PX --height PX --dpi N]\n"
    "            SPLIT_NAME: train_loss, dev_accuracy, dev_macro_f1, dev_rmse, test_mae, train_learning_rate, ...\n"
    "  runs bleu-by-length ID... [--split test|dev|dev,test] [--buckets 1-5,6-10,11-] [--data-dir DIR]\n"
    "            BLEU and exact matches of translation runs by source length (their kept weights translate the split again)\n"
    "  runs forecast ID... [--json]          time-series runs' test forecasts: CSV of row, real value, each run's\n"
    "            prediction; --json adds each prediction's attention over its window\n"
    "  every runs command takes --db FILE (default $ATTNLAB_DB or ~/.local/share/attnlab/runs.sqlite)\n";

} // namespace

int RunsCommand::run(const std::vector<std::string>& args)
{
    // "runs --help" and "runs SUB --help" alike: the runs usage, exit 0 (plot has its own, longer one).
    const bool plotting = args.size() >= 2 && args[1] == "plot";
    if (!plotting &&
        std::any_of(args.begin() + 1, args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; })) {
        out_ << "usage: attnlab-cli runs <subcommand> [options]\n" << kRunsUsage;
        return 0;
    }
    if (args.size() < 2)
        throw CliUsageError(std::string("runs needs a subcommand\n") + kRunsUsage);
    const std::string sub = args[1];
    if (sub == "plot")
        return RunsPlotCommand(out_, err_).run(std::vector<std::string>(args.begin() + 1, args.end()));
    if (sub == "bleu-by-length")
        return RunsBleuByLengthCommand(out_, err_).run(std::vector<std::string>(args.begin() + 1, args.end()));
    if (sub == "forecast")
        return RunsForecastCommand(out_, err_).run(std::vector<std::string>(args.begin() + 1, args.end()));
    std::vector<std::string> rest(args.begin() + 1, args.end()); // rest[0] == sub
    // Each subcommand once: its flags with a value (besides --db), its switches (besides --json), how many
    // positional arguments it takes, the one it cannot do without, and what runs it.
    constexpr std::size_t kMany = 1u << 20;
    struct Subcommand {
        const char* name;
        std::set<std::string> valued, booleans;
        std::size_t positional;
        const char* needs; // "a run ID", "a FILE", or nullptr
        int (RunsCommand::*handler)(RunStore&, const CliFlags&);
    };
    static const std::vector<Subcommand> kSubcommands = {
        {"list", {"--dataset", "--model", "--position", "--status", "--tag", "--search", "--sort", "--limit"},
         {"--ascending"}, 0, nullptr, &RunsCommand::list},
        {"show", {}, {}, 1, "a run ID", &RunsCommand::show},
        {"export", {"--out", "--format"}, {}, kMany, nullptr, &RunsCommand::exportRuns},
        {"compare", {}, {}, kMany, nullptr, &RunsCommand::compare},
        {"table", {"--dataset", "--model", "--position", "--tag", "--search", "--rows", "--cols", "--metric", "--format",
                   "--decimals", "--out"},
         {"--thesis", "--no-average", "--top"}, 0, nullptr, &RunsCommand::table},
        {"import", {}, {}, 1, "a FILE", &RunsCommand::importRuns},
        {"tag", {"--tags"}, {}, 1, "a run ID", &RunsCommand::tag},
        {"note", {"--text"}, {}, 1, "a run ID", &RunsCommand::note},
        {"rename", {"--name"}, {}, 1, "a run ID", &RunsCommand::rename},
        {"delete", {}, {"--yes"}, kMany, "a run ID", &RunsCommand::deleteRuns},
        {"groups", {}, {}, 0, nullptr, &RunsCommand::groups},
    };
    const auto found = std::find_if(kSubcommands.begin(), kSubcommands.end(),
                                    [&](const Subcommand& c) { return sub == c.name; });
    if (found == kSubcommands.end())
        throw CliUsageError("unknown runs subcommand '" + sub + "'\n" + kRunsUsage);
    std::set<std::string> valued = found->valued, booleans = found->booleans;
    valued.insert("--db");
    booleans.insert("--json");
    const CliFlags flags(rest, valued, booleans, found->positional);
    if (found->needs && flags.positional().empty())
        throw CliUsageError("runs " + sub + " needs " + found->needs);
    RunStore store(flags.text("--db", RunStore::defaultPath()));
    return (this->*found->handler)(store, flags);
}

int RunsCommand::list(RunStore& store, const CliFlags& flags)
{
    RunFilter f = filterFrom(flags);
    const std::string sort = flags.text("--sort", "started");
    if (sort == "started") f.sortBy = RunFilter::SortBy::Started;
    else if (sort == "test") f.sortBy = RunFilter::SortBy::TestAccuracy;
    else if (sort == "dev") f.sortBy = RunFilter::SortBy::BestDev;
    else if (sort == "name") f.sortBy = RunFilter::SortBy::Name;
    else throw CliUsageError("--sort expects started, test, dev or name, got '" + sort + "'");
    f.descending = !flags.has("--ascending");
    const long long limit = flags.integer("--limit", 0);
    if (limit < 0)
        throw CliUsageError("--limit: 0 (no limit) or more, got " + std::to_string(limit));
    f.limit = static_cast<int>(limit);
    const auto runs = store.listRuns(f);
    if (flags.has("--json")) {
        nlohmann::json a = nlohmann::json::array();
        for (const auto& r : runs)
            a.push_back(recordJson(r));
        out_ << a.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        return 0;
    }
    out_ << std::left << std::setw(6) << "id" << std::setw(12) << "status" << std::setw(34) << "name" << std::setw(7)
         << "seed" << std::setw(9) << "steps" << std::setw(12) << "dev" << std::setw(14) << "test" << "started\n";
    for (const auto& r : runs) {
        const RunResult result(r.summary());
        const int decimals = r.regression ? 4 : 2;
        // The test column names RMSE: a time-series run's number is not an accuracy.
        const std::string test = (r.regression && result.hasTest() ? "rmse " : "") + result.testText(decimals);
        std::string name = r.name;
        if (name.size() > 32)
            name = name.substr(0, 31) + "…";
        out_ << std::left << std::setw(6) << r.id << std::setw(12) << toString(r.status) << std::setw(34) << name
             << std::setw(7) << r.seed << std::setw(9) << r.steps << std::setw(12) << result.devText(decimals)
             << std::setw(14) << test << r.startedAt;
        if (!r.tags.empty()) {
            out_ << "  [";
            for (std::size_t i = 0; i < r.tags.size(); ++i)
                out_ << (i ? "," : "") << r.tags[i];
            out_ << "]";
        }
        out_ << "\n";
    }
    err_ << runs.size() << " run" << (runs.size() == 1 ? "" : "s") << " in " << store.path() << "\n";
    return 0;
}

int RunsCommand::show(RunStore& store, const CliFlags& flags)
{
    const RunRecord r = existingRun(store, runIdFrom(flags.positional().front()));
    if (flags.has("--json")) {
        out_ << RunExport(store).toJson({r.id}) << "\n";
        return 0;
    }
    out_ << "run " << r.id << ": " << r.name << " (" << toString(r.status) << ")\n"
         << "  uuid        " << r.uuid << "\n"
         << "  started     " << r.startedAt << (r.finishedAt.empty() ? "" : ", finished " + r.finishedAt) << "\n"
         << "  seed        " << r.seed << ", " << r.parameters << " parameters, " << r.steps << " steps in " << std::fixed
         << std::setprecision(1) << r.seconds << " s\n"
         << "  device      " << r.device << " (LibTorch " << r.torchVersion << ", app " << r.appVersion
         << (r.gitHash.empty() ? "" : " " + r.gitHash) << ", host " << r.host << ")\n";
    if (const RunResult result(r.summary()); result.hasResults())
        out_ << "  result      " << result.headline() << "\n";
    if (!r.message.empty())
        out_ << "  message     " << r.message << "\n";
    if (!r.tags.empty()) {
        out_ << "  tags       ";
        for (const auto& t : r.tags)
            out_ << " " << t;
        out_ << "\n";
    }
    if (!r.notes.empty())
        out_ << "  notes       " << r.notes << "\n";
    out_ << "  config      " << r.configJson << "\n";
    if (!r.environmentJson.empty())
        out_ << "  environment " << r.environmentJson << "\n";
    const auto characteristics = store.characteristics(r.id);
    if (!characteristics.empty()) {
        out_ << "  characteristics:\n";
        for (const auto& c : characteristics)
            out_ << "    " << std::left << std::setw(18) << c.name << std::setprecision(c.value == static_cast<long long>(c.value) ? 0 : 3)
                 << c.value << (c.unit.empty() ? "" : " " + c.unit) << "\n";
    }
    const auto checkpoints = store.checkpoints(r.id);
    for (const auto& c : checkpoints) {
        // What it is and what it costs on disk (or that it is gone): the explorer and explain need it.
        std::error_code error;
        const auto bytes = std::filesystem::file_size(c.path, error);
        char size[32];
        std::snprintf(size, sizeof size, "%.1f MB", static_cast<double>(bytes) / 1e6);
        out_ << "  checkpoint  step " << c.step << ": " << c.path << " ("
             << (c.step == r.bestStep ? "best dev" : "final") << " weights, " << (error ? "file missing" : size)
             << ", sha256 " << c.sha256.substr(0, 12) << "…)\n";
    }
    // The last value of each metric series, by split.
    const auto metrics = store.metrics(r.id);
    std::map<std::pair<std::string, std::string>, std::pair<int, double>> last;
    std::map<std::pair<std::string, std::string>, int> counts;
    for (const auto& m : metrics) {
        last[{m.split, m.name}] = {m.step, m.value};
        ++counts[{m.split, m.name}];
    }
    if (!last.empty()) {
        out_ << "  metrics (points, last step: value):\n";
        std::size_t width = 17; // the longest "split name" (a translation run's "dev bleu_tokenized" is 18), plus a space
        for (const auto& entry : last)
            width = std::max(width, entry.first.first.size() + 1 + entry.first.second.size());
        // The gradient by word distance is one series per distance: one line for all of them.
        std::map<int, double> profile; // distance -> value at the last evaluation
        int profileStep = 0, profilePoints = 0;
        for (const auto& [key, value] : last) {
            if (key.first == "dev" && key.second.rfind("grad_by_distance.", 0) == 0) {
                profile[std::stoi(key.second.substr(17))] = value.second;
                profileStep = value.first;
                profilePoints = counts[key];
                continue;
            }
            out_ << "    " << std::left << std::setw(static_cast<int>(width + 1)) << (key.first + " " + key.second) << std::setw(6) << counts[key]
                 << "step " << value.first << ": " << std::setprecision(4) << value.second << "\n";
        }
        if (!profile.empty()) {
            char text[160];
            std::snprintf(text, sizeof text, "step %d: %.3g at distance 0, %.3g at %d (%zu distances; runs plot ID --metric dev_grad_by_distance)",
                          profileStep, profile.begin()->second, profile.rbegin()->second, profile.rbegin()->first, profile.size());
            out_ << "    " << std::left << std::setw(static_cast<int>(width + 1)) << "dev grad_by_distance" << std::setw(6)
                 << profilePoints << text << "\n";
        }
    }
    if (auto attention = store.latestAttention(r.id))
        out_ << "  attention   latest snapshot at step " << attention->step << " (" << attention->maps.size() << " maps)\n";
    return 0;
}

int RunsCommand::exportRuns(RunStore& store, const CliFlags& flags)
{
    const std::string path = flags.text("--out", "");
    std::string format = flags.text("--format", path.empty() ? "json" : "");
    if (format.empty()) {
        const auto dot = path.rfind('.');
        format = dot == std::string::npos ? "" : path.substr(dot + 1);
        if (format != "json" && format != "csv")
            throw CliUsageError("--out " + path + ": give --format json|csv (the file name does not end in .json or .csv)");
    }
    if (format != "json" && format != "csv")
        throw CliUsageError("--format expects json or csv, got '" + format + "'");
    std::vector<std::int64_t> ids;
    for (const auto& text : flags.positional())
        ids.push_back(existingRun(store, runIdFrom(text)).id);
    RunExport exporter(store);
    if (path.empty()) { // to standard output, for pipes: only the document, nothing else
        out_ << (format == "json" ? exporter.toJson(ids) + "\n" : exporter.toCsv(ids));
        return 0;
    }
    if (format == "json")
        exporter.exportJson(path, ids);
    else
        exporter.exportCsv(path, ids);
    const std::size_t count = ids.empty() ? store.listRuns().size() : ids.size();
    if (flags.has("--json"))
        out_ << nlohmann::json{{"path", path}, {"format", format}, {"runs", count}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    else
        out_ << "exported " << count << " run" << (count == 1 ? "" : "s") << " to " << path << " (" << format << ")\n";
    return 0;
}

int RunsCommand::importRuns(RunStore& store, const CliFlags& flags)
{
    const std::string path = flags.positional().front();
    const auto result = RunExport(store).importFrom(path);
    if (flags.has("--json"))
        out_ << nlohmann::json{{"path", path}, {"added", result.added}, {"skipped", result.skipped}, {"db", store.path()}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
             << "\n";
    else
        out_ << "imported " << result.added << " run" << (result.added == 1 ? "" : "s") << " from " << path << " into "
             << store.path() << "; " << result.skipped << " already there (same uuid) skipped\n";
    return 0;
}

int RunsCommand::tag(RunStore& store, const CliFlags& flags)
{
    const RunRecord r = existingRun(store, runIdFrom(flags.positional().front()));
    const auto tags = flags.list("--tags");
    store.setTags(r.id, tags);
    out_ << "run " << r.id << " tags:";
    for (const auto& t : tags)
        out_ << " " << t;
    out_ << (tags.empty() ? " (none)" : "") << "\n";
    return 0;
}

int RunsCommand::note(RunStore& store, const CliFlags& flags)
{
    const RunRecord r = existingRun(store, runIdFrom(flags.positional().front()));
    store.setNotes(r.id, flags.required("--text"));
    out_ << "run " << r.id << " notes saved\n";
    return 0;
}

int RunsCommand::rename(RunStore& store, const CliFlags& flags)
{
    const RunRecord r = existingRun(store, runIdFrom(flags.positional().front()));
    const std::string name = flags.required("--name");
    if (name.find_first_not_of(" \t") == std::string::npos)
        throw CliUsageError("--name: a run's name cannot be empty");
    store.renameRun(r.id, name);
    if (flags.has("--json"))
        out_ << nlohmann::json{{"id", r.id}, {"name", name}, {"previous_name", r.name}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    else
        out_ << "run " << r.id << " renamed: " << name << " (was " << r.name << ")\n";
    return 0;
}

int RunsCommand::deleteRuns(RunStore& store, const CliFlags& flags)
{
    // Every id must name a run before anything is removed.
    std::vector<std::int64_t> ids;
    std::size_t files = 0;
    for (const auto& text : flags.positional()) {
        const std::int64_t id = existingRun(store, runIdFrom(text)).id;
        if (std::find(ids.begin(), ids.end(), id) == ids.end()) {
            ids.push_back(id);
            files += store.checkpoints(id).size();
        }
    }
    std::string list;
    for (const auto id : ids)
        list += (list.empty() ? "" : ", ") + std::to_string(id);
    const std::string what = std::to_string(ids.size()) + (ids.size() == 1 ? " run (" : " runs (") + list + ") and " +
                             std::to_string(files) + (files == 1 ? " checkpoint file" : " checkpoint files");
    if (!flags.has("--yes")) {
        // A script must say so; a person at a terminal is asked.
        if (!Terminal::isTerminal(Terminal::Stream::Input))
            throw CliUsageError("runs delete: not deleting " + what + " without confirmation (stdin is not a terminal); add --yes");
        err_ << "delete " << what << " from " << store.path() << "? [y/N] " << std::flush;
        std::string answer;
        std::getline(std::cin, answer);
        if (answer != "y" && answer != "Y" && answer != "yes") {
            err_ << "nothing deleted\n";
            return 1;
        }
    }
    const RunDeletion removed = store.deleteRuns(ids);
    for (const auto& line : removed.filesNotRemoved)
        err_ << "attnlab-cli: could not remove " << line << "\n";
    if (flags.has("--json")) {
        out_ << nlohmann::json{{"db", store.path()},           {"deleted", removed.runs},
                               {"metrics", removed.metrics},   {"attention", removed.attention},
                               {"characteristics", removed.characteristics}, {"checkpoints", removed.checkpoints},
                               {"files_removed", removed.filesRemoved}, {"files_not_removed", removed.filesNotRemoved}}
                    .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
             << "\n";
        return 0;
    }
    out_ << "deleted " << removed.runs.size() << (removed.runs.size() == 1 ? " run" : " runs") << " (" << list << ") from "
         << store.path() << ": " << removed.metrics << " metric points, " << removed.attention << " attention snapshots, "
         << removed.characteristics << " characteristics, " << removed.filesRemoved.size() << " of " << files
         << " checkpoint files removed\n";
    return 0;
}

int RunsCommand::groups(RunStore& store, const CliFlags& flags)
{
    const auto groups = store.aggregates();
    if (flags.has("--json")) {
        nlohmann::json a = nlohmann::json::array();
        for (const auto& g : groups) {
            nlohmann::json o{{"group_key", g.groupKey}, {"dataset", g.dataset}, {"model", g.model}, {"position", g.position},
                             {"runs", g.runs}, {"completed", g.completed}, {"regression", g.regression},
                             {"best_dev_mean", g.bestDevMean},
                             {"fingerprint", Sha256::ofText(g.groupKey).substr(0, 8)}};
            if (g.regression) {
                o["test_rmse_mean"] = g.testRmseMean;
                o["test_rmse_std"] = g.testRmseStd;
            } else {
                o["test_accuracy_mean"] = g.testAccuracyMean;
                o["test_accuracy_std"] = g.testAccuracyStd;
            }
            a.push_back(o);
        }
        out_ << a.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        return 0;
    }
    // The configuration is named by a short fingerprint of its group key (the full key is in --json).
    out_ << std::left << std::setw(10) << "config" << std::setw(22) << "dataset" << std::setw(16) << "model"
         << std::setw(12) << "position" << std::setw(11) << "completed" << "test (mean ± std)\n";
    for (const auto& g : groups) {
        std::ostringstream result;
        result << std::fixed;
        if (g.completed == 0 || g.bestDevMean == 0.0)
            result << "-"; // nothing evaluated (cancelled early, or bench runs: characteristics only)
        else if (g.regression)
            result << "rmse " << std::setprecision(4) << g.testRmseMean << " ± " << g.testRmseStd;
        else
            result << std::setprecision(2) << 100.0 * g.testAccuracyMean << " ± " << 100.0 * g.testAccuracyStd << "%";
        out_ << std::left << std::setw(10) << Sha256::ofText(g.groupKey).substr(0, 8) << std::setw(22) << g.dataset
             << std::setw(16) << g.model << std::setw(12) << g.position << std::setw(11)
             << (std::to_string(g.completed) + "/" + std::to_string(g.runs)) << result.str() << "\n";
    }
    return 0;
}

int RunsCommand::compare(RunStore& store, const CliFlags& flags)
{
    if (flags.positional().size() < 2)
        throw CliUsageError("runs compare needs two or more run IDs");
    std::vector<RunRecord> runs;
    for (const auto& text : flags.positional())
        runs.push_back(existingRun(store, runIdFrom(text)));
    const auto config = ConfigDiff::of(runs, ConfigDiff::Source::Config);
    const auto environment = ConfigDiff::of(runs, ConfigDiff::Source::Environment);
    if (flags.has("--json")) {
        auto diffJson = [](const std::vector<FieldDiff>& diffs) {
            nlohmann::json a = nlohmann::json::array();
            for (const auto& d : diffs)
                a.push_back({{"key", d.key}, {"values", d.values}});
            return a;
        };
        nlohmann::json a = nlohmann::json::array();
        for (const auto& r : runs)
            a.push_back(recordJson(r));
        out_ << nlohmann::json{{"runs", a},
                               {"config_keys", ConfigDiff::keyCount(runs, ConfigDiff::Source::Config)},
                               {"config_diff", diffJson(config)},
                               {"environment_diff", diffJson(environment)}}
                    .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
             << "\n";
        return 0;
    }
    // One column per run; the first column names the row.
    TableDocument results;
    results.header = {"run"};
    for (const auto& r : runs)
        results.header.push_back("#" + std::to_string(r.id));
    auto addRow = [&](TableDocument& t, const std::string& name, const std::vector<std::string>& values) {
        std::vector<TableDocument::Cell> row{{name, false}};
        for (const auto& v : values)
            row.push_back({v.empty() ? "-" : v, false});
        t.rows.push_back(row);
    };
    std::vector<std::string> model, status, dev, test, seconds;
    for (const auto& r : runs) {
        const RunResult result(r.summary());
        const int decimals = r.regression ? 4 : 2;
        model.push_back(RunField::text(r, "model,position") + " on " + r.dataset);
        status.push_back(toString(r.status) + ", " + std::to_string(r.steps) + " steps");
        dev.push_back(result.devText(decimals));
        test.push_back((r.regression && result.hasTest() ? "rmse " : "") + result.testText(decimals));
        std::ostringstream s;
        s << std::fixed << std::setprecision(1) << r.seconds << " s";
        seconds.push_back(s.str());
    }
    addRow(results, "model", model);
    addRow(results, "status", status);
    addRow(results, "best dev", dev);
    addRow(results, "test", test);
    addRow(results, "time", seconds);
    out_ << TableWriter::markdown(results) << "\n";
    const std::size_t keys = ConfigDiff::keyCount(runs, ConfigDiff::Source::Config);
    if (config.empty()) {
        out_ << "configuration: all " << keys << " keys are the same\n";
    } else {
        TableDocument diff;
        diff.header = results.header;
        diff.header[0] = "config key";
        for (const auto& d : config)
            addRow(diff, d.key, d.values);
        out_ << "configuration: " << config.size() << " of " << keys << " keys differ\n\n" << TableWriter::markdown(diff);
    }
    if (environment.empty()) {
        out_ << "\nenvironment: the same\n";
    } else {
        TableDocument env;
        env.header = results.header;
        env.header[0] = "environment";
        for (const auto& d : environment)
            addRow(env, d.key, d.values);
        out_ << "\nenvironment: " << environment.size() << " facts differ\n\n" << TableWriter::markdown(env);
    }
    return 0;
}

int RunsCommand::table(RunStore& store, const CliFlags& flags)
{
    ResultsMatrix::Options options;
    options.rows = flags.text("--rows", options.rows);
    options.columns = flags.text("--cols", options.columns);
    options.metric = flags.text("--metric", options.metric);
    options.average = !flags.has("--no-average");
    options.top = flags.has("--top");
    try {
        RunField::checkMetric(options.metric);
    } catch (const std::invalid_argument& e) {
        throw CliUsageError(std::string("--metric: ") + e.what());
    }
    if (RunField::split(options.rows).empty() || RunField::split(options.columns).empty())
        throw CliUsageError("--rows and --cols name a run field, e.g. model, dataset, position, optimizer");
    TableWriter::Format format;
    try {
        format = TableWriter::parseFormat(flags.text("--format", "markdown"));
    } catch (const std::invalid_argument& e) {
        throw CliUsageError(std::string("--format: ") + e.what());
    }
    const long long decimals = flags.integer("--decimals", -1);
    if (decimals < -1 || decimals > 10)
        throw CliUsageError("--decimals: 0 to 10, got " + std::to_string(decimals));
    RunFilter filter = filterFrom(flags);
    filter.status = "completed";
    const ResultsMatrix matrix = ResultsMatrix::build(store.listRuns(filter), options);
    if (flags.has("--json")) {
        out_ << matrix.toJson() << "\n";
        return 0;
    }
    // Percentages with one decimal, as the thesis prints them; errors with four.
    const int shown = decimals >= 0 ? static_cast<int>(decimals) : (matrix.percent() ? 1 : 4);
    const std::string text = TableWriter::write(matrix.table(shown, flags.has("--thesis")), format);
    const std::string path = flags.text("--out", "");
    if (path.empty()) {
        out_ << text;
    } else {
        AtomicFile::replace(path, text); // whole or not at all
        out_ << "wrote a " << matrix.rowLabels().size() << " x " << matrix.columnLabels().size() << " table over "
             << matrix.runsUsed() << " runs to " << path << "\n";
    }
    if (matrix.runsUsed() == 0)
        err_ << "no completed run matches: the table is empty (attnlab-cli runs list shows what is stored)\n";
    return 0;
}

} // namespace attnlab
