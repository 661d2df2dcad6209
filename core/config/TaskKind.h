#pragma once
#include <optional>
#include <string>

namespace attnlab {

// What a dataset asks of a model, and so which models can train on it. The engine compares these, never
// the strings; the strings are the stored and typed form (a dataset's manifest, JSON, the command line),
// parsed once by taskKindFromId.
enum class TaskKind {
    Classification, // a label per sentence (the thesis' chapter 5)
    Regression, // the next value(s) of a time series (chapter 6)
    Translation, // a target sentence per source sentence
    LanguageModel, // the next token of a stream of text
};

// "classification", "regression", "translation", "language_model": the id the store, JSON and flags use.
std::string taskKindId(TaskKind task);
// The id read back; nullopt for anything else.
std::optional<TaskKind> taskKindFromId(const std::string& id);
// How a message names it: "classification", "time-series regression", "translation", "language-model".
std::string taskKindNoun(TaskKind task);

// A set of task kinds: ESSAN classifies sentences and forecasts series with the same architecture.
class TaskKinds {
public:
    TaskKinds() = default;
    TaskKinds(TaskKind task) : bits_(bit(task)) { } // NOLINT: one kind reads as the set of it
    TaskKinds operator|(TaskKind task) const
    {
        TaskKinds both = *this;
        both.bits_ |= bit(task);
        return both;
    }
    bool has(TaskKind task) const { return (bits_ & bit(task)) != 0; }
    // The first kind in declaration order: the one a model is listed under (ESSAN: classification).
    TaskKind primary() const;
    // "classification and time-series regression".
    std::string nouns() const;
    bool operator==(const TaskKinds& other) const { return bits_ == other.bits_; }

private:
    static unsigned bit(TaskKind task) { return 1u << static_cast<unsigned>(task); }
    unsigned bits_ = 0;
};

inline TaskKinds operator|(TaskKind a, TaskKind b)
{
    return TaskKinds(a) | b;
}

} // namespace attnlab
