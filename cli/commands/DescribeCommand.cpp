#include "cli/commands/DescribeCommand.h"

#include "cli/CliFlags.h"
#include "cli/ConfigFlags.h"
#include "core/config/Registry.h"
#include "core/data/DatasetCatalog.h"
#include "core/data/Vocabulary.h"
#include "core/training/PretrainedEncoder.h"
#include "core/training/TextClassifier.h"
#include "core/training/TextGenerator.h"
#include "core/training/Translator.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace attnlab {

int DescribeCommand::run(const std::vector<std::string>& args)
{
    auto valued = ConfigFlags::modelFlags();
    const auto& dataFlags = ConfigFlags::datasetFlags();
    valued.insert(dataFlags.begin(), dataFlags.end());
    auto switches = ConfigFlags::datasetSwitches();
    switches.insert({"--json", "--uniform-attention", "--frozen-encoder", "--attention-only", "--unscaled", "--no-residual"});
    const CliFlags flags(args, valued, switches);
    ModelConfig flagged = ConfigFlags::modelConfig(flags);
    std::string datasetId = flags.text("--dataset", "");
    ConfigFlags::fillDefaults(datasetId, flagged);
    ConfigFlags::checkIds(datasetId, flagged.model, flagged.position);
    if (DatasetCatalog::isTranslation(datasetId)) {
        // An encoder-decoder: its word tables' sizes come from the training pairs (--source/--target, --subwords, ...).
        const auto pairs = DatasetCatalog::loadTranslation(datasetId, ConfigFlags::datasetOptions(flags));
        const auto [source, target] = Vocabulary::ofTranslation(pairs);
        ModelConfig m = flagged;
        m.vocabularySize = static_cast<int>(source.size());
        m.targetVocabularySize = static_cast<int>(target.size());
        m.numClasses = 0;
        std::pair<std::string, std::int64_t> described;
        try {
            described = Translator::describe(m);
        } catch (const std::invalid_argument& e) {
            throw CliUsageError(ConfigFlags::inFlagTerms(e.what(), flags));
        }
        if (flags.has("--json"))
            out_ << nlohmann::json{{"dataset", datasetId}, {"model", m.model}, {"position", m.position}, {"d_model", m.dModel},
                                   {"layers", m.layers}, {"heads", m.heads}, {"source_vocabulary", m.vocabularySize},
                                   {"target_vocabulary", m.targetVocabularySize}, {"params", described.second},
                                   {"summary", described.first}}.dump()
                 << "\n";
        else
            out_ << described.first << "\n"
                 << "trainable parameters (word tables excluded): " << described.second << "\n";
        return 0;
    }
    if (DatasetCatalog::isLanguageModel(datasetId)) {
        // A language model: its token table's size comes from the text (--unit, --subwords, ...).
        const auto text = DatasetCatalog::loadLanguageModel(datasetId, ConfigFlags::datasetOptions(flags));
        ModelConfig m = flagged;
        m.vocabularySize = static_cast<int>(text.vocabulary.size());
        m.numClasses = 0;
        std::pair<std::string, std::int64_t> described;
        try {
            described = TextGenerator::describe(m);
        } catch (const std::invalid_argument& e) {
            throw CliUsageError(ConfigFlags::inFlagTerms(e.what(), flags));
        }
        if (flags.has("--json"))
            out_ << nlohmann::json {{"dataset", datasetId},       {"model", m.model},
                                    {"position", m.position},     {"d_model", m.dModel},
                                    {"layers", m.layers},         {"order", m.order},
                                    {"context", m.context},       {"vocabulary", m.vocabularySize},
                                    {"params", described.second}, {"summary", described.first}}
                        .dump()
                 << "\n";
        else
            out_ << described.first << "\n"
                 << "trainable parameters: " << described.second << "\n";
        return 0;
    }
    // A sentence classifier: a time-series id is refused by the text loader, naming the problem.
    LoadedDataset data;
    data.text = DatasetCatalog::load(datasetId);
    ModelConfig m = ConfigFlags::modelFor(flagged, data);
    if (const ModelSpec* entry = Registry::model(m.model); entry && !entry->pretrained.empty()) {
        // Its sizes are the pretrained model's (config.json): it must be installed to be described.
        const std::string folder = PretrainedEncoder::locate(entry->pretrained);
        m = PretrainedEncoder::classifierConfig(m, BertConfig::fromFile(folder + "/config.json"));
    }
    if (const ModelSpec* entry = Registry::model(m.model); entry && entry->hasOption("input_length"))
        m.resolveInputLength(data.text.longestExample()); // as training sizes it
    TextClassifier classifier(m);
    const auto params = classifier.trainableParameters();
    if (flags.has("--json")) {
        out_ << nlohmann::json{{"dataset", datasetId}, {"model", m.model}, {"position", m.position},
                               {"d_model", m.dModel}, {"layers", m.layers}, {"classes", m.numClasses},
                               {"rpr_clip", m.position == "rpr" ? m.rprClip : 0}, {"params", params},
                               {"summary", classifier.summary()}}.dump()
             << "\n";
    } else {
        out_ << classifier.summary() << "\n"
             << "trainable parameters (embeddings excluded): " << params << "\n";
    }
    return 0;
}

} // namespace attnlab
