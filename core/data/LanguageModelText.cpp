#include "core/data/LanguageModelText.h"

#include "core/data/SubwordModel.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace attnlab {
namespace {

// Bytes of the UTF-8 character that starts with this byte (the text was checked as UTF-8 when read).
std::size_t characterLength(unsigned char lead)
{
    if (lead < 0x80)
        return 1;
    if ((lead >> 5) == 0x6)
        return 2;
    if ((lead >> 4) == 0xE)
        return 3;
    return 4;
}

} // namespace

std::vector<std::string> LanguageModelText::split(const std::string& text, const std::string& unit, const SubwordModel* pieces)
{
    std::vector<std::string> tokens;
    if (unit == "characters" || unit == "symbols") {
        tokens.reserve(text.size());
        for (std::size_t i = 0; i < text.size();) {
            const std::size_t n = std::min(characterLength(static_cast<unsigned char>(text[i])), text.size() - i);
            tokens.emplace_back(text, i, n);
            i += n;
        }
        return tokens;
    }
    if (unit == "pieces") {
        if (!pieces)
            throw std::invalid_argument("lm_unit: pieces need the SentencePiece model learnt with them");
        for (std::size_t begin = 0; begin <= text.size();) { // each line's pieces, then its end
            const auto end = std::min(text.find('\n', begin), text.size());
            for (auto& piece : pieces->encode(text.substr(begin, end - begin)))
                tokens.push_back(std::move(piece));
            if (end == text.size())
                break;
            tokens.emplace_back("\n");
            begin = end + 1;
        }
        return tokens;
    }
    if (unit != "words")
        throw std::invalid_argument("lm_unit: unknown '" + unit + "' (known: characters, words, pieces)");
    std::string word;
    auto flush = [&] {
        if (!word.empty())
            tokens.push_back(std::move(word));
        word.clear();
    };
    for (char c : text) {
        if (c == '\n') {
            flush();
            tokens.emplace_back("\n");
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            flush();
        } else {
            word += c;
        }
    }
    flush();
    return tokens;
}

std::string LanguageModelText::join(const std::vector<std::string>& tokens, const std::string& unit)
{
    std::string text;
    if (unit == "pieces") { // a line's pieces glued (SubwordModel::decode), line by line
        std::vector<std::string> line;
        for (const auto& t : tokens) {
            if (t != "\n") {
                line.push_back(t);
                continue;
            }
            text += SubwordModel::decode(line) + "\n";
            line.clear();
        }
        return text + SubwordModel::decode(line);
    }
    if (unit != "words") {
        for (const auto& t : tokens)
            text += t;
        return text;
    }
    bool lineStart = true;
    for (const auto& t : tokens) {
        if (t == "\n") {
            text += '\n';
            lineStart = true;
            continue;
        }
        if (!lineStart)
            text += ' ';
        text += t;
        lineStart = false;
    }
    return text;
}

std::vector<std::string> LanguageModelText::vocabularyOf(const std::vector<std::string>& tokens)
{
    const std::set<std::string> distinct(tokens.begin(), tokens.end());
    return {distinct.begin(), distinct.end()};
}

std::vector<std::int32_t> LanguageModelText::encode(const std::vector<std::string>& tokens, const std::vector<std::string>& vocabulary,
                                                    const std::string& unit)
{
    std::vector<std::int32_t> ids;
    ids.reserve(tokens.size());
    const bool sorted = std::is_sorted(vocabulary.begin(), vocabulary.end());
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const auto it = sorted ? std::lower_bound(vocabulary.begin(), vocabulary.end(), tokens[i])
                               : std::find(vocabulary.begin(), vocabulary.end(), tokens[i]);
        if (it == vocabulary.end() || *it != tokens[i])
            throw std::invalid_argument((unit == "words" ? "word " : unit == "pieces" ? "piece " : "character ") + shown(tokens[i]) +
                                        " (token " + std::to_string(i + 1) + ") is not in the model's " + std::to_string(vocabulary.size()) +
                                        " " + (unit == "words" || unit == "pieces" ? unit : "characters"));
        ids.push_back(static_cast<std::int32_t>(it - vocabulary.begin()));
    }
    return ids;
}

std::string LanguageModelText::shown(const std::string& token)
{
    if (token == "\n")
        return "'\\n'";
    if (token == "\t")
        return "'\\t'";
    if (token == "\r")
        return "'\\r'";
    return "'" + token + "'";
}

} // namespace attnlab
