#pragma once
#include <memory>
#include <string>
#include <vector>

namespace attnlab {

class Vocabulary;
class WordPieceTokenizer;

// Splits raw text into tokens the way the datasets and the embeddings expect (docs/DATASETS.md):
// - Whitespace: the text is already tokenised (OpeNER); only PTB bracket codes are mapped.
// - Ptb: Penn Treebank conventions — punctuation split off, "don't" -> "do n't", "it's" -> "it 's",
//   double quotes -> `` and '', bracket codes -LRB- / -RRB- (and -LSB-, -RSB-, -LCB-, -RCB-) -> ( ) [ ] { }
//   so that they match the word vectors (GloVe has "(" but not "-lrb-").
// - Tweet: Ptb plus whole URLs, @users, #hashtags and emoticons (":)", ":-(", "<3") kept as one token.
// - Words: for translation (English, German, French): Ptb's punctuation and English contractions,
//   but every quote stays the character it was (no `` ''), so tokens join back into the text BLEU is counted
//   on; typographic quotes („ “ ” « » ‹ › ‘) split off like ASCII ones (Ptb leaves „Welcome glued); French
//   elisions split after their apostrophe ("d'un" -> "d' un", "qu'il" -> "qu' il", "L'homme" -> "L' homme",
//   only for l' d' j' m' n' s' t' c' qu' jusqu' lorsqu' puisqu' quelqu' before a letter; "aujourd'hui"
//   stays); an HTML entity ("&amp;", as raw Multi30k has) stays one token. Hyphenated words stay whole.
// Lowercasing is optional (embedding look-ups fall back to lowercase anyway).
// A pretrained model's runs (ModelSpec::pretrained) are "wordpiece": BERT's tokenizer over the run's
// vocabulary of pieces, [CLS] first and [SEP] last (WordPieceTokenizer).
class Tokenizer {
public:
    enum class Style { Whitespace, Ptb, Tweet, Words };

    explicit Tokenizer(Style style = Style::Ptb, bool lowercase = false);
    std::vector<std::string> tokenize(const std::string& text) const;

    // Tokens back into a sentence to type: joined by spaces, a word piece's "##" continuation glued to the piece
    // before it, and BERT's [CLS], [SEP] and [PAD] left out (tokenizing the text adds them again).
    static std::string textOf(const std::vector<std::string>& tokens);
    // -LRB- -> "(" etc.; any other token unchanged.
    static std::string fromPtbBracket(const std::string& token);
    // ASCII lowercase plus the Latin-1 supplement's capitals (É -> é); other bytes unchanged.
    static std::string lowercased(const std::string& token);
    static Style styleFromName(const std::string& name); // whitespace | ptb | tweet | words; throws on others
    // How a trained model's text is split: its run's tokenizer name (a style, or "wordpiece": the pieces are
    // the vocabulary's entries after <pad> and <unk>; lowercase then also strips accents, as uncased BERT).
    static Tokenizer forRun(const std::string& name, bool lowercase, const Vocabulary& vocabulary);

private:
    void splitChunk(const std::string& chunk, std::vector<std::string>& out) const;
    Style style_;
    bool lowercase_;
    std::shared_ptr<const WordPieceTokenizer> pieces_; // set: "wordpiece"

};

} // namespace attnlab
