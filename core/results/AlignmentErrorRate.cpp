#include "core/results/AlignmentErrorRate.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>
#include <string>

namespace attnlab {

namespace {

std::vector<AlignmentLink> asSet(std::vector<AlignmentLink> links, const char* what)
{
    for (const auto& l : links)
        if (l.source < 0 || l.target < 0)
            throw std::invalid_argument(std::string("AER: a negative index in the ") + what + " links (" +
                                        std::to_string(l.source) + "-" + std::to_string(l.target) + ")");
    std::sort(links.begin(), links.end());
    links.erase(std::unique(links.begin(), links.end()), links.end());
    return links;
}

std::int64_t intersectionSize(const std::vector<AlignmentLink>& a, const std::vector<AlignmentLink>& b)
{
    std::vector<AlignmentLink> common;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(common));
    return static_cast<std::int64_t>(common.size());
}

} // namespace

AlignmentCounts& AlignmentCounts::operator+=(const AlignmentCounts& other)
{
    predicted += other.predicted;
    sure += other.sure;
    predictedSure += other.predictedSure;
    predictedPossible += other.predictedPossible;
    return *this;
}

double AlignmentCounts::aer() const
{
    const std::int64_t denominator = predicted + sure;
    if (denominator == 0) // nothing predicted and nothing to find: no error made
        return 0.0;
    return 1.0 - static_cast<double>(predictedSure + predictedPossible) / static_cast<double>(denominator);
}

double AlignmentCounts::precision() const
{
    return predicted ? static_cast<double>(predictedPossible) / static_cast<double>(predicted) : 0.0;
}

double AlignmentCounts::recall() const
{
    return sure ? static_cast<double>(predictedSure) / static_cast<double>(sure) : 0.0;
}

AlignmentCounts AlignmentErrorRate::sentence(const std::vector<AlignmentLink>& predicted, const std::vector<AlignmentLink>& sure,
                                             const std::vector<AlignmentLink>& possible)
{
    const auto a = asSet(predicted, "predicted");
    const auto s = asSet(sure, "sure");
    std::vector<AlignmentLink> p = possible;
    p.insert(p.end(), s.begin(), s.end()); // P ⊇ S, whichever way the gold file lists them
    p = asSet(std::move(p), "possible");
    AlignmentCounts c;
    c.predicted = static_cast<std::int64_t>(a.size());
    c.sure = static_cast<std::int64_t>(s.size());
    c.predictedSure = intersectionSize(a, s);
    c.predictedPossible = intersectionSize(a, p);
    return c;
}

void AlignmentErrorRate::add(const std::vector<AlignmentLink>& predicted, const std::vector<AlignmentLink>& sure,
                             const std::vector<AlignmentLink>& possible)
{
    counts_ += sentence(predicted, sure, possible);
    ++sentences_;
}

std::vector<AlignmentLink> AlignmentErrorRate::argmaxLinks(const float* attention, int targetLength, int sourceLength)
{
    if (targetLength < 0 || sourceLength < 0)
        throw std::invalid_argument("argmax links: negative matrix size");
    if (targetLength > 0 && sourceLength == 0)
        throw std::invalid_argument("argmax links: " + std::to_string(targetLength) + " target rows over no source word");
    std::vector<AlignmentLink> links;
    links.reserve(static_cast<std::size_t>(targetLength));
    for (int t = 0; t < targetLength; ++t) {
        const float* row = attention + static_cast<std::size_t>(t) * static_cast<std::size_t>(sourceLength);
        int best = 0;
        for (int s = 0; s < sourceLength; ++s) {
            if (!std::isfinite(row[s]))
                throw std::invalid_argument("argmax links: weight " + std::to_string(t) + "," + std::to_string(s) +
                                            " is not finite");
            if (row[s] > row[best]) // strictly greater: the first of equal maxima wins
                best = s;
        }
        links.push_back({best, t});
    }
    return links;
}

std::vector<AlignmentLink> AlignmentErrorRate::argmaxLinks(const std::vector<float>& attention, int targetLength, int sourceLength)
{
    if (targetLength < 0 || sourceLength < 0 ||
        attention.size() != static_cast<std::size_t>(targetLength) * static_cast<std::size_t>(sourceLength))
        throw std::invalid_argument("argmax links: " + std::to_string(attention.size()) + " weights for a " +
                                    std::to_string(targetLength) + " x " + std::to_string(sourceLength) + " matrix");
    return argmaxLinks(attention.data(), targetLength, sourceLength);
}

} // namespace attnlab
