#include "core/config/TrainConfig.h"

#include "core/config/DecodingSettings.h"
#include "core/config/DeviceSetting.h"
#include "core/config/LearningRateSchedule.h"
#include "core/config/Registry.h"
#include "core/platform/JsonInteger.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <stdexcept>

namespace attnlab {

double TrainConfig::defaultLearningRate(const std::string& optimizer)
{
    if (optimizer == "adadelta")
        return 1.0;
    if (optimizer == "sgd")
        return 0.1;
    return 1e-3;
}

std::string TrainConfig::toJson(bool everyKey) const
{
    nlohmann::json j = {
        {"dataset", dataset},
        {"model", model.model},
        {"position", model.position},
        {"d_model", model.dModel},
        {"layers", model.layers},
        {"rpr_clip", model.rprClip},
        {"ff_hidden", model.ffHidden},
        {"dropout_keep", model.dropoutKeep},
        {"dropout_points", model.dropoutPoints},
        {"dropout_input_keep", model.dropoutInputKeep},
        {"dropout_hidden_keep", model.dropoutHiddenKeep},
        {"dropout_output_keep", model.dropoutOutputKeep},
        {"embedding_dim", model.embeddingDim},
        {"heads", model.heads},
        {"ffn_hidden", model.ffnHidden},
        {"filters", model.filters},
        {"max_length", model.maxLength},
        {"activation", model.activation},
        {"pooling", model.pooling},
        {"optimizer", optimizer},
        {"learning_rate", learningRate},
        {"momentum", momentum},
        {"l2", l2},
        {"weight_decay", weightDecay},
        {"lr_schedule", lrSchedule},
        {"lr_decay_every", lrDecayEvery},
        {"lr_decay_gamma", lrDecayGamma},
        {"warmup_steps", warmupSteps},
        {"clip_norm", clipNorm},
        {"epochs", epochs},
        {"patience", patience},
        {"amp", amp},
        {"batch_size", batchSize},
        {"sampling", sampling},
        {"data_dir", dataDir},
        {"steps", steps},
        {"eval_every", evalEvery},
        {"log_every", logEvery},
        {"seed", seed},
        {"device", device},
        {"threads", threads},
        {"phrases", phrases},
        {"embeddings", embeddingsPath},
        {"embeddings_frozen", embeddingsFrozen},
        {"oov_range", oovRange},
        {"checkpoint_dir", checkpointDir},
    };
    const TrainConfig defaults;
    auto optional = [&](const char* key, const auto& value, const auto& fallback) {
        if (everyKey || value != fallback)
            j[key] = value;
    };
    optional("probes", probes, defaults.probes);
    optional("weight_decay_on", weightDecayOn, defaults.weightDecayOn);
    optional("adam_beta2", adamBeta2, defaults.adamBeta2);
    optional("min_learning_rate", minLearningRate, defaults.minLearningRate);
    optional("tf32", tf32, defaults.tf32);
    optional("capturable_step", capturableStep, defaults.capturableStep);
    optional("uniform_attention", model.uniformAttention, defaults.model.uniformAttention);
    optional("frozen_encoder", model.frozenEncoder, defaults.model.frozenEncoder);
    optional("deterministic", deterministic, defaults.deterministic);
    optional("gradient_norms", gradientNorms, defaults.gradientNorms);
    optional("missing_values", missingValues, defaults.missingValues);
    optional("quoting", quoting, defaults.quoting);
    optional("categorical", categorical, defaults.categorical);
    optional("lowercase", lowercase, defaults.lowercase);
    optional("tokenizer", tokenizer, defaults.tokenizer);
    optional("order_dependent", orderDependent, defaults.orderDependent);
    optional("distance", distance, defaults.distance);
    optional("window", window, defaults.window);
    optional("horizon", horizon, defaults.horizon);
    optional("lag", lag, defaults.lag);
    optional("file", file, defaults.file);
    optional("train_file", trainFile, defaults.trainFile);
    optional("dev_file", devFile, defaults.devFile);
    optional("test_file", testFile, defaults.testFile);
    optional("text_column", textColumn, defaults.textColumn);
    optional("label_column", labelColumn, defaults.labelColumn);
    optional("target_column", targetColumn, defaults.targetColumn);
    optional("drivers", driverColumns, defaults.driverColumns);
    optional("delimiter", delimiter, defaults.delimiter);
    optional("header", header, defaults.header);
    optional("train_fraction", trainFraction, defaults.trainFraction);
    optional("dev_fraction", devFraction, defaults.devFraction);
    optional("teacher_forcing", teacherForcing, defaults.teacherForcing);
    optional("label_smoothing", labelSmoothing, defaults.labelSmoothing);
    optional("beam_size", beamSize, defaults.beamSize);
    optional("length_penalty", lengthPenalty, defaults.lengthPenalty);
    optional("attention_score", model.attentionScore, defaults.model.attentionScore);
    optional("alignment", model.alignment, defaults.model.alignment);
    optional("local_window", model.localWindow, defaults.model.localWindow);
    optional("source_language", sourceLanguage, defaults.sourceLanguage);
    optional("target_language", targetLanguage, defaults.targetLanguage);
    optional("source_column", sourceColumn, defaults.sourceColumn);
    optional("max_pair_length", maxPairLength, defaults.maxPairLength);
    optional("subwords", subwords, defaults.subwords);
    optional("subword_vocabulary", subwordVocabulary, defaults.subwordVocabulary);
    optional("source_file", sourceFile, defaults.sourceFile);
    optional("target_file", targetFile, defaults.targetFile);
    optional("dev_source_file", devSourceFile, defaults.devSourceFile);
    optional("dev_target_file", devTargetFile, defaults.devTargetFile);
    optional("test_source_file", testSourceFile, defaults.testSourceFile);
    optional("test_target_file", testTargetFile, defaults.testTargetFile);
    optional("translation_train", translationTrain, defaults.translationTrain);
    optional("translation_dev", translationDev, defaults.translationDev);
    optional("translation_test", translationTest, defaults.translationTest);
    optional("sequence_min_length", sequenceMinLength, defaults.sequenceMinLength);
    optional("sequence_max_length", sequenceMaxLength, defaults.sequenceMaxLength);
    optional("input_length", model.inputLength, defaults.model.inputLength);
    optional("context", model.context, defaults.model.context);
    optional("order", model.order, defaults.model.order);
    optional("smoothing", model.smoothing, defaults.model.smoothing);
    optional("add_k", model.addK, defaults.model.addK);
    optional("cell", model.cell, defaults.model.cell);
    optional("attention_only", model.attentionOnly, defaults.model.attentionOnly);
    optional("scaled", model.scaled, defaults.model.scaled);
    optional("layer_norm", model.layerNorm, defaults.model.layerNorm);
    optional("residual", model.residual, defaults.model.residual);
    optional("attention_window", model.attentionWindow, defaults.model.attentionWindow);
    optional("global_tokens", model.globalTokens, defaults.model.globalTokens);
    optional("lm_unit", lmUnit, defaults.lmUnit);
    optional("repeat_length", repeatLength, defaults.repeatLength);
    optional("repeat_vocabulary", repeatVocabulary, defaults.repeatVocabulary);
    optional("repeat_train", repeatTrain, defaults.repeatTrain);
    optional("repeat_dev", repeatDev, defaults.repeatDev);
    optional("repeat_test", repeatTest, defaults.repeatTest);
    optional("sample_tokens", sampleTokens, defaults.sampleTokens);
    return j.dump();
}

namespace {

// A JSON number into an integer field: whole numbers in the field's range only (1e4 is taken as 10000;
// 2.5 and 1e92 are errors naming the key).
template <typename Integer>
void readWholeNumber(const nlohmann::json& value, const char* key, Integer& target)
{
    if (const auto v = JsonInteger::of<Integer>(value)) {
        target = *v;
        return;
    }
    const std::string where = std::string("config JSON: key '") + key + "' ";
    if (!value.is_number())
        throw std::invalid_argument(where + "has the wrong type");
    if (JsonInteger::isFractional(value))
        throw std::invalid_argument(where + "must be a whole number (got " + value.dump() + ")");
    if (!std::numeric_limits<Integer>::is_signed && value.is_number_integer() && value.get<std::int64_t>() < 0)
        throw std::invalid_argument(where + "must not be negative (got " + value.dump() + ")");
    throw std::invalid_argument(where + "is out of range (" + std::to_string(std::numeric_limits<Integer>::min()) + " to "
                                + std::to_string(std::numeric_limits<Integer>::max()) + ", got " + value.dump() + ")");
}

} // namespace

TrainConfig TrainConfig::fromJson(const std::string& text)
{
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) { // parse_error, or out_of_range for a number like 1e999
        throw std::invalid_argument(std::string("config JSON: ") + e.what());
    }
    if (!j.is_object())
        throw std::invalid_argument("config JSON: expected an object");
    TrainConfig c;
    auto read = [&](const char* key, auto& target) {
        if (!j.contains(key))
            return;
        using Target = std::decay_t<decltype(target)>;
        const auto& value = j.at(key);
        if constexpr (std::is_integral_v<Target> && !std::is_same_v<Target, bool>) {
            // nlohmann converts a float or an out-of-range integer with a bare cast: 2.5 would become 2 and
            // 1e92 undefined behaviour (found by fuzz_config). Only whole numbers that fit are taken.
            readWholeNumber(value, key, target);
            return;
        }
        try {
            value.get_to(target);
        } catch (const nlohmann::json::exception&) {
            throw std::invalid_argument(std::string("config JSON: key '") + key + "' has the wrong type");
        }
    };
    read("dataset", c.dataset);
    read("model", c.model.model);
    read("position", c.model.position);
    read("d_model", c.model.dModel);
    read("layers", c.model.layers);
    read("rpr_clip", c.model.rprClip);
    read("ff_hidden", c.model.ffHidden);
    read("dropout_keep", c.model.dropoutKeep);
    read("dropout_points", c.model.dropoutPoints);
    read("dropout_input_keep", c.model.dropoutInputKeep);
    read("dropout_hidden_keep", c.model.dropoutHiddenKeep);
    read("dropout_output_keep", c.model.dropoutOutputKeep);
    read("embedding_dim", c.model.embeddingDim);
    read("heads", c.model.heads);
    read("ffn_hidden", c.model.ffnHidden);
    read("filters", c.model.filters);
    read("input_length", c.model.inputLength);
    read("max_length", c.model.maxLength);
    read("activation", c.model.activation);
    read("pooling", c.model.pooling);
    read("uniform_attention", c.model.uniformAttention);
    read("frozen_encoder", c.model.frozenEncoder);
    read("optimizer", c.optimizer);
    read("learning_rate", c.learningRate);
    read("momentum", c.momentum);
    read("l2", c.l2);
    read("weight_decay", c.weightDecay);
    read("weight_decay_on", c.weightDecayOn);
    read("adam_beta2", c.adamBeta2);
    read("min_learning_rate", c.minLearningRate);
    read("lr_schedule", c.lrSchedule);
    read("lr_decay_every", c.lrDecayEvery);
    read("lr_decay_gamma", c.lrDecayGamma);
    read("warmup_steps", c.warmupSteps);
    read("clip_norm", c.clipNorm);
    read("epochs", c.epochs);
    read("patience", c.patience);
    read("amp", c.amp);
    read("capturable_step", c.capturableStep);
    read("tf32", c.tf32);
    read("deterministic", c.deterministic);
    read("gradient_norms", c.gradientNorms);
    read("batch_size", c.batchSize);
    read("sampling", c.sampling);
    read("data_dir", c.dataDir);
    read("steps", c.steps);
    read("eval_every", c.evalEvery);
    read("log_every", c.logEvery);
    read("seed", c.seed);
    read("device", c.device);
    read("threads", c.threads);
    read("phrases", c.phrases);
    read("embeddings", c.embeddingsPath);
    read("embeddings_frozen", c.embeddingsFrozen);
    read("oov_range", c.oovRange);
    read("checkpoint_dir", c.checkpointDir);
    read("missing_values", c.missingValues);
    read("quoting", c.quoting);
    read("categorical", c.categorical);
    read("probes", c.probes);
    read("lowercase", c.lowercase);
    read("tokenizer", c.tokenizer);
    read("order_dependent", c.orderDependent);
    read("distance", c.distance);
    read("window", c.window);
    read("horizon", c.horizon);
    read("lag", c.lag);
    read("file", c.file);
    read("train_file", c.trainFile);
    read("dev_file", c.devFile);
    read("test_file", c.testFile);
    read("text_column", c.textColumn);
    read("label_column", c.labelColumn);
    read("target_column", c.targetColumn);
    read("drivers", c.driverColumns);
    read("delimiter", c.delimiter);
    read("header", c.header);
    read("train_fraction", c.trainFraction);
    read("dev_fraction", c.devFraction);
    read("teacher_forcing", c.teacherForcing);
    read("label_smoothing", c.labelSmoothing);
    read("beam_size", c.beamSize);
    read("length_penalty", c.lengthPenalty);
    read("attention_score", c.model.attentionScore);
    read("alignment", c.model.alignment);
    read("local_window", c.model.localWindow);
    read("source_language", c.sourceLanguage);
    read("target_language", c.targetLanguage);
    read("source_column", c.sourceColumn);
    read("max_pair_length", c.maxPairLength);
    read("subwords", c.subwords);
    read("subword_vocabulary", c.subwordVocabulary);
    read("source_file", c.sourceFile);
    read("target_file", c.targetFile);
    read("dev_source_file", c.devSourceFile);
    read("dev_target_file", c.devTargetFile);
    read("test_source_file", c.testSourceFile);
    read("test_target_file", c.testTargetFile);
    read("translation_train", c.translationTrain);
    read("translation_dev", c.translationDev);
    read("translation_test", c.translationTest);
    read("sequence_min_length", c.sequenceMinLength);
    read("sequence_max_length", c.sequenceMaxLength);
    read("context", c.model.context);
    read("order", c.model.order);
    read("smoothing", c.model.smoothing);
    read("add_k", c.model.addK);
    read("cell", c.model.cell);
    read("attention_only", c.model.attentionOnly);
    read("scaled", c.model.scaled);
    read("layer_norm", c.model.layerNorm);
    read("residual", c.model.residual);
    read("attention_window", c.model.attentionWindow);
    read("global_tokens", c.model.globalTokens);
    read("lm_unit", c.lmUnit);
    read("repeat_length", c.repeatLength);
    read("repeat_vocabulary", c.repeatVocabulary);
    read("repeat_train", c.repeatTrain);
    read("repeat_dev", c.repeatDev);
    read("repeat_test", c.repeatTest);
    read("sample_tokens", c.sampleTokens);
    // What a preset, a lesson or a config file leaves out follows what it names, as the command line's flags do:
    // the model the dataset's task, the position technique the model (a translation model takes none, a SAN
    // rpr: Registry::defaultPosition), the learning rate the optimiser. The one place this is decided, so
    // `train --preset`, the designer, Compare, sweeps and repeats all train the same configuration.
    if (!j.contains("model"))
        c.model.model = Registry::defaultModel(c.dataset);
    if (!j.contains("position"))
        c.model.position = Registry::defaultPosition(c.model.model);
    if (!j.contains("learning_rate"))
        c.learningRate = defaultLearningRate(c.optimizer);
    return c;
}

