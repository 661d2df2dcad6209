#include "core/nn/training/WritingDecodingSource.h"

#include <stdexcept>

namespace attnlab {

WritingDecodingSource::WritingDecodingSource(LanguageModel& model, std::vector<std::int32_t> prompt, bool attention,
                                             const torch::Device& device)
    : model_(model), text_(std::move(prompt)), keepAttention_(attention), device_(device)
{
}

DecodingSource::Step WritingDecodingSource::readFrom(std::size_t from)
{
    // (A GPT's learned positions move when the window slides, so its cache cannot simply drop the oldest.)
    state_ = model_.start(1);
    contextStart_ = static_cast<std::int64_t>(from);
    attention_.clear();
    std::vector<std::int64_t> ids(text_.begin() + static_cast<std::ptrdiff_t>(from), text_.end());
    const auto window = torch::tensor(ids, torch::kLong).view({1, -1}).to(device_);
    return stepOut(model_.step(state_, window, keepAttention_ ? &attention_ : nullptr));
}

DecodingSource::Step WritingDecodingSource::stepOut(torch::Tensor logits) const
{
    Step out;
    out.scores = std::move(logits); // [1, V]
    out.contextStart = contextStart_;
    if (!attention_.empty()) // per layer [1, H, 1, W] -> [1, L * H, W]
        out.attention = torch::cat(attention_, 1).reshape({1, -1, attention_.front().size(-1)});
    return out;
}

DecodingSource::Step WritingDecodingSource::step(const Chosen& previous, int t)
{
    const int limit = model_.stateLimit();
    if (t == 0)
        return readFrom(limit > 0 && text_.size() > static_cast<std::size_t>(limit) ? text_.size() - static_cast<std::size_t>(limit) : 0);
    text_.push_back(static_cast<std::int32_t>(previous.ids.at(0)));
    if (limit > 0 && state_.position >= limit)
        return readFrom(text_.size() - static_cast<std::size_t>(std::max(1, limit / 2)));
    attention_.clear();
    return stepOut(model_.step(state_, previous.tokens.view({1, 1}), keepAttention_ ? &attention_ : nullptr));
}

void WritingDecodingSource::keep(const torch::Tensor& rows)
{
    if (rows.size(0) != 1)
        throw std::logic_error("a language model writes one row, which never ends early");
}

} // namespace attnlab
