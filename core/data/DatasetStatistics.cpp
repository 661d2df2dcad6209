#include "core/data/DatasetStatistics.h"

#include "core/data/WordEmbeddings.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <unordered_set>

namespace attnlab {

DatasetStatistics::Split DatasetStatistics::splitOf(const std::string& name, const std::vector<TextExample>& examples, int classes)
{
    Split s;
    s.name = name;
    s.examples = static_cast<std::int64_t>(examples.size());
    s.classCounts.assign(static_cast<std::size_t>(classes), 0);
    std::int64_t tokens = 0;
    for (const auto& e : examples) {
        if (e.label >= 0 && e.label < classes) ++s.classCounts[static_cast<std::size_t>(e.label)];
        tokens += static_cast<std::int64_t>(e.tokens.size());
        s.maxLength = std::max<std::int64_t>(s.maxLength, static_cast<std::int64_t>(e.tokens.size()));
    }
    s.averageLength = s.examples ? static_cast<double>(tokens) / s.examples : 0.0;
    return s;
}

DatasetStatistics DatasetStatistics::of(const TextDataset& d)
{
    DatasetStatistics st;
    st.id = d.id;
    st.name = d.name;
    st.task = TaskKind::Classification;
    st.classes = d.classNames;
    st.splits = {splitOf("train", d.train, d.numClasses()), splitOf("dev", d.dev, d.numClasses()),
                 splitOf("test", d.test, d.numClasses())};
    std::unordered_set<std::string> all, train;
    for (const auto& e : d.train) for (const auto& t : e.tokens) train.insert(t);
    all = train;
    for (const auto* split : {&d.dev, &d.test})
        for (const auto& e : *split) for (const auto& t : e.tokens) all.insert(t);
    st.vocabularySize = static_cast<std::int64_t>(all.size());
    st.trainVocabularySize = static_cast<std::int64_t>(train.size());
    st.notes = d.notes;
    return st;
}

DatasetStatistics DatasetStatistics::of(const LoadedDataset& d)
{
    return d.languageModel ? of(d.stream) : d.regression ? of(d.series) : d.translation ? of(d.pairs) : of(d.text);
}

DatasetStatistics DatasetStatistics::of(const LanguageModelDataset& d)
{
    DatasetStatistics st;
    st.id = d.id;
    st.name = d.name;
    st.task = TaskKind::LanguageModel;
    st.unit = d.unit;
    st.block = d.block;
    st.notes = d.notes;
    st.vocabularySize = static_cast<std::int64_t>(d.vocabulary.size());
    std::vector<std::int64_t> counts(d.vocabulary.size(), 0);
    for (const std::int32_t id : d.train)
        if (id >= 0 && static_cast<std::size_t>(id) < counts.size())
            ++counts[static_cast<std::size_t>(id)];
    st.trainVocabularySize = std::count_if(counts.begin(), counts.end(), [](std::int64_t c) { return c > 0; });
    for (const auto& [name, stream] : {std::pair{"train", &d.train}, {"dev", &d.dev}, {"test", &d.test}}) {
        Split s;
        s.name = name;
        s.examples = static_cast<std::int64_t>(stream->size());
        st.splits.push_back(s);
    }
    // -mean log p(x) over dev, p(x) = (count(x) + 1) / (N + V): a model that predicts every token from train's counts
    // alone, whatever came before it.
    const double total = static_cast<double>(d.train.size() + d.vocabulary.size());
    double loss = 0.0;
    for (const std::int32_t id : d.dev) {
        const double c = id >= 0 && static_cast<std::size_t>(id) < counts.size() ? static_cast<double>(counts[static_cast<std::size_t>(id)]) : 0.0;
        loss -= std::log((c + 1.0) / total);
    }
    st.unigramDevLoss = d.dev.empty() ? 0.0 : loss / static_cast<double>(d.dev.size());
    return st;
}

DatasetStatistics DatasetStatistics::of(const TranslationDataset& d)
{
    DatasetStatistics st;
    st.id = d.id;
    st.name = d.name;
    st.task = TaskKind::Translation;
    st.sourceLanguage = d.sourceLanguage;
    st.targetLanguage = d.targetLanguage;
    st.goldAlignment = d.goldAlignment;
    st.notes = d.notes;
    std::unordered_set<std::string> source, target, trainSource, trainTarget;
    for (const auto& [name, pairs] : {std::pair{"train", &d.train}, {"dev", &d.dev}, {"test", &d.test}}) {
        Split s;
        s.name = name;
        s.examples = static_cast<std::int64_t>(pairs->size());
        std::int64_t sourceTokens = 0, targetTokens = 0;
        for (const auto& p : *pairs) {
            sourceTokens += static_cast<std::int64_t>(p.source.size());
            targetTokens += static_cast<std::int64_t>(p.target.size());
            s.maxLength = std::max<std::int64_t>(s.maxLength, static_cast<std::int64_t>(p.source.size()));
            s.targetMaxLength = std::max<std::int64_t>(s.targetMaxLength, static_cast<std::int64_t>(p.target.size()));
            source.insert(p.source.begin(), p.source.end());
            target.insert(p.target.begin(), p.target.end());
            if (pairs == &d.train) {
                trainSource.insert(p.source.begin(), p.source.end());
                trainTarget.insert(p.target.begin(), p.target.end());
            }
        }
        s.averageLength = s.examples ? static_cast<double>(sourceTokens) / s.examples : 0.0;
        s.targetAverageLength = s.examples ? static_cast<double>(targetTokens) / s.examples : 0.0;
        st.splits.push_back(s);
    }
    st.vocabularySize = static_cast<std::int64_t>(source.size());
    st.trainVocabularySize = static_cast<std::int64_t>(trainSource.size());
    st.targetVocabularySize = static_cast<std::int64_t>(target.size());
    st.trainTargetVocabularySize = static_cast<std::int64_t>(trainTarget.size());
    return st;
}

DatasetStatistics DatasetStatistics::of(const SeriesDataset& d)
{
    DatasetStatistics st;
    st.id = d.id;
    st.name = d.name;
    st.task = TaskKind::Regression;
    st.window = d.window;
    st.drivers = d.driverNames;
    st.target = d.targetName;
    st.missingPolicy = d.missingPolicy;
    st.missingCells = d.missingCells;
    st.missingRows = d.missingRows;
    st.notes = d.notes;
    for (const auto& [name, windows] : {std::pair{"train", &d.train}, {"dev", &d.dev}, {"test", &d.test}}) {
        Split s;
        s.name = name;
        s.examples = static_cast<std::int64_t>(windows->size());
        s.averageLength = s.maxLength = d.window;
        double sum = 0.0;
        for (std::size_t i = 0; i < windows->size(); ++i) {
            const double y = d.denormalise((*windows)[i].target);
            s.targetMin = i ? std::min(s.targetMin, y) : y;
            s.targetMax = i ? std::max(s.targetMax, y) : y;
            sum += y;
        }
        s.targetMean = s.examples ? sum / s.examples : 0.0;
        st.splits.push_back(s);
    }
    return st;
}

void DatasetStatistics::addCoverage(const TextDataset& d, const WordEmbeddings& embeddings, const std::string& file)
{
    const auto c = embeddings.coverage({&d.train, &d.dev, &d.test});
    coverage = Coverage{file, c.types, c.typesCovered, c.tokens, c.tokensCovered};
}

namespace {

nlohmann::json splitJson(const DatasetStatistics::Split& s, bool regression, bool translation = false)
{
    nlohmann::json j = {{"examples", s.examples}, {"average_length", s.averageLength}, {"max_length", s.maxLength}};
    if (translation) { // examples are pairs; the lengths above the source side's
        j["target_average_length"] = s.targetAverageLength;
        j["target_max_length"] = s.targetMaxLength;
    } else if (regression) {
        j["target_min"] = s.targetMin;
        j["target_max"] = s.targetMax;
        j["target_mean"] = s.targetMean;
    } else {
        j["class_counts"] = s.classCounts;
    }
    return j;
}

} // namespace

std::string DatasetStatistics::toJson() const
{
    const bool regression = task == TaskKind::Regression, translation = task == TaskKind::Translation;
    nlohmann::json j = {{"dataset", id}, {"name", name}, {"task", taskKindId(task)}};
    nlohmann::json splitsJson = nlohmann::json::object();
    for (const auto& s : splits)
        splitsJson[s.name] = task == TaskKind::LanguageModel ? nlohmann::json{{"tokens", s.examples}}
                                                             : splitJson(s, regression, translation);
    j["splits"] = splitsJson;
    if (task == TaskKind::LanguageModel) {
        j["unit"] = unit;
        j["vocabulary_size"] = vocabularySize;
        j["train_vocabulary_size"] = trainVocabularySize;
        j["unigram_dev_loss"] = unigramDevLoss;
        if (block > 0)
            j["block"] = block;
    } else if (translation) {
        j["source_language"] = sourceLanguage;
        j["target_language"] = targetLanguage;
        j["vocabulary_size"] = vocabularySize;
        j["train_vocabulary_size"] = trainVocabularySize;
        j["target_vocabulary_size"] = targetVocabularySize;
        j["train_target_vocabulary_size"] = trainTargetVocabularySize;
        j["gold_alignment"] = goldAlignment;
    } else if (regression) {
        j["window"] = window;
        j["drivers"] = drivers;
        j["target"] = target;
        j["missing_values"] = {{"policy", missingPolicy}, {"cells", missingCells}, {"rows", missingRows}};
    } else {
        j["classes"] = classes;
        j["num_classes"] = classes.size();
        j["vocabulary_size"] = vocabularySize;
        j["train_vocabulary_size"] = trainVocabularySize;
    }
    j["notes"] = notes;
    if (trainBalanced)
        j["train_balanced"] = splitJson(*trainBalanced, false);
    if (coverage) {
        const auto& c = *coverage;
        j["embedding_coverage"] = {{"file", c.file}, {"types", c.types}, {"types_covered", c.typesCovered},
                                   {"tokens", c.tokens}, {"tokens_covered", c.tokensCovered},
                                   {"type_rate", c.types ? static_cast<double>(c.typesCovered) / c.types : 0.0},
                                   {"token_rate", c.tokens ? static_cast<double>(c.tokensCovered) / c.tokens : 0.0}};
    }
    return j.dump();
}

std::string DatasetStatistics::toText() const
{
    std::ostringstream o;
    o << std::fixed << std::setprecision(2);
    o << name << " (" << id << ", " << taskKindId(task) << ")\n";
    if (task == TaskKind::LanguageModel) {
        for (const auto& s : splits)
            o << "  " << std::left << std::setw(15) << s.name << std::right << std::setw(10) << s.examples << " " << unit << "\n";
        o << "  vocabulary " << vocabularySize << " " << unit << " (train " << trainVocabularySize << ")"
          << (block > 0 ? ", blocks of " + std::to_string(block) : std::string()) << "\n";
        o << "  without context (train's counts): dev loss " << unigramDevLoss << " nats a token\n";
        return o.str();
    }
    auto line = [&](const Split& s) {
        o << "  " << std::left << std::setw(15) << s.name << std::right << std::setw(8) << s.examples
          << (task == TaskKind::Regression        ? " windows"
                  : task == TaskKind::Translation ? " pairs"
                                                  : " examples");
        if (task == TaskKind::Translation) {
            o << ", source length avg " << s.averageLength << " max " << s.maxLength << ", target avg "
              << s.targetAverageLength << " max " << s.targetMaxLength;
        } else if (task == TaskKind::Regression) {
            o << ", target " << s.targetMin << ".." << s.targetMax << " (mean " << s.targetMean << ")";
        } else {
            o << ", length avg " << s.averageLength << " max " << s.maxLength << ", classes";
            for (auto c : s.classCounts)
                o << " " << c;
        }
        o << "\n";
    };
    for (const auto& s : splits) line(s);
    if (trainBalanced) line(*trainBalanced);
    if (task == TaskKind::Translation) {
        o << "  " << sourceLanguage << " -> " << targetLanguage << ": vocabulary " << vocabularySize << " (train "
          << trainVocabularySize << ") -> " << targetVocabularySize << " (train " << trainTargetVocabularySize << ")"
          << (goldAlignment ? ", gold alignment" : "") << "\n";
    } else if (task == TaskKind::Regression) {
        o << "  window " << window << ", target " << target << ", " << drivers.size() << " driving series\n";
    } else {
        o << "  classes: ";
        for (std::size_t i = 0; i < classes.size(); ++i) o << (i ? ", " : "") << classes[i];
        o << "\n  vocabulary " << vocabularySize << " (train " << trainVocabularySize << ")\n";
    }
    if (coverage && coverage->types && coverage->tokens)
        o << "  embedding coverage: " << 100.0 * coverage->typesCovered / coverage->types << "% of types, "
          << 100.0 * coverage->tokensCovered / coverage->tokens << "% of tokens (" << coverage->file << ")\n";
    return o.str();
}

} // namespace attnlab
