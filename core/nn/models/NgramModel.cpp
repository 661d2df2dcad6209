#include "core/nn/models/NgramModel.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace attnlab {
namespace {

// A sequence of ids as a hash key: their bytes.
std::string keyOf(const std::int32_t* ids, std::size_t n)
{
    return std::string(reinterpret_cast<const char*>(ids), n * sizeof(std::int32_t));
}

} // namespace

// Counts of one order: each k-gram's count, and per history (its first k - 1 ids) the total and the distinct followers.
struct NgramCountLevel {
    std::unordered_map<std::string, double> grams;
    std::unordered_map<std::string, std::pair<double, double>> histories; // total, distinct
    double discount = 0.0;

    void add(const std::string& gram, double count)
    {
        grams[gram] += count;
    }
    void finish()
    {
        double n1 = 0, n2 = 0;
        for (const auto& [gram, count] : grams) {
            auto& h = histories[gram.substr(0, gram.size() - sizeof(std::int32_t))];
            h.first += count;
            h.second += 1;
            n1 += count == 1;
            n2 += count == 2;
        }
        discount = n1 + n2 > 0 && n1 > 0 ? n1 / (n1 + 2 * n2) : 0.5;
    }
};


struct NgramModel::Tables {
    std::vector<NgramCountLevel> raw;          // raw[k - 1]: k-gram counts
    std::vector<NgramCountLevel> continuation; // continuation[k - 1]: N1+(. g w) for k-grams g w, k < n
};

NgramModel::NgramModel(const ModelConfig& config) : config_(config)
{
    for (int k = 1; k <= config.order; ++k)
        counts_.push_back(register_buffer("counts" + std::to_string(k), torch::zeros({0, k + 1}, torch::kLong)));
}

NgramModel::~NgramModel() = default;

void NgramModel::estimate(const std::vector<std::int32_t>& train)
{
    for (int k = 1; k <= config_.order; ++k) {
        std::map<std::vector<std::int32_t>, std::int64_t> grams; // ordered: the same buffer on every run
        for (std::size_t i = 0; i + static_cast<std::size_t>(k) <= train.size(); ++i)
            ++grams[std::vector<std::int32_t>(train.begin() + static_cast<std::ptrdiff_t>(i), train.begin() + static_cast<std::ptrdiff_t>(i) + k)];
        auto table = torch::empty({static_cast<std::int64_t>(grams.size()), k + 1}, torch::kLong);
        auto* out = table.data_ptr<std::int64_t>();
        for (const auto& [gram, count] : grams) {
            for (auto id : gram)
                *out++ = id;
            *out++ = count;
        }
        counts_[static_cast<std::size_t>(k - 1)].set_(table);
    }
    tables_.reset();
}

