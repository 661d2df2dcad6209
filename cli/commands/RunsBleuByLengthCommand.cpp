#include "cli/commands/RunsBleuByLengthCommand.h"

#include "cli/CliFlags.h"
#include "cli/TextCells.h"
#include "cli/commands/RunIds.h"
#include "core/data/DatasetCatalog.h"
#include "core/platform/Terminal.h"
#include "core/results/BleuByLength.h"
#include "core/store/RunStore.h"
#include "core/training/Translator.h"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <map>
#include <ostream>
#include <stdexcept>

namespace attnlab {

int RunsBleuByLengthCommand::run(const std::vector<std::string>& args)
{
    const CliFlags flags(args, {"--split", "--buckets", "--data-dir", "--db"}, {"--json"}, 1u << 20);
    const auto ids = flags.positional();
    if (ids.empty())
        throw CliUsageError("runs bleu-by-length needs the id of one or more translation runs");
    // dev,test together: a built-in task's lengths seen in training (dev) beside the longer ones (test).
    const std::vector<std::string> splits = flags.has("--split") ? flags.list("--split") : std::vector<std::string>{"test"};
    std::string split;
    for (const auto& s : splits) {
        if (s != "test" && s != "dev")
            throw CliUsageError("--split: test, dev or dev,test (got '" + flags.text("--split", "") + "')");
        split += (split.empty() ? "" : ",") + s;
    }
    std::vector<BleuByLength::Bucket> buckets = BleuByLength::defaults();
    if (flags.has("--buckets")) {
        try {
            buckets = BleuByLength::parse(flags.required("--buckets"));
        } catch (const std::invalid_argument& e) {
            throw CliUsageError("--" + std::string(e.what()));
        }
    }
    const bool json = flags.has("--json");
    const bool tty = Terminal::isTerminal(Terminal::Stream::Error);
    RunStore store(flags.text("--db", RunStore::defaultPath()));

    nlohmann::json runs = nlohmann::json::array();
    std::vector<std::string> labels;
    std::map<std::string, std::vector<std::string>> cells; // bucket -> a cell per run
    for (const auto& text : ids) {
        const std::int64_t id = runIdFrom(text);
        const RunRecord record = existingRun(store, id);
        if (!DatasetCatalog::isTranslation(record.dataset))
            throw std::runtime_error("run " + std::to_string(id) + " trained on '" + record.dataset +
                                     "', not a translation dataset: BLEU by length is for encoder-decoders");
        const Translator translator(keptWeights(store, record, std::nullopt, "score it by length"));
        auto options = translator.config().datasetOptions();
        if (flags.has("--data-dir"))
            options.dataDir = flags.required("--data-dir");
        const TranslationDataset data = DatasetCatalog::loadTranslation(record.dataset, options);
        std::vector<TranslationPair> pairs;
        for (const auto& s : splits)
            pairs.insert(pairs.end(), (s == "test" ? data.test : data.dev).begin(), (s == "test" ? data.test : data.dev).end());
        std::vector<std::string> sources, references;
        std::vector<int> lengths;
        for (const auto& p : pairs) {
            sources.push_back(p.sourceText);
            references.push_back(p.targetText);
            lengths.push_back(static_cast<int>(p.source.size()));
        }
        Translator::Decoding decoding;
        decoding.withAttention = false;
        const auto translations = translator.translateAll(sources, decoding, [&](std::size_t done, std::size_t total) {
            if (tty)
                err_ << "\rrun " << id << ": translated " << done << " of " << total << std::flush;
        });
        if (tty)
            err_ << "\r" << std::string(50, ' ') << "\r" << std::flush;
        std::vector<std::string> hypotheses;
        std::vector<bool> exact;
        for (std::size_t i = 0; i < translations.size(); ++i) {
            hypotheses.push_back(translations[i].text);
            exact.push_back(translations[i].targetTokens == pairs[i].target);
        }
        const auto rows = BleuByLength::score(lengths, hypotheses, references, exact, buckets);
        nlohmann::json jsonRows = nlohmann::json::array();
        const std::string label = "run " + std::to_string(id) + " " + record.model;
        labels.push_back(label);
        for (const auto& r : rows) {
            jsonRows.push_back({{"source_words", r.label}, {"sentences", r.sentences}, {"bleu", r.bleu}, {"exact_match", r.exact},
                                {"mean_source_words", r.sourceWords}});
            auto& row = cells[r.label];
            row.resize(labels.size() - 1, "-");
            row.push_back(fixedCell(r.bleu, 1) + " (" + fixedCell(100.0 * r.exact, 0) + "%, n=" + std::to_string(r.sentences) + ")");
        }
        runs.push_back({{"run_id", id}, {"model", record.model}, {"dataset", record.dataset}, {"split", split},
                        {"weights", translator.weights()}, {"step", translator.step()}, {"rows", jsonRows}});
    }
    if (json) {
        out_ << nlohmann::json{{"split", split}, {"bleu", BleuScore().signature(1)}, {"runs", runs}}.dump() << "\n";
        return 0;
    }
    // "all" last, the buckets in length order whichever run had them first.
    std::vector<std::string> rowsInOrder;
    for (const auto& b : buckets)
        if (cells.count(b.label()))
            rowsInOrder.push_back(b.label());
    rowsInOrder.push_back("all");
    out_ << "BLEU by source length on " << split << " (" << BleuScore().signature(1) << "); cell: BLEU (exact match, sentences)\n";
    out_ << std::left << std::setw(14) << "source words";
    for (const auto& l : labels)
        out_ << std::setw(30) << l;
    out_ << "\n";
    for (const auto& bucket : rowsInOrder) {
        auto row = cells[bucket];
        row.resize(labels.size(), "-");
        out_ << std::setw(14) << bucket;
        for (const auto& c : row)
            out_ << std::setw(30) << c;
        out_ << "\n";
    }
    return 0;
}

} // namespace attnlab
