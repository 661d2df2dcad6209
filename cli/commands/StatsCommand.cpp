#include "cli/commands/StatsCommand.h"

#include "cli/CliFlags.h"
#include "cli/ConfigFlags.h"
#include "core/data/DatasetCatalog.h"
#include "core/data/DatasetStatistics.h"
#include "core/data/WordEmbeddings.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <iomanip>
#include <ostream>

namespace attnlab {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

} // namespace

int StatsCommand::run(const std::vector<std::string>& args)
{
    // "stats DATASET [options]" or "stats --dataset DATASET [options]".
    std::vector<std::string> rest = {args[0]};
    std::string id;
    for (std::size_t i = 1; i < args.size(); ++i) {
        if (id.empty() && i == 1 && args[i].rfind("--", 0) != 0) id = args[i];
        else rest.push_back(args[i]);
    }
    auto valued = ConfigFlags::datasetFlags();
    valued.insert({"--dataset", "--embeddings"});
    auto booleans = ConfigFlags::datasetSwitches();
    booleans.insert({"--json", "--no-cache"});
    const CliFlags flags(rest, valued, booleans);
    if (id.empty()) id = flags.required("--dataset");
    ConfigFlags::checkDataset(id);
    if (DatasetCatalog::isTranslation(id) && flags.has("--embeddings")) // pairs have no text split to cover
        throw CliUsageError("--embeddings: '" + id + "' is a translation dataset; word vectors apply to text classification datasets");
    const DatasetOptions options = ConfigFlags::datasetOptions(flags);
    nlohmann::json timings;

    // With --phrases, SST's "train" is every labelled phrase once (thesis 5.2.1: 318,582 for SST) and
    // "train_balanced" the training set after the class multipliers and extra sentence copies.
    DatasetOptions raw = options;
    raw.rebalance = false;
    auto started = Clock::now();
    const LoadedDataset data = DatasetCatalog::loadAny(id, raw);
    timings["dataset_seconds"] = secondsSince(started);
    DatasetStatistics statistics = DatasetStatistics::of(data);
    for (const auto& note : data.notes()) // in the JSON too ("notes"); here for a person reading stderr
        err_ << note << "\n";
    if (!data.regression && options.phrases && (id == "sst-fine" || id == "sst-binary")) {
        const TextDataset balanced = DatasetCatalog::load(id, options);
        statistics.trainBalanced = DatasetStatistics::splitOf("train_balanced", balanced.train, balanced.numClasses());
    }
    if (!data.regression && flags.has("--embeddings")) { // word vectors apply to text only
        WordEmbeddings::LoadOptions load;
        load.useCache = !flags.has("--no-cache");
        started = Clock::now();
        const auto embeddings = WordEmbeddings::load(flags.required("--embeddings"), load);
        timings["embeddings_seconds"] = secondsSince(started);
        timings["embeddings_from_cache"] = embeddings.report().fromCache;
        timings["embeddings_format"] = embeddings.report().format;
        timings["embeddings_vectors"] = embeddings.size();
        timings["embeddings_dimension"] = embeddings.dimension();
        statistics.addCoverage(data.text, embeddings, flags.required("--embeddings"));
    }

    if (flags.has("--json")) {
        auto j = nlohmann::json::parse(statistics.toJson());
        j["load"] = timings;
        out_ << j.dump() << "\n";
    } else {
        out_ << statistics.toText();
        if (timings.contains("embeddings_seconds"))
            out_ << "  embeddings loaded in " << std::fixed << std::setprecision(3)
                 << timings["embeddings_seconds"].get<double>() << " s"
                 << (timings["embeddings_from_cache"].get<bool>() ? " (from the cache)" : "") << "\n";
    }
    return 0;
}

} // namespace attnlab
