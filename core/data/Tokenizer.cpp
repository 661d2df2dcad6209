#include "core/data/Tokenizer.h"

#include "core/data/Vocabulary.h"
#include "core/data/pretrained/WordPieceTokenizer.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <stdexcept>

namespace attnlab {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

bool startsWith(const std::string& s, const char* prefix)
{
    const std::string p(prefix);
    return s.size() >= p.size() && std::equal(p.begin(), p.end(), s.begin(),
                                             [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
}

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (c & 0x80); }

// Emoticons that tweets use; matched on a whole whitespace chunk (optionally followed by punctuation).
bool isEmoticon(const std::string& s)
{
    static const char* kList[] = {":)", ":-)", ":(", ":-(", ":D", ":-D", ";)", ";-)", ":P", ":-P", ":p", ":-p",
                                  ":/", ":-/", ":'(", ":O", ":o", ":|", "<3", "</3", "=)", "=(", "XD", "xD",
                                  ":]", ":[", ";D", "(:", "):", "^_^", "-_-", ":*", ";(", ":))", ":((", ":)))"};
    for (const char* e : kList)
        if (s == e)
            return true;
    return false;
}

const char* kContractions[] = {"n't", "'s", "'m", "'re", "'ve", "'ll", "'d"};

// Words style: the typographic quotes of English, German and French text (U+201E „, U+201C “, U+201D ”,
// U+00AB «, U+00BB », U+2039 ‹, U+203A ›, U+2018 ‘; U+2019 is read as ' before this).
const char* kQuotes[] = {"\xE2\x80\x9E", "\xE2\x80\x9C", "\xE2\x80\x9D", "\xC2\xAB", "\xC2\xBB",
                         "\xE2\x80\xB9", "\xE2\x80\xBA", "\xE2\x80\x98"};

// Byte length of a typographic quote starting at s[pos], else 0.
std::size_t quoteLength(const std::string& s, std::size_t pos)
{
    for (const char* q : kQuotes) {
        const std::size_t n = std::strlen(q);
        if (pos + n <= s.size() && s.compare(pos, n, q) == 0)
            return n;
    }
    return 0;
}

// French elided words, split after their apostrophe when a letter follows ("d'un" -> "d'" "un"); the
// longer ones first, so "quelqu'un" is not read as "qu'".
const char* kElisions[] = {"jusqu'", "lorsqu'", "puisqu'", "quelqu'", "qu'", "l'", "d'", "j'", "m'", "n'", "s'", "t'", "c'"};

// "&amp;", "&#39;": an HTML entity left in raw text, kept as one token.
bool isEntity(const std::string& s)
{
    if (s.size() < 3 || s.front() != '&' || s.back() != ';')
        return false;
    const std::size_t from = s[1] == '#' ? 2 : 1;
    return s.size() > from + 1 &&
           std::all_of(s.begin() + static_cast<long>(from), s.end() - 1, [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; });
}

} // namespace

Tokenizer::Tokenizer(Style style, bool lowercase) : style_(style), lowercase_(lowercase) {}

Tokenizer Tokenizer::forRun(const std::string& name, bool lowercase, const Vocabulary& vocabulary)
{
    if (name != "wordpiece")
        return Tokenizer(styleFromName(name), lowercase);
    std::vector<std::string> entries;
    for (std::int64_t id = 2; id < vocabulary.size(); ++id) // 0 and 1: <pad> and <unk>
        entries.push_back(vocabulary.token(id));
    WordPieceTokenizer::Options options;
    options.lowercase = options.stripAccents = lowercase;
    Tokenizer t(Style::Whitespace, lowercase);
    t.pieces_ = std::make_shared<const WordPieceTokenizer>(entries, options, "the run's vocabulary of word pieces");
    return t;
}

std::string Tokenizer::textOf(const std::vector<std::string>& tokens)
{
    std::string text;
    for (const auto& t : tokens) {
        if (t == "[CLS]" || t == "[SEP]" || t == "[PAD]")
            continue;
        if (t.size() > 2 && t.compare(0, 2, "##") == 0 && !text.empty())
            text += t.substr(2);
        else
            text += (text.empty() ? "" : " ") + t;
    }
    return text;
}

Tokenizer::Style Tokenizer::styleFromName(const std::string& name)
{
    if (name == "whitespace") return Style::Whitespace;
    if (name == "ptb") return Style::Ptb;
    if (name == "tweet") return Style::Tweet;
    if (name == "words") return Style::Words;
    throw std::invalid_argument("tokenizer: unknown style '" + name + "' (known: whitespace, ptb, tweet, words)");
}

std::string Tokenizer::fromPtbBracket(const std::string& token)
{
    if (token.size() != 5 || token[0] != '-' || token[4] != '-')
        return token;
    std::string code = token.substr(1, 3);
    std::transform(code.begin(), code.end(), code.begin(), [](unsigned char c) { return std::toupper(c); });
    if (code == "LRB") return "(";
    if (code == "RRB") return ")";
    if (code == "LSB") return "[";
    if (code == "RSB") return "]";
    if (code == "LCB") return "{";
    if (code == "RCB") return "}";
    return token;
}

std::string Tokenizer::lowercased(const std::string& token)
{
    std::string out = token;
    for (std::size_t i = 0; i < out.size(); ++i) {
        const auto c = static_cast<unsigned char>(out[i]);
        if (c < 0x80) {
            out[i] = static_cast<char>(std::tolower(c));
        } else if (c == 0xC3 && i + 1 < out.size()) {
            // U+00C0..U+00DE (except U+00D7, the multiplication sign) -> +0x20.
            const auto d = static_cast<unsigned char>(out[i + 1]);
            if (d >= 0x80 && d <= 0x9E && d != 0x97)
                out[i + 1] = static_cast<char>(d + 0x20);
            ++i;
        }
    }
    return out;
}

void Tokenizer::splitChunk(const std::string& chunk, std::vector<std::string>& out) const
{
    if (style_ == Style::Tweet) {
        if (startsWith(chunk, "http://") || startsWith(chunk, "https://") || startsWith(chunk, "www.")) {
            out.push_back(chunk);
            return;
        }
        if (isEmoticon(chunk)) {
            out.push_back(chunk);
            return;
        }
    }
    const bool words = style_ == Style::Words; // quotes stay as written (no `` ''); tokenize split typographic ones off
    if (words && isEntity(chunk)) {
        out.push_back(chunk);
        return;
    }
    std::string core = chunk;
    std::vector<std::string> tail;

    // Leading quotes and brackets, each its own token.
    std::size_t lead = 0;
    while (lead < core.size()) {
        const char c = core[lead];
        if (c == '"') { out.push_back(words ? "\"" : "``"); ++lead; }
        else if (c == '(' || c == '[' || c == '{') { out.push_back(std::string(1, c)); ++lead; }
        else if (c == '`' && lead + 1 < core.size() && core[lead + 1] == '`') { out.push_back("``"); lead += 2; }
        else if (c == '\'' && lead + 1 < core.size() && core[lead + 1] != 's' && core[lead + 1] != 'S' &&
                 !std::isdigit(static_cast<unsigned char>(core[lead + 1]))) { out.push_back(words ? "'" : "`"); ++lead; }
        else break;
    }
    core.erase(0, lead);

    // Trailing punctuation: runs of the same mark stay together ("...", "!!!").
    while (!core.empty()) {
        const char c = core.back();
        if (c == '"') { tail.push_back(words ? "\"" : "''"); core.pop_back(); continue; }
        if (c == ')' || c == ']' || c == '}') {
            if (style_ == Style::Tweet && isEmoticon(core)) break;
            tail.push_back(std::string(1, c)); core.pop_back(); continue;
        }
        if (c == '.' || c == ',' || c == '!' || c == '?' || c == ';' || c == ':') {
            // "u.s." keeps its final period: a period inside the word marks an abbreviation.
            if (c == '.' && core.size() > 1 && core.find('.') < core.size() - 1 &&
                core.find_first_not_of('.') != std::string::npos && core[core.size() - 2] != '.')
                break;
            std::size_t run = 1;
            while (run < core.size() && core[core.size() - 1 - run] == c) ++run;
            if (run == core.size() && tail.empty() && out.empty()) break; // the chunk is only punctuation
            tail.push_back(core.substr(core.size() - run));
            core.erase(core.size() - run);
            continue;
        }
        if (c == '\'' && core.size() > 1 && core[core.size() - 2] != 's' && core[core.size() - 2] != 'S') {
            tail.push_back("'");
            core.pop_back();
            continue;
        }
        break;
    }

    // French elisions (Words): "d'un" -> "d'" "un", before the English contractions below.
    if (words) {
        const std::string lower = lowercased(core);
        for (const char* k : kElisions) {
            const std::size_t n = std::strlen(k);
            if (lower.size() > n && lower.compare(0, n, k) == 0 &&
                (std::isalpha(static_cast<unsigned char>(lower[n])) || (lower[n] & 0x80))) {
                out.push_back(core.substr(0, n));
                core.erase(0, n);
                break;
            }
        }
    }
    // Contractions split as in the Penn Treebank: "don't" -> "do n't", "she'll" -> "she 'll".
    if (style_ != Style::Whitespace && !core.empty()) {
        std::string lower = lowercased(core);
        for (const char* k : kContractions) {
            const std::string suffix(k);
            if (lower.size() > suffix.size() && lower.compare(lower.size() - suffix.size(), suffix.size(), suffix) == 0 &&
                isWordChar(lower[lower.size() - suffix.size() - 1])) {
                tail.push_back(core.substr(core.size() - suffix.size()));
                core.erase(core.size() - suffix.size());
                break;
            }
        }
    }
    if (!core.empty())
        out.push_back(fromPtbBracket(core));
    for (auto it = tail.rbegin(); it != tail.rend(); ++it)
        out.push_back(*it);
}

std::vector<std::string> Tokenizer::tokenize(const std::string& text) const
{
    if (pieces_)
        return pieces_->encode(text).tokens;
    std::vector<std::string> tokens;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && isSpace(text[i])) ++i;
        std::size_t j = i;
        while (j < text.size() && !isSpace(text[j])) ++j;
        if (j > i) {
            std::string chunk = text.substr(i, j - i);
            // The typographic apostrophe (U+2019) splits contractions like the ASCII one.
            for (auto p = chunk.find("\xE2\x80\x99"); style_ != Style::Whitespace && p != std::string::npos;
                 p = chunk.find("\xE2\x80\x99", p))
                chunk.replace(p, 3, "'");
            if (style_ == Style::Whitespace) {
                tokens.push_back(fromPtbBracket(chunk));
            } else if (style_ == Style::Words) {
                // A typographic quote is never part of a word, even inside a chunk: „Open“-Schild, steht:“long.
                std::size_t from = 0;
                for (std::size_t k = 0; k < chunk.size(); ++k) {
                    if (const std::size_t quote = quoteLength(chunk, k); quote > 0) {
                        if (k > from) splitChunk(chunk.substr(from, k - from), tokens);
                        tokens.push_back(chunk.substr(k, quote));
                        from = k + quote;
                        k = from - 1;
                    }
                }
                if (from < chunk.size()) splitChunk(chunk.substr(from), tokens);
            } else {
                splitChunk(chunk, tokens);
            }
        }
        i = j;
    }
    if (lowercase_)
        for (auto& t : tokens)
            t = lowercased(t);
    return tokens;
}

} // namespace attnlab