std::string TrainConfig::validate() const
{
    // The model against the data first: a language model on labelled sentences is refused by what they are,
    // before a run is stored, not later by a factory that has no classifier of that name.
    if (auto problem = Registry::taskProblem(model.model, dataset); !problem.empty())
        return problem;
    // The learning rate first: every other check that involves it (weight decay) would misname a bad one.
    if (!(std::isfinite(learningRate) && learningRate > 0.0))
        return "learning_rate: must be a positive number (got " + std::to_string(learningRate) + ")";
    if (optimizer != "adam" && optimizer != "adadelta" && optimizer != "sgd")
        return "optimizer: unknown '" + optimizer + "' (known: adam, adadelta, sgd)";
    if (optimizer == "sgd" && !(momentum >= 0.0 && momentum < 1.0))
        return "momentum: must be in [0, 1) (got " + std::to_string(momentum) + ")";
    if (!(std::isfinite(l2) && l2 >= 0.0))
        return "l2: must be 0 or positive (got " + std::to_string(l2) + ")";
    if (!(std::isfinite(weightDecay) && weightDecay >= 0.0 && weightDecay * learningRate < 1.0))
        return "weight_decay: must be 0 or positive, and weight_decay x learning_rate below 1 (got " + std::to_string(weightDecay) + ")";
    if (weightDecayOn != "all" && weightDecayOn != "matrices")
        return "weight_decay_on: all or matrices (got '" + weightDecayOn + "')";
    if (!(std::isfinite(adamBeta2) && adamBeta2 >= 0.0 && adamBeta2 < 1.0))
        return "adam_beta2: in [0, 1) (got " + std::to_string(adamBeta2) + ")";
    if (!(std::isfinite(minLearningRate) && minLearningRate >= 0.0 && minLearningRate <= learningRate))
        return "min_learning_rate: from 0 to learning_rate (" + std::to_string(learningRate) + "; got " + std::to_string(minLearningRate) + ")";
    if (auto problem = LearningRateSchedule::validate({lrSchedule, lrDecayEvery, lrDecayGamma, warmupSteps, steps}); !problem.empty())
        return problem;
    if (!(std::isfinite(clipNorm) && clipNorm >= 0.0))
        return "clip_norm: must be 0 (off) or positive (got " + std::to_string(clipNorm) + ")";
    if (epochs < 0)
        return "epochs: must be 0 (use steps) or positive (got " + std::to_string(epochs) + ")";
    if (patience < 0)
        return "patience: must be 0 (off) or positive (got " + std::to_string(patience) + ")";
    if (amp && device == "cpu")
        return "amp: mixed precision is for CUDA devices; this run is on the CPU";
    if (tf32 && device == "cpu")
        return "tf32: TF32 matrix products are for CUDA devices; this run is on the CPU";
    if (batchSize < 1)
        return "batch_size: must be at least 1";
    if (sampling != "random" && sampling != "epochs")
        return "sampling: unknown '" + sampling + "' (known: random, epochs)";
    if (steps < 1)
        return "steps: must be at least 1";
    if (evalEvery < 1)
        return "eval_every: must be at least 1";
    if (logEvery < 1)
        return "log_every: must be at least 1";
    if (auto problem = DeviceSetting::problem(device); !problem.empty())
        return problem;
    if (threads < 0)
        return "threads: must be 0 (all cores) or positive";
    if (lmUnit != "characters" && lmUnit != "words" && lmUnit != "pieces")
        return "lm_unit: unknown '" + lmUnit + "' (known: characters, words, pieces)";
    if (sampleTokens < 0 || sampleTokens > 10000)
        return "sample_tokens: must be 0 (no samples) to 10000 (got " + std::to_string(sampleTokens) + ")";
    if (!(oovRange >= 0.0))
        return "oov_range: must be 0 or positive";
    if (missingValues != "error" && missingValues != "drop" && missingValues != "ffill" && missingValues != "interpolate")
        return "missing_values: unknown '" + missingValues + "' (known: error, drop, ffill, interpolate)";
    if (quoting != "auto" && quoting != "on" && quoting != "off")
        return "quoting: unknown '" + quoting + "' (known: auto, on, off)";
    if (categorical != "skip" && categorical != "onehot")
        return "categorical: unknown '" + categorical + "' (known: skip, onehot)";
    if (!tokenizer.empty() && tokenizer != "ptb" && tokenizer != "whitespace" && tokenizer != "tweet" && tokenizer != "words")
        return "tokenizer: unknown '" + tokenizer + "' (known: ptb, whitespace, tweet; words for translation)";
    if (distance < 0)
        return "distance: must be 0 (random) or positive (got " + std::to_string(distance) + ")";
    if (window < 1)
        return "window: must be at least 1 time step (got " + std::to_string(window) + ")";
    if (horizon < 1 || horizon > 1000)
        return "horizon: 1 to 1000 steps ahead (got " + std::to_string(horizon) + ")";
    if (lag < 0)
        return "lag: must be 0 or positive (got " + std::to_string(lag) + ")";
    if (!delimiter.empty() && delimiter != "tab" && delimiter.size() != 1)
        return "delimiter: one character or 'tab' (got '" + delimiter + "')";
    if (!(trainFraction > 0.0 && devFraction > 0.0 && trainFraction + devFraction < 1.0))
        return "train_fraction, dev_fraction: both above 0 and together below 1, the rest is test (got " +
               std::to_string(trainFraction) + ", " + std::to_string(devFraction) + ")";
    if (!(teacherForcing >= 0.0 && teacherForcing <= 1.0))
        return "teacher_forcing: a ratio in [0, 1] (got " + std::to_string(teacherForcing) + ")";
    if (!(labelSmoothing >= 0.0 && labelSmoothing < 1.0))
        return "label_smoothing: must be in [0, 1) (got " + std::to_string(labelSmoothing) + ")";
    if (auto problem = DecodingSettings::beamProblem(beamSize); !problem.empty())
        return problem;
    if (auto problem = DecodingSettings::lengthPenaltyProblem(lengthPenalty); !problem.empty())
        return problem;
    for (const auto* language : {&sourceLanguage, &targetLanguage})
        if (*language != "en" && *language != "de" && *language != "fr")
            return std::string(language == &sourceLanguage ? "source_language" : "target_language") + ": unknown '" + *language +
                   "' (multi30k has en, de, fr)";
    if (!subwords.empty() && subwords != "bpe" && subwords != "unigram")
        return "subwords: '" + subwords + "' is not a SentencePiece model type (bpe | unigram; leave it empty for words)";
    if (subwordVocabulary < 8 || subwordVocabulary > 1000000)
        return "subword_vocabulary: 8 to 1000000 pieces (got " + std::to_string(subwordVocabulary) + ")";
    if (maxPairLength < 0)
        return "max_pair_length: 0 (no cap) or positive (got " + std::to_string(maxPairLength) + ")";
    if (sourceLanguage == targetLanguage)
        return "source_language, target_language: the same language ('" + sourceLanguage + "') on both sides";
    if (header < -1 || header > 1)
        return "header: -1 (detect), 0 (none) or 1 (a header row) (got " + std::to_string(header) + ")";
    return {};
}

} // namespace attnlab

