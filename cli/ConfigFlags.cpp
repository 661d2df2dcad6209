#include "cli/ConfigFlags.h"

#include "cli/CliFlags.h"
#include "core/config/Registry.h"
#include "core/data/Vocabulary.h"

#include <algorithm>

namespace attnlab {

const std::set<std::string>& ConfigFlags::modelFlags()
{
    static const std::set<std::string> flags = {"--dataset",
                                                "--model",
                                                "--position",
                                                "--d-model",
                                                "--layers",
                                                "--rpr-clip",
                                                "--ff-hidden",
                                                "--dropout-keep",
                                                "--heads",
                                                "--ffn-hidden",
                                                "--filters",
                                                "--input-length",
                                                "--max-length",
                                                "--activation",
                                                "--pooling",
                                                "--dropout-points",
                                                "--dropout-input-keep",
                                                "--dropout-hidden-keep",
                                                "--dropout-output-keep",
                                                "--embedding-dim",
                                                "--attention-score",
                                                "--alignment",
                                                "--local-window",
                                                "--context",
                                                "--order",
                                                "--smoothing",
                                                "--add-k",
                                                "--cell",
                                                "--layer-norm",
                                                "--attention-window",
                                                "--global-tokens"};
    return flags;
}

const std::set<std::string>& ConfigFlags::datasetFlags()
{
    static const std::set<std::string> flags = {
        "--data-dir", "--file", "--train-file", "--dev-file", "--test-file", "--text-column", "--label-column",
        "--target-column", "--drivers", "--delimiter", "--header", "--window", "--horizon", "--tokenizer", "--lag", "--distance",
        "--min-fillers", "--max-fillers", "--dataset-seed", "--missing", "--quoting", "--categorical",
        "--source", "--target", "--source-column", "--max-pair-length", "--source-file", "--target-file",
        "--dev-source-file", "--dev-target-file", "--test-source-file", "--test-target-file", "--pairs",
        "--sequence-min-length", "--sequence-max-length", "--subwords", "--subword-vocabulary", "--unit", "--repeat-length",
        "--repeat-vocabulary", "--repeat-train"};
    return flags;
}

const std::set<std::string>& ConfigFlags::datasetSwitches()
{
    static const std::set<std::string> flags = {"--phrases", "--lowercase", "--order-dependent"};
    return flags;
}

DatasetOptions ConfigFlags::datasetOptions(const CliFlags& flags)
{
    DatasetOptions o;
    flags.update("--dataset-seed", o.seed);
    flags.update("--data-dir", o.dataDir);
    o.phrases = flags.has("--phrases");
    o.lowercase = flags.has("--lowercase");
    o.orderDependent = flags.has("--order-dependent");
    flags.update("--file", o.file);
    flags.update("--train-file", o.trainFile);
    flags.update("--dev-file", o.devFile);
    flags.update("--test-file", o.testFile);
    flags.update("--text-column", o.textColumn);
    flags.update("--label-column", o.labelColumn);
    flags.update("--target-column", o.targetColumn);
    flags.update("--tokenizer", o.tokenizer);
    flags.update("--source", o.sourceLanguage);
    flags.update("--target", o.targetLanguage);
    flags.update("--source-column", o.sourceColumn);
    flags.update("--max-pair-length", o.maxPairLength);
    flags.update("--subwords", o.subwords);
    flags.update("--subword-vocabulary", o.subwordVocabulary);
    flags.update("--source-file", o.sourceFile);
    flags.update("--target-file", o.targetFile);
    flags.update("--dev-source-file", o.devSourceFile);
    flags.update("--dev-target-file", o.devTargetFile);
    flags.update("--test-source-file", o.testSourceFile);
    flags.update("--test-target-file", o.testTargetFile);
    flags.update("--pairs", o.translationTrain); // the synthetic translation tasks' training pairs
    flags.update("--sequence-min-length", o.sequenceMinLength);
    flags.update("--sequence-max-length", o.sequenceMaxLength);
    flags.update("--unit", o.lmUnit);
    if (o.lmUnit != "characters" && o.lmUnit != "words" && o.lmUnit != "pieces")
        throw CliUsageError("--unit expects characters, words or pieces, got '" + o.lmUnit + "'");
    flags.update("--repeat-length", o.repeatLength);
    flags.update("--repeat-vocabulary", o.repeatVocabulary);
    flags.update("--repeat-train", o.repeatTrain);
    // Not CliFlags::list: --drivers is optional, and its items are kept as given (list drops empty ones).
    for (std::string rest = flags.text("--drivers", ""); !rest.empty();) {
        const auto comma = rest.find(',');
        o.driverColumns.push_back(rest.substr(0, comma));
        rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    }
    const std::string delimiter = flags.text("--delimiter", "");
    if (delimiter == "tab" || delimiter == "\\t") o.delimiter = '\t';
    else if (delimiter.size() == 1) o.delimiter = delimiter[0];
    else if (!delimiter.empty()) throw CliUsageError("--delimiter expects one character or 'tab', got '" + delimiter + "'");
    const std::string header = flags.text("--header", "auto");
    if (header != "auto" && header != "yes" && header != "no")
        throw CliUsageError("--header expects auto, yes or no, got '" + header + "'");
    o.header = header == "auto" ? -1 : header == "yes" ? 1 : 0;
    auto choice = [&](const char* flag, std::string& target, std::initializer_list<const char*> known) {
        target = flags.text(flag, target);
        std::string list;
        for (const char* k : known) {
            if (target == k) return;
            list += (list.empty() ? "" : ", ") + std::string(k);
        }
        throw CliUsageError(std::string(flag) + " expects " + list + ", got '" + target + "'");
    };
    choice("--missing", o.missing, {"error", "drop", "ffill", "interpolate"});
    choice("--quoting", o.quoting, {"auto", "on", "off"});
    choice("--categorical", o.categorical, {"skip", "onehot"});
    flags.update("--window", o.window);
    flags.update("--horizon", o.horizon);
    flags.update("--lag", o.lag);
    flags.update("--distance", o.distance);
    flags.update("--min-fillers", o.minFillers);
    o.maxFillers = static_cast<int>(flags.integer("--max-fillers", std::max(o.maxFillers, o.minFillers)));
    return o;
}

void ConfigFlags::applyDataFlags(const CliFlags& flags, TrainConfig& c)
{
    const DatasetOptions o = datasetOptions(flags); // checks the values
    if (flags.has("--data-dir")) c.dataDir = o.dataDir;
    c.phrases = c.phrases || o.phrases;
    c.lowercase = c.lowercase || o.lowercase;
    c.orderDependent = c.orderDependent || o.orderDependent;
    if (flags.has("--missing")) c.missingValues = o.missing;
    if (flags.has("--quoting")) c.quoting = o.quoting;
    if (flags.has("--categorical")) c.categorical = o.categorical;
    if (flags.has("--tokenizer")) c.tokenizer = o.tokenizer;
    if (flags.has("--source")) c.sourceLanguage = o.sourceLanguage;
    if (flags.has("--target")) c.targetLanguage = o.targetLanguage;
    if (flags.has("--source-column")) c.sourceColumn = o.sourceColumn;
    if (flags.has("--max-pair-length")) c.maxPairLength = o.maxPairLength;
    if (flags.has("--subwords")) c.subwords = o.subwords;
    if (flags.has("--subword-vocabulary")) c.subwordVocabulary = o.subwordVocabulary;
    if (flags.has("--source-file")) c.sourceFile = o.sourceFile;
    if (flags.has("--target-file")) c.targetFile = o.targetFile;
    if (flags.has("--dev-source-file")) c.devSourceFile = o.devSourceFile;
    if (flags.has("--dev-target-file")) c.devTargetFile = o.devTargetFile;
    if (flags.has("--test-source-file")) c.testSourceFile = o.testSourceFile;
    if (flags.has("--test-target-file")) c.testTargetFile = o.testTargetFile;
    if (flags.has("--pairs")) c.translationTrain = o.translationTrain;
    if (flags.has("--sequence-min-length")) c.sequenceMinLength = o.sequenceMinLength;
    if (flags.has("--sequence-max-length")) c.sequenceMaxLength = o.sequenceMaxLength;
    if (flags.has("--unit")) c.lmUnit = o.lmUnit;
    if (flags.has("--repeat-length")) c.repeatLength = o.repeatLength;
    if (flags.has("--repeat-vocabulary")) c.repeatVocabulary = o.repeatVocabulary;
    if (flags.has("--repeat-train")) c.repeatTrain = o.repeatTrain;
    if (flags.has("--distance")) c.distance = o.distance;
    if (flags.has("--window")) c.window = o.window;
    if (flags.has("--horizon")) c.horizon = o.horizon;
    if (flags.has("--lag")) c.lag = o.lag;
    if (flags.has("--file")) c.file = o.file;
    if (flags.has("--train-file")) c.trainFile = o.trainFile;
    if (flags.has("--dev-file")) c.devFile = o.devFile;
    if (flags.has("--test-file")) c.testFile = o.testFile;
    if (flags.has("--text-column")) c.textColumn = o.textColumn;
    if (flags.has("--label-column")) c.labelColumn = o.labelColumn;
    if (flags.has("--target-column")) c.targetColumn = o.targetColumn;
    if (flags.has("--drivers")) c.driverColumns = o.driverColumns;
    if (flags.has("--delimiter")) c.delimiter = o.delimiter == '\t' ? std::string("tab") : std::string(1, o.delimiter);
    if (flags.has("--header")) c.header = o.header;
}

ModelConfig ConfigFlags::modelConfig(const CliFlags& flags, const ModelConfig* base)
{
    ModelConfig m = base ? *base : ModelConfig{};
    // Without a base, what is not given stays "" for withDefaults, which needs the dataset to choose.
    m.model = flags.text("--model", base ? m.model : std::string());
    m.position = flags.text("--position", base ? m.position : std::string());
    flags.update("--d-model", m.dModel);
    flags.update("--embedding-dim", m.embeddingDim);
    flags.update("--layers", m.layers);
    flags.update("--rpr-clip", m.rprClip);
    flags.update("--ff-hidden", m.ffHidden);
    flags.update("--dropout-keep", m.dropoutKeep);
    flags.update("--dropout-points", m.dropoutPoints);
    flags.update("--dropout-input-keep", m.dropoutInputKeep);
    flags.update("--dropout-hidden-keep", m.dropoutHiddenKeep);
    flags.update("--dropout-output-keep", m.dropoutOutputKeep);
    flags.update("--heads", m.heads);
    flags.update("--ffn-hidden", m.ffnHidden);
    flags.update("--filters", m.filters);
    flags.update("--input-length", m.inputLength);
    flags.update("--max-length", m.maxLength);
    flags.update("--activation", m.activation);
    flags.update("--pooling", m.pooling);
    flags.update("--attention-score", m.attentionScore);
    flags.update("--alignment", m.alignment);
    flags.update("--local-window", m.localWindow);
    flags.update("--context", m.context);
    flags.update("--order", m.order);
    flags.update("--smoothing", m.smoothing);
    flags.update("--add-k", m.addK);
    flags.update("--cell", m.cell);
    flags.update("--layer-norm", m.layerNorm);
    flags.update("--attention-window", m.attentionWindow);
    flags.update("--global-tokens", m.globalTokens);
    if (flags.has("--no-residual"))
        m.residual = false;
    if (flags.has("--attention-only"))
        m.attentionOnly = true;
    if (flags.has("--unscaled"))
        m.scaled = false;
    if (flags.has("--uniform-attention"))
        m.uniformAttention = true;
    if (flags.has("--frozen-encoder"))
        m.frozenEncoder = true;
    return m;
}

const std::vector<std::pair<std::string, std::string>>& ConfigFlags::flagKeys()
{
    static const std::vector<std::pair<std::string, std::string>> pairs = {
        {"--dataset", "dataset"},
        {"--model", "model"},
        {"--position", "position"},
        {"--d-model", "d_model"},
        {"--embedding-dim", "embedding_dim"},
        {"--layers", "layers"},
        {"--rpr-clip", "rpr_clip"},
        {"--ff-hidden", "ff_hidden"},
        {"--dropout-keep", "dropout_keep"},
        {"--dropout-points", "dropout_points"},
        {"--dropout-input-keep", "dropout_input_keep"},
        {"--dropout-hidden-keep", "dropout_hidden_keep"},
        {"--dropout-output-keep", "dropout_output_keep"},
        {"--heads", "heads"},
        {"--ffn-hidden", "ffn_hidden"},
        {"--filters", "filters"},
        {"--input-length", "input_length"},
        {"--max-length", "max_length"},
        {"--activation", "activation"},
        {"--pooling", "pooling"},
        {"--optimizer", "optimizer"},
        {"--lr", "learning_rate"},
        {"--momentum", "momentum"},
        {"--l2", "l2"},
        {"--weight-decay", "weight_decay"},
        {"--weight-decay-on", "weight_decay_on"},
        {"--adam-beta2", "adam_beta2"},
        {"--min-lr", "min_learning_rate"},
        {"--lr-schedule", "lr_schedule"},
        {"--lr-decay-every", "lr_decay_every"},
        {"--lr-decay-gamma", "lr_decay_gamma"},
        {"--warmup-steps", "warmup_steps"},
        {"--clip-norm", "clip_norm"},
        {"--epochs", "epochs"},
        {"--patience", "patience"},
        {"--amp", "amp"},
        {"--capturable-step", "capturable_step"},
        {"--tf32", "tf32"},
        {"--gradient-norms", "gradient_norms"},
        {"--uniform-attention", "uniform_attention"},
        {"--frozen-encoder", "frozen_encoder"},
        {"--batch-size", "batch_size"},
        {"--sampling", "sampling"},
        {"--steps", "steps"},
        {"--eval-every", "eval_every"},
        {"--log-every", "log_every"},
        {"--seed", "seed"},
        {"--device", "device"},
        {"--threads", "threads"},
        {"--oov-range", "oov_range"},
        {"--embeddings", "embeddings"},
        {"--missing", "missing_values"},
        {"--quoting", "quoting"},
        {"--categorical", "categorical"},
        {"--tokenizer", "tokenizer"},
        {"--distance", "distance"},
        {"--window", "window"},
        {"--horizon", "horizon"},
        {"--lag", "lag"},
        {"--delimiter", "delimiter"},
        {"--header", "header"},
        {"--attention-score", "attention_score"},
        {"--alignment", "alignment"},
        {"--local-window", "local_window"},
        {"--source", "source_language"},
        {"--target", "target_language"},
        {"--source-column", "source_column"},
        {"--max-pair-length", "max_pair_length"},
        {"--subwords", "subwords"},
        {"--subword-vocabulary", "subword_vocabulary"},
        {"--teacher-forcing", "teacher_forcing"},
        {"--label-smoothing", "label_smoothing"},
        {"--beam", "beam_size"},
        {"--length-penalty", "length_penalty"},
        {"--source-file", "source_file"},
        {"--target-file", "target_file"},
        {"--pairs", "translation_train"},
        {"--sequence-min-length", "sequence_min_length"},
        {"--sequence-max-length", "sequence_max_length"},
        {"--context", "context"},
        {"--order", "order"},
        {"--smoothing", "smoothing"},
        {"--add-k", "add_k"},
        {"--cell", "cell"},
        {"--attention-only", "attention_only"},
        {"--unscaled", "scaled"},
        {"--layer-norm", "layer_norm"},
        {"--no-residual", "residual"},
        {"--attention-window", "attention_window"},
        {"--global-tokens", "global_tokens"},
        {"--unit", "lm_unit"},
        {"--repeat-length", "repeat_length"},
        {"--repeat-vocabulary", "repeat_vocabulary"},
        {"--repeat-train", "repeat_train"},
        {"--sample-tokens", "sample_tokens"},
    };
    return pairs;
}

std::string ConfigFlags::inFlagTerms(const std::string& problem, const CliFlags& flags)
{
    const auto colon = problem.find(':');
    if (colon == std::string::npos)
        return problem;
    const std::string key = problem.substr(0, colon);
    for (const auto& [flag, k] : flagKeys())
        if (k == key && flags.has(flag))
            return flag + problem.substr(colon);
    return problem;
}

void ConfigFlags::fillDefaults(std::string& dataset, ModelConfig& model)
{
    if (dataset.empty())
        dataset = Registry::kDefaultDataset;
    if (model.model.empty())
        model.model = Registry::defaultModel(dataset);
    if (model.position.empty())
        model.position = Registry::defaultPosition(model.model);
}

void ConfigFlags::checkIds(const std::string& dataset, const std::string& model, const std::string& position)
{
    checkDataset(dataset);
    if (!Registry::find(Registry::models(), model))
        throw CliUsageError("unknown model '" + model + "' (known: " + Registry::idList(Registry::models()) + ")");
    if (!Registry::find(Registry::positions(), position))
        throw CliUsageError("unknown position technique '" + position + "' (known: " + Registry::idList(Registry::positions()) + ")");
}

void ConfigFlags::checkDataset(const std::string& dataset)
{
    if (!Registry::find(Registry::datasets(), dataset))
        throw CliUsageError("unknown dataset '" + dataset + "' (known: " + Registry::idList(Registry::datasets()) + ")");
}

ModelConfig ConfigFlags::modelFor(const ModelConfig& model, const LoadedDataset& data)
{
    ModelConfig m = model;
    if (data.regression) {
        m.drivers = data.series.drivers();
        m.window = data.series.window;
    } else if (data.languageModel) {
        m.vocabularySize = static_cast<int>(data.stream.vocabulary.size());
    } else if (data.translation) { // the sizes Trainer gives the model (Vocabulary::fromPairs)
        m.vocabularySize = static_cast<int>(Vocabulary::fromPairs(data.pairs.train, false).size());
        m.targetVocabularySize = static_cast<int>(Vocabulary::fromPairs(data.pairs.train, true).size());
    } else {
        m.numClasses = data.text.numClasses();
        m.vocabularySize = static_cast<int>(Vocabulary::fromExamples(data.text.train).size());
    }
    if (auto problem = m.validate(); !problem.empty())
        throw CliUsageError(problem);
    return m;
}

} // namespace attnlab
