#pragma once
#include <iosfwd>
#include <vector>

namespace attnlab {

class CliFlags;
class PretrainedLanguageModel;
struct HeadSelection;
struct LogitLens;
struct ModelExplanation;

// What `explain --pretrained smollm2` prints of the pretrained language model: its reading of a text (the model, the
// heads knocked out, the pieces with their ids, the next piece's likeliest, each layer's attention-sink and
// previous-token heads) and its logit lens (a short text's every position, or the last position's K likeliest);
// --json: the engine's JSON with the model and the ablation added. ExplainCommand reads the flags and runs the model.
class LanguageModelReport {
public:
    explicit LanguageModelReport(std::ostream& out) : out_(out) { }
    int reading(const CliFlags& flags, const PretrainedLanguageModel& model, const ModelExplanation& e,
                const std::vector<int>& ids, const HeadSelection& ablate);
    int lens(const CliFlags& flags, const PretrainedLanguageModel& model, const LogitLens& lens,
             const HeadSelection& ablate);

private:
    std::ostream& out_;
};

} // namespace attnlab