namespace attnlab {

std::vector<std::string> TrainConfig::unknownKeys(const std::string& json)
{
    const auto known = nlohmann::json::parse(TrainConfig{}.toJson(true));
    std::vector<std::string> unknown;
    const auto j = nlohmann::json::parse(json, nullptr, false);
    if (j.is_object())
        for (const auto& item : j.items())
            if (!known.contains(item.key()))
                unknown.push_back(item.key());
    return unknown;
}

} // namespace attnlab

namespace attnlab {

DatasetOptions TrainConfig::datasetOptions() const
{
    DatasetOptions o;
    o.dataDir = dataDir;
    o.phrases = phrases;
    o.missing = missingValues;
    o.quoting = quoting;
    o.categorical = categorical;
    o.lowercase = lowercase;
    if (!tokenizer.empty())
        o.tokenizer = tokenizer;
    o.orderDependent = orderDependent;
    o.distance = distance;
    o.window = window;
    o.horizon = horizon;
    o.lag = lag;
    o.file = file;
    o.trainFile = trainFile;
    o.devFile = devFile;
    o.testFile = testFile;
    o.textColumn = textColumn;
    o.labelColumn = labelColumn;
    o.targetColumn = targetColumn;
    o.driverColumns = driverColumns;
    o.delimiter = delimiter == "tab" ? '\t' : delimiter.size() == 1 ? delimiter[0] : 0;
    o.header = header;
    o.trainFraction = trainFraction;
    o.devFraction = devFraction;
    o.sourceLanguage = sourceLanguage;
    o.targetLanguage = targetLanguage;
    o.sourceColumn = sourceColumn;
    o.maxPairLength = maxPairLength;
    o.subwords = subwords;
    o.subwordVocabulary = subwordVocabulary;
    o.sourceFile = sourceFile;
    o.targetFile = targetFile;
    o.devSourceFile = devSourceFile;
    o.devTargetFile = devTargetFile;
    o.testSourceFile = testSourceFile;
    o.testTargetFile = testTargetFile;
    o.translationTrain = translationTrain;
    o.translationDev = translationDev;
    o.translationTest = translationTest;
    o.sequenceMinLength = sequenceMinLength;
    o.sequenceMaxLength = sequenceMaxLength;
    o.lmUnit = lmUnit;
    o.repeatLength = repeatLength;
    o.repeatVocabulary = repeatVocabulary;
    o.repeatTrain = repeatTrain;
    o.repeatDev = repeatDev;
    o.repeatTest = repeatTest;
    if (!tokenizer.empty())
        o.translationTokenizer = tokenizer;
    return o;
}

} // namespace attnlab
