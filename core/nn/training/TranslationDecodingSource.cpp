#include "core/nn/training/TranslationDecodingSource.h"

#include "core/data/Vocabulary.h"

#include <algorithm>
#include <limits>

namespace attnlab {

namespace {

Seq2SeqModel::Encoded encodedRows(Seq2SeqModel& model, const torch::Tensor& source, const torch::Tensor& sourceMask, std::int64_t repeat)
{
    auto encoded = model.encode(source, sourceMask);
    if (repeat <= 1)
        return encoded;
    const auto rows = torch::arange(source.size(0), source.options().dtype(torch::kLong)).repeat_interleave(repeat);
    return Seq2SeqModel::select(encoded, rows);
}

} // namespace

TranslationDecodingSource::TranslationDecodingSource(Seq2SeqModel& model, const torch::Tensor& source, const torch::Tensor& sourceMask,
                                                     std::int64_t repeat)
    : model_(model), encoded_(encodedRows(model, source, sourceMask, repeat)), state_(model.start(encoded_)),
      rows_(source.size(0) * std::max<std::int64_t>(1, repeat)), repeat_(std::max<std::int64_t>(1, repeat))
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
    return {logProbabilities(out.logits), out.attention, 0, true};
}

void TranslationDecodingSource::keep(const torch::Tensor& rows)
{
    // A beam reorders hypotheses within their sentence: the encoded rows are the same sentence's, left as they are.
    bool withinSentences = repeat_ > 1 && rows.size(0) == rows_;
    if (withinSentences) {
        const auto host = rows.to(torch::kCPU).contiguous();
        const std::int64_t* row = host.data_ptr<std::int64_t>();
        for (std::int64_t i = 0; i < rows_ && withinSentences; ++i)
            withinSentences = row[i] / repeat_ == i / repeat_;
    }
    if (!withinSentences)
        encoded_ = Seq2SeqModel::select(encoded_, rows);
    Seq2SeqModel::select(state_, rows);
    rows_ = rows.size(0);
}

} // namespace attnlab
