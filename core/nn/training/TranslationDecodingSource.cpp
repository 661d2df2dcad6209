#include "core/nn/training/TranslationDecodingSource.h"

#include "core/data/Vocabulary.h"

#include <limits>

namespace attnlab {

TranslationDecodingSource::TranslationDecodingSource(Seq2SeqModel& model, const torch::Tensor& source, const torch::Tensor& sourceMask)
    : model_(model), encoded_(model.encode(source, sourceMask)), state_(model.start(encoded_)), rows_(source.size(0))
{
}

torch::Tensor TranslationDecodingSource::logProbabilities(const torch::Tensor& logits)
{
    auto logp = torch::log_softmax(logits.to(torch::kFloat), -1);
    logp.select(1, Vocabulary::kPad).fill_(-std::numeric_limits<float>::infinity());
    logp.select(1, Seq2SeqModel::kBos).fill_(-std::numeric_limits<float>::infinity());
    return logp;
}

DecodingSource::Step TranslationDecodingSource::step(const Chosen& previous, int t)
{
    const auto tokens = t == 0 ? torch::full({rows_}, Seq2SeqModel::kBos, encoded_.mask.options().dtype(torch::kLong)) : previous.tokens;
    auto out = model_.step(encoded_, state_, tokens, t);
    return {logProbabilities(out.logits), out.attention, 0};
}

void TranslationDecodingSource::keep(const torch::Tensor& rows)
{
    encoded_ = Seq2SeqModel::select(encoded_, rows);
    Seq2SeqModel::select(state_, rows);
    rows_ = rows.size(0);
}

} // namespace attnlab
