#include "cli/commands/GateReport.h"

#include "cli/CliFlags.h"
#include "cli/TextCells.h"
#include "cli/commands/RunIds.h"
#include "core/config/Registry.h"
#include "core/store/RunStore.h"
#include "core/training/ModelExplainer.h"
#include "core/training/TextGenerator.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <ostream>
#include <stdexcept>

namespace attnlab {

// A stored LSTM's or GRU's gates over --text (--gates): each gate's mean over its units, one column a token.
int GateReport::run(const CliFlags& flags, std::ostream& out_)
{
    for (const char* flag :
         {"--pretrained", "--method", "--layer", "--head", "--query", "--probe", "--part", "--force"})
        if (flags.has(flag))
            throw CliUsageError(std::string(flag) + " does not go with --gates (a stored run's gates over --text)");
    const std::int64_t runId = runIdFrom(flags.required("--run"));
    const std::string text = flags.required("--text");
    RunStore store(flags.text("--db", RunStore::defaultPath()));
    const RunRecord run = existingRun(store, runId);
    std::optional<int> step;
    if (flags.has("--step"))
        step = static_cast<int>(flags.integer("--step", 0));
    const CheckpointRef chosen = keptWeights(store, run, step, "read its gates");
    if (run.summary().translation || run.summary().regression)
        throw CliUsageError("--gates reads a sentence classifier's or a language model's gates; run " +
                            std::to_string(runId) + " is a " +
                            (run.summary().translation ? "translation" : "time-series") + " model");
    std::vector<std::string> tokens;
    GateValues gates;
    try {
        if (run.summary().languageModel) {
            gates = TextGenerator(chosen).gates(text, &tokens);
        } else {
            const auto e = ModelExplainer(chosen).explain(text);
            gates = e.gates;
            tokens = e.tokens;
        }
    } catch (const std::invalid_argument& e) {
        throw CliUsageError("--" + std::string(e.what()));
    }
    if (gates.empty()) {
        const ModelSpec* spec = Registry::model(run.model);
        const bool celled = spec && spec->hasOption("cell"); // a char-RNN: its cell decides
        throw CliUsageError(
            "run " + std::to_string(runId) + " (" + run.model +
            (celled ? ", cell " + TrainConfig::fromJson(run.configJson).model.cell : std::string()) +
            ") has no gates: the LSTM and GRU models record them (lstm, bilstm, gru, rnn-attention; char-rnn "
            "with --cell lstm or gru)");
    }
    if (flags.has("--json")) {
        auto j = nlohmann::json::parse(gates.toJson());
        j["run_id"] = runId;
        j["tokens"] = tokens;
        j["weights_step"] = chosen.step;
        out_ << j.dump() << "\n";
        return 0;
    }
    std::size_t width = 7;
    for (const auto& t : tokens)
        width = std::max(width, std::min<std::size_t>(t.size(), 12) + 1);
    out_ << "run " << runId << " · " << run.model << " · " << gates.cell << " gates, each the mean over its units\n";
    for (const auto& strip : gates.strips) {
        out_ << "layer " << strip.layer + 1 << " " << strip.direction << " (" << strip.units << " units)\n";
        out_ << "  " << paddedCell("", 11);
        for (const auto& t : tokens)
            out_ << paddedCell((t == "\n" ? std::string("\\n") : t).substr(0, 12), width);
        out_ << "\n";
        for (int g = 0; g < static_cast<int>(strip.gates.size()); ++g) {
            out_ << "  " << paddedCell(strip.gates[static_cast<std::size_t>(g)], 11);
            for (const float v : strip.meanOverUnits(g))
                out_ << paddedCell(fixedCell(v, 3), width);
            out_ << "\n";
        }
    }
    return 0;
}

} // namespace attnlab
