#pragma once
#include <cstdint>
#include <vector>

namespace attnlab {

// One alignment link: source word `source` is aligned to target word `target` (0-based; Pharaoh's "s-t").
struct AlignmentLink {
    int source = 0;
    int target = 0;
    bool operator==(const AlignmentLink& o) const { return source == o.source && target == o.target; }
    bool operator!=(const AlignmentLink& o) const { return !(*this == o); }
    bool operator<(const AlignmentLink& o) const { return source != o.source ? source < o.source : target < o.target; }
};

// The four sizes AER is made of; they add up over sentences.
struct AlignmentCounts {
    std::int64_t predicted = 0;         // |A|
    std::int64_t sure = 0;              // |S|
    std::int64_t predictedSure = 0;     // |A ∩ S|
    std::int64_t predictedPossible = 0; // |A ∩ P|
    AlignmentCounts& operator+=(const AlignmentCounts& other);
    double aer() const;                 // 1 - (|A∩S| + |A∩P|) / (|A| + |S|); 0 when |A| + |S| = 0
    double precision() const;           // |A∩P| / |A| (Och & Ney's), 0 when A is empty
    double recall() const;              // |A∩S| / |S|, 0 when S is empty
};

// Alignment error rate (Och & Ney 2003, "A Systematic Comparison of Various Statistical Alignment Models"):
//   AER(S, P; A) = 1 - (|A ∩ S| + |A ∩ P|) / (|A| + |S|)
// with A the predicted links, S the sure gold links and P the possible ones, P ⊇ S. Over a corpus the four
// sizes are summed first and AER taken once (A, S and P are the corpus' link sets in their definition), not
// averaged per sentence. Links are sets: a link given twice counts once.
// P is taken as S ∪ possible, so a gold file may list its P links with or without the S ones; with no possible
// links given, P = S and AER = 1 - 2|A∩S| / (|A| + |S|), one minus the F1 of A against S.
class AlignmentErrorRate {
public:
    // Adds one sentence; throws std::invalid_argument on a negative index.
    void add(const std::vector<AlignmentLink>& predicted, const std::vector<AlignmentLink>& sure,
             const std::vector<AlignmentLink>& possible = {});
    const AlignmentCounts& counts() const { return counts_; }
    double value() const { return counts_.aer(); }
    std::int64_t sentences() const { return sentences_; }

    static AlignmentCounts sentence(const std::vector<AlignmentLink>& predicted, const std::vector<AlignmentLink>& sure,
                                    const std::vector<AlignmentLink>& possible = {});

    // Attention read as an alignment: attention is row-major [targetLength x sourceLength], row t the weights
    // target word t gave the source words (each row a distribution). Every row gives exactly one link,
    // (argmax_s attention[t][s], t): the source word the target word attended to most, the first of equal
    // maxima (as torch.argmax and numpy.argmax). No row is left unaligned, even where the gold alignment
    // leaves the target word unaligned (such a link counts against precision, as it should: the model
    // attended somewhere). Throws std::invalid_argument when the size is not targetLength * sourceLength, when a
    // row is empty (sourceLength 0 with targetLength > 0) or when a weight is not finite.
    static std::vector<AlignmentLink> argmaxLinks(const std::vector<float>& attention, int targetLength, int sourceLength);
    static std::vector<AlignmentLink> argmaxLinks(const float* attention, int targetLength, int sourceLength);

private:
    AlignmentCounts counts_;
    std::int64_t sentences_ = 0;
};

} // namespace attnlab
