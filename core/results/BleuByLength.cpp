#include "core/results/BleuByLength.h"

#include <stdexcept>

namespace attnlab {
namespace {

int wholeNumber(const std::string& text, const std::string& part)
{
    std::size_t used = 0;
    long value = -1;
    try {
        value = std::stol(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (text.empty() || used != text.size() || value < 1 || value > 100000)
        throw std::invalid_argument("buckets: '" + part + "' is not a range of source lengths like 6-10 or 31- (lengths from 1)");
    return static_cast<int>(value);
}

} // namespace

std::string BleuByLength::Bucket::label() const
{
    if (high == 0)
        return std::to_string(low) + "+";
    return low == high ? std::to_string(low) : std::to_string(low) + "-" + std::to_string(high);
}

std::vector<BleuByLength::Bucket> BleuByLength::parse(const std::string& spec)
{
    std::vector<Bucket> buckets;
    std::size_t start = 0;
    while (start <= spec.size()) {
        const auto comma = spec.find(',', start);
        const std::string part = spec.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        const auto dash = part.find('-');
        Bucket b;
        if (dash == std::string::npos) {
            b.low = b.high = wholeNumber(part, part);
        } else {
            b.low = wholeNumber(part.substr(0, dash), part);
            b.high = dash + 1 == part.size() ? 0 : wholeNumber(part.substr(dash + 1), part);
            if (b.high != 0 && b.high < b.low)
                throw std::invalid_argument("buckets: '" + part + "' ends before it starts");
        }
        if (!buckets.empty() && (buckets.back().high == 0 || b.low <= buckets.back().high))
            throw std::invalid_argument("buckets: '" + part + "' overlaps or comes before " + buckets.back().label() +
                                        " (give them in ascending order, e.g. 1-5,6-10,11-)");
        buckets.push_back(b);
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return buckets;
}

std::vector<BleuByLength::Bucket> BleuByLength::defaults()
{
    return {{1, 5}, {6, 10}, {11, 15}, {16, 20}, {21, 25}, {26, 30}, {31, 0}};
}

std::vector<BleuByLength::Row> BleuByLength::score(const std::vector<int>& sourceLengths, const std::vector<std::string>& hypotheses,
                                                   const std::vector<std::string>& references, const std::vector<bool>& exact,
                                                   const std::vector<Bucket>& buckets, const BleuScore& bleu)
{
    const std::size_t n = sourceLengths.size();
    if (hypotheses.size() != n || references.size() != n || exact.size() != n)
        throw std::invalid_argument("BLEU by length: one source length, hypothesis, reference and exact-match flag a sentence");
    auto row = [&](const std::string& label, const auto& takes) {
        Row r;
        r.label = label;
        std::vector<std::string> h, ref;
        double words = 0.0, same = 0.0;
        for (std::size_t i = 0; i < n; ++i)
            if (takes(sourceLengths[i])) {
                h.push_back(hypotheses[i]);
                ref.push_back(references[i]);
                words += sourceLengths[i];
                same += exact[i] ? 1.0 : 0.0;
            }
        r.sentences = static_cast<int>(h.size());
        if (r.sentences > 0) {
            r.bleu = bleu.corpusScore(h, ref).score;
            r.exact = same / r.sentences;
            r.sourceWords = words / r.sentences;
        }
        return r;
    };
    std::vector<Row> rows;
    for (const auto& b : buckets) {
        Row r = row(b.label(), [&](int length) { return b.contains(length); });
        r.low = b.low;
        if (r.sentences > 0)
            rows.push_back(std::move(r));
    }
    rows.push_back(row("all", [](int) { return true; }));
    return rows;
}

} // namespace attnlab
