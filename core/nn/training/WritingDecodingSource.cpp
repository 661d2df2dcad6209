#include "core/nn/training/WritingDecodingSource.h"

#include <algorithm>

namespace attnlab {

WritingDecodingSource::WritingDecodingSource(LanguageModel& model, const std::vector<std::int32_t>& prompt, int samples, bool attention,
                                             const torch::Device& device)
    : model_(model), texts_(static_cast<std::size_t>(samples), prompt), keepAttention_(attention), device_(device)
{
}

DecodingSource::Step WritingDecodingSource::readFrom(std::size_t from)
{
    // (A GPT's learned positions move when the window slides, so its cache cannot simply drop the oldest.) Every row
    // has written as many tokens, so the rows' windows are one [N, W] batch.
    state_ = model_.start(rows());
    contextStart_ = static_cast<std::int64_t>(from);
    attention_.clear();
    std::vector<std::int64_t> ids;
    for (const auto& text : texts_)
        ids.insert(ids.end(), text.begin() + static_cast<std::ptrdiff_t>(from), text.end());
    const auto window = torch::tensor(ids, torch::kLong).view({rows(), -1}).to(device_);
    return stepOut(model_.step(state_, window, keepAttention_ ? &attention_ : nullptr));
}

DecodingSource::Step WritingDecodingSource::stepOut(torch::Tensor logits) const
{
    Step out;
    out.scores = std::move(logits); // [N, V]
    out.contextStart = contextStart_;
    if (!attention_.empty()) // per layer [N, H, 1, W] -> [N, L * H, W]
        out.attention = torch::cat(attention_, 1).reshape({rows(), -1, attention_.front().size(-1)});
    return out;
}

DecodingSource::Step WritingDecodingSource::step(const Chosen& previous, int t)
{
    const int limit = model_.stateLimit();
    const std::size_t length = texts_.front().size();
    if (t == 0)
        return readFrom(limit > 0 && length > static_cast<std::size_t>(limit) ? length - static_cast<std::size_t>(limit) : 0);
    for (std::size_t r = 0; r < texts_.size(); ++r)
        texts_[r].push_back(static_cast<std::int32_t>(previous.ids.at(r)));
    if (limit > 0 && state_.position >= limit)
        return readFrom(length + 1 - static_cast<std::size_t>(std::max(1, limit / 2)));
    attention_.clear();
    return stepOut(model_.step(state_, previous.tokens.view({rows(), 1}), keepAttention_ ? &attention_ : nullptr));
}

void WritingDecodingSource::keep(const torch::Tensor& rows)
{
    model_.select(state_, rows);
    std::vector<std::vector<std::int32_t>> kept;
    const auto host = rows.to(torch::kCPU).contiguous();
    for (std::int64_t i = 0; i < host.size(0); ++i)
        kept.push_back(texts_.at(static_cast<std::size_t>(host[i].item<std::int64_t>())));
    texts_ = std::move(kept);
}

} // namespace attnlab
