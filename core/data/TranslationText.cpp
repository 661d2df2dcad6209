#include "core/data/TranslationText.h"

#include "core/data/SubwordModel.h"
#include "core/data/Tokenizer.h"

#include <algorithm>
#include <cctype>

namespace attnlab {
namespace {

bool isOneOf(const std::string& token, std::initializer_list<const char*> set)
{
    return std::any_of(set.begin(), set.end(), [&](const char* s) { return token == s; });
}

bool gluesLeft(const std::string& token)
{
    if (isOneOf(token, {".", ",", ";", ":", "!", "?", ")", "]", "}", "%", "...", "n't", "N'T"}))
        return true;
    return token.size() >= 2 && token[0] == '\'' && isOneOf(token, {"'s", "'re", "'ve", "'ll", "'d", "'m", "'S", "'RE", "'VE", "'LL", "'D", "'M"});
}

bool gluesRight(const std::string& token)
{
    if (isOneOf(token, {"(", "[", "{"}))
        return true;
    // A French elision ends in an apostrophe: "d'", "qu'", "l'" (and their capitals).
    return token.size() >= 2 && token.size() <= 8 && token.back() == '\'' &&
           std::all_of(token.begin(), token.end() - 1, [](unsigned char c) { return std::isalpha(c) != 0; });
}

} // namespace

std::string TranslationText::detokenize(const std::vector<std::string>& tokens, const std::string& tokenizer)
{
    if (SubwordModel::isKind(tokenizer))
        return SubwordModel::decode(tokens);
    if (tokenizer != "words")
        return joined(tokens, false);
    std::string text;
    bool glueNext = true;
    for (const auto& token : tokens) {
        if (!glueNext && !gluesLeft(token))
            text += ' ';
        text += token;
        glueNext = gluesRight(token);
    }
    return text;
}

std::string TranslationText::joined(const std::vector<std::string>& tokens, bool lowercase)
{
    std::string text;
    for (const auto& token : tokens)
        text += (text.empty() ? "" : " ") + (lowercase ? Tokenizer::lowercased(token) : token);
    return text;
}

std::vector<std::string> TranslationText::words(const std::vector<std::string>& tokens, const std::string& tokenizer)
{
    if (!SubwordModel::isKind(tokenizer))
        return tokens;
    return Tokenizer(Tokenizer::Style::Words).tokenize(SubwordModel::decode(tokens));
}

} // namespace attnlab
