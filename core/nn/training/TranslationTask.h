#pragma once
// PRIVATE engine header: includes LibTorch.
#include "core/config/TrainConfig.h"
#include "core/data/TranslationDataset.h"
#include "core/data/Vocabulary.h"
#include "core/nn/models/Seq2SeqModel.h"
#include "core/nn/training/SequenceDecoder.h"
#include "core/nn/training/TrainingTask.h"

#include <memory>

namespace attnlab {

// Token ids of a split's pairs, and a batch of them padded on the device: source [B, S] with its mask, the
// decoder's input <bos> y_1 .. y_n and its expected output y_1 .. y_n <eos> [B, T] (0 = padding).
struct PairIds {
    std::vector<std::vector<std::int64_t>> source, target; // target without <bos> / <eos>
};
struct PairBatch {
    torch::Tensor source, sourceMask, targetIn, targetOut;
    torch::Tensor sourceLengths; // [B] long, on the host: the recurrent encoders pack by it without asking the GPU
    std::int64_t targetTokens = 0; // real tokens of targetOut (words and <eos>), counted on the host
    torch::Tensor targetPositions; // [targetTokens] long: where they are in targetOut's flattened [B * T]
    static PairBatch of(const PairIds& ids, const std::vector<std::size_t>& rows, const torch::Device& device);
    // The rows of a per-position tensor ([B, T] or [B, T, F]) at the real target positions, in order.
    torch::Tensor atTargetPositions(const torch::Tensor& perPosition) const;
    // The rows split in two by length (shorter pairs first) where each part padded to its own longest pair
    // holds at most 4/5 of the cells of the whole batch padded to its longest, else the rows as one group. The
    // training step runs the encoder and decoder per group: the same pairs and loss with less padding.
    static std::vector<std::vector<std::size_t>> lengthGroups(const PairIds& ids, const std::vector<std::size_t>& rows);
};

// Translation: cross-entropy over the target tokens (label smoothing as an option; padding ignored),
// teacher forcing with a ratio for the recurrent decoders; at each evaluation the split is translated as the run
// decodes (greedy, or beam search with its size and length penalty) and measured: loss, perplexity and token
// accuracy teacher-forced; BLEU and chrF on text as sacreBLEU 2.x counts them (13a), BLEU on the run's own
// lowercased tokens as bentrevett/pytorch-seq2seq counts it; exact match and the alignment error rate of the
// attention against the gold alignment where the dataset has one. The best dev step is the one of highest BLEU.
class TranslationTask : public TrainingTask {
public:
    TranslationTask(std::shared_ptr<Seq2SeqModel> model, const TranslationDataset& dataset, Vocabulary source,
                    Vocabulary target, const torch::Device& device, const TrainConfig& config);
    torch::nn::Module& module() override { return *model_; }
    std::int64_t trainSize() const override { return static_cast<std::int64_t>(train_.source.size()); }
    Step trainStep(std::mt19937_64& rng, int batchSize) override;
    std::string trainMetricName() const override { return "token_accuracy"; }
    Evaluation evaluate(bool test) override;
    std::vector<AttentionSnapshot> attention(int step) override;
    std::vector<std::string> notes() const override { return notes_; }
    // {"task":"translation","source_vocabulary":[...],"target_vocabulary":[...],"tokenizer","lowercase",
    //  "source_subwords","target_subwords" (SentencePiece models as text; "" for words),
    //  "source_language","target_language","beam_size","length_penalty","max_output_length"}
    std::string checkpointMetadata() const override;

    // The limit on a translation's length (SequenceDecoder's), stated in the checkpoint.
    static constexpr int kMaxOutputLength = SequenceDecoder::kMaxOutputLength;
    // Sentences translated at once when a split is decoded.
    static constexpr int kDecodeBatch = 128;
    // The run's decoding: its beam size, length penalty and the model's length limit.
    static SequenceDecoder::Settings decodingOf(const TrainConfig& config);

private:
    SequenceDecoder::Settings decoding() const { return decodingOf(config_); }
    PairIds idsOf(const std::vector<TranslationPair>& pairs) const;

    std::shared_ptr<Seq2SeqModel> model_;
    torch::Device device_;
    TranslationDataset dataset_; // dev, test and the probe; train is consumed into train_
    Vocabulary sourceVocabulary_, targetVocabulary_;
    PairIds train_, dev_, test_;
    TrainConfig config_;
    std::vector<std::string> notes_;
};

} // namespace attnlab