const NgramModel::Tables& NgramModel::tables()
{
    const void* storage = counts_.front().data_ptr();
    if (tables_ && builtFrom_ == storage)
        return *tables_;
    auto t = std::make_unique<Tables>();
    const int n = config_.order;
    t->raw.resize(static_cast<std::size_t>(n));
    t->continuation.resize(static_cast<std::size_t>(n));
    for (int k = 1; k <= n; ++k) {
        const auto table = counts_[static_cast<std::size_t>(k - 1)].contiguous();
        const auto* rows = table.data_ptr<std::int64_t>();
        std::vector<std::int32_t> ids(static_cast<std::size_t>(k));
        for (std::int64_t r = 0; r < table.size(0); ++r, rows += k + 1) {
            for (int i = 0; i < k; ++i)
                ids[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(rows[i]);
            t->raw[static_cast<std::size_t>(k - 1)].add(keyOf(ids.data(), ids.size()), static_cast<double>(rows[k]));
            if (k >= 2) // u g w seen: g w has one more distinct left neighbour
                t->continuation[static_cast<std::size_t>(k - 2)].add(keyOf(ids.data() + 1, ids.size() - 1), 1.0);
        }
    }
    for (auto& level : t->raw)
        level.finish();
    for (auto& level : t->continuation)
        level.finish();
    tables_ = std::move(t);
    builtFrom_ = storage;
    return *tables_;
}

std::vector<double> NgramModel::distribution(const std::vector<std::int32_t>& history)
{
    const Tables& t = tables();
    const int vocabulary = config_.vocabularySize;
    const std::size_t m = std::min<std::size_t>(history.size(), static_cast<std::size_t>(config_.order - 1));
    const std::int32_t* h = history.data() + (history.size() - m); // the last m tokens
    std::vector<double> p(static_cast<std::size_t>(vocabulary));
    std::vector<std::int32_t> gram(m + 1);
    std::copy(h, h + m, gram.begin());
    auto countOf = [&](const NgramCountLevel& level, std::size_t order, std::int32_t w) {
        gram[order - 1] = w; // gram holds the history's last order - 1 tokens, then w
        const auto it = level.grams.find(keyOf(gram.data(), order));
        return it == level.grams.end() ? 0.0 : it->second;
    };
    if (config_.smoothing == "add-k") {
        const NgramCountLevel& level = t.raw[m];
        std::copy(h, h + m, gram.begin());
        const auto hist = level.histories.find(keyOf(gram.data(), m));
        const double total = hist == level.histories.end() ? 0.0 : hist->second.first;
        for (int w = 0; w < vocabulary; ++w)
            p[static_cast<std::size_t>(w)] = (countOf(level, m + 1, w) + config_.addK) / (total + config_.addK * vocabulary);
        return p;
    }
    // Interpolated Kneser-Ney, from the uniform distribution up to the history's order.
    std::fill(p.begin(), p.end(), 1.0 / vocabulary);
    for (std::size_t order = 1; order <= m + 1; ++order) {
        const std::size_t context = order - 1; // the last `context` tokens of h
        std::copy(h + (m - context), h + m, gram.begin());
        const NgramCountLevel& level = order == m + 1 ? t.raw[order - 1] : t.continuation[order - 1];
        const auto hist = level.histories.find(keyOf(gram.data(), context));
        if (hist == level.histories.end() || hist->second.first <= 0)
            continue; // never seen: the lower order's distribution as it is
        const double total = hist->second.first, backoff = level.discount * hist->second.second / total;
        for (int w = 0; w < vocabulary; ++w) {
            const double c = countOf(level, order, w);
            p[static_cast<std::size_t>(w)] = std::max(c - level.discount, 0.0) / total + backoff * p[static_cast<std::size_t>(w)];
        }
    }
    return p;
}

torch::Tensor NgramModel::forward(const torch::Tensor& ids, std::vector<torch::Tensor>* /*attention: none*/)
{
    const auto host = ids.to(torch::kCPU).to(torch::kInt).contiguous();
    const std::int64_t batch = host.size(0), length = host.size(1), vocabulary = config_.vocabularySize;
    auto logits = torch::empty({batch, length, vocabulary}, torch::kFloat);
    auto* out = logits.data_ptr<float>();
    const auto* in = host.data_ptr<std::int32_t>();
    std::unordered_map<std::string, std::vector<float>> seen; // one distribution per distinct history
    const std::int64_t keep = config_.order - 1;
    for (std::int64_t b = 0; b < batch; ++b)
        for (std::int64_t t = 0; t < length; ++t, out += vocabulary) {
            const std::int64_t from = std::max<std::int64_t>(0, t + 1 - keep);
            const std::vector<std::int32_t> history(in + b * length + from, in + b * length + t + 1);
            auto& logp = seen[keyOf(history.data(), history.size())];
            if (logp.empty()) {
                const auto p = distribution(history);
                logp.resize(p.size());
                for (std::size_t w = 0; w < p.size(); ++w)
                    logp[w] = static_cast<float>(std::log(p[w]));
            }
            std::copy(logp.begin(), logp.end(), out);
        }
    return logits.to(ids.device());
}

LanguageModel::State NgramModel::start(std::int64_t rows)
{
    State state;
    state.tensors.push_back(torch::zeros({rows, 0}, torch::kLong)); // the tokens so far (their last n - 1 are read)
    return state;
}

torch::Tensor NgramModel::step(State& state, const torch::Tensor& ids, std::vector<torch::Tensor>* /*attention*/)
{
    auto& history = state.tensors.front();
    history = torch::cat({history, ids.to(torch::kCPU).to(torch::kLong)}, 1);
    const std::int64_t keep = std::min<std::int64_t>(config_.order - 1, history.size(1));
    if (keep < history.size(1))
        history = history.narrow(1, history.size(1) - keep, keep).contiguous();
    state.position += ids.size(1);
    if (keep == 0) // order 1: the unigram distribution, whatever came before
        return forward(ids.to(torch::kLong)).select(1, ids.size(1) - 1);
    return forward(history).select(1, keep - 1);
}

std::string NgramModel::summary() const
{
    std::int64_t grams = 0;
    for (const auto& c : counts_)
        grams += c.size(0);
    return std::to_string(config_.order) + "-gram, " + (config_.smoothing == "add-k" ? "add-" + std::to_string(config_.addK).substr(0, 4) : std::string("interpolated Kneser-Ney")) +
           ", " + std::to_string(grams) + " distinct k-grams counted, " + std::to_string(config_.vocabularySize) + " tokens";
}

} // namespace attnlab
