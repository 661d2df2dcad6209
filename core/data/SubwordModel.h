#pragma once
#include <memory>
#include <string>
#include <vector>

namespace attnlab {

// Subword units for translation: a SentencePiece model (Kudo & Richardson 2018; Debian's
// libsentencepiece), BPE (Sennrich et al. 2016) or unigram (Kudo 2018), trained in the run on its training
// split, one per language side. Pieces mark a word's start with "▁" (U+2581), so the text comes back by
// gluing them and turning each "▁" into a space. Normalisation is the identity and byte fallback is off:
// decode(encode(text)) is the text itself (whitespace runs aside), which BLEU is counted on; a character
// training never saw becomes a piece of its own that the run's vocabulary maps to <unk>.
// The model travels with the checkpoint as text (toText, base64 of SentencePiece's own serialised proto), so a
// checkpoint translates on its own.
class SubwordModel {
public:
    // kind "bpe" | "unigram"; vocabularySize: pieces, a soft limit (a small corpus gets fewer). Throws
    // std::invalid_argument naming the setting when the kind is unknown or the size below what the characters
    // need, std::runtime_error with SentencePiece's reason when training fails.
    static SubwordModel train(const std::vector<std::string>& sentences, const std::string& kind, int vocabularySize);
    // From toText() and its kind (the run's tokenizer name: the proto's own type field is not in Debian's
    // headers); `where` names the file it came from in the error (std::runtime_error) when it does not load.
    static SubwordModel fromText(const std::string& text, const std::string& kind, const std::string& where);
    // From SentencePiece's serialised ModelProto bytes (fromText after base64; the fuzz harness).
    static SubwordModel fromSerialized(const std::string& bytes, const std::string& kind, const std::string& where);

    SubwordModel(SubwordModel&&) noexcept;
    SubwordModel& operator=(SubwordModel&&) noexcept;
    ~SubwordModel();

    std::vector<std::string> encode(const std::string& text) const;
    static std::string decode(const std::vector<std::string>& pieces); // no model needed: glue, "▁" -> " ", trim
    int size() const;                 // pieces in the model, its control symbols included
    std::vector<std::string> pieces() const; // every piece encode() may give, in id order (no control or unknown symbol)
    std::string kind() const;         // "bpe" | "unigram"
    std::string serialized() const;   // the ModelProto bytes
    std::string toText() const;       // base64 of serialized(), for a JSON field

    static bool isKind(const std::string& name) { return name == "bpe" || name == "unigram"; }

private:
    struct Impl;
    explicit SubwordModel(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

} // namespace attnlab
