#include "core/data/readers/TextCorpusReader.h"

#include "core/data/DataError.h"
#include "core/data/DataLocator.h"
#include "core/data/GzipInput.h"
#include "core/data/LanguageModelText.h"
#include "core/data/SubwordModel.h"
#include "core/data/TextFile.h"
#include "core/data/readers/Multi30kReader.h"

#include <algorithm>
#include <filesystem>
#include <memory>

namespace attnlab {
namespace {

// 1-based line of a byte offset.
int lineOf(const std::string& text, std::size_t offset)
{
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(std::min(offset, text.size())), '\n'));
}

// The lines of a text, for SentencePiece to learn from (the empty ones left out).
std::vector<std::string> linesOf(const std::string& text)
{
    std::vector<std::string> lines;
    for (std::size_t begin = 0; begin < text.size();) {
        const auto end = std::min(text.find('\n', begin), text.size());
        if (end > begin)
            lines.push_back(text.substr(begin, end - begin));
        begin = end + 1;
    }
    return lines;
}

// Unit "pieces": a SentencePiece model learnt on the training text, stored in the dataset; else none.
std::unique_ptr<SubwordModel> piecesFor(LanguageModelDataset& data, const std::string& where, const std::string& unit,
                                        const std::string& trainingText, const TextPieceSettings& pieces)
{
    if (unit != "pieces")
        return nullptr;
    const auto lines = linesOf(trainingText);
    if (lines.empty())
        throw DataError(where, 0, "has no line of text to learn word pieces from");
    auto model = std::make_unique<SubwordModel>(SubwordModel::train(lines, pieces.kind, pieces.vocabulary));
    data.subwords = model->toText();
    data.subwordKind = pieces.kind;
    data.notes.push_back(where + ": " + std::to_string(model->size()) + " SentencePiece " + pieces.kind + " pieces learnt on the training text (about " +
                         std::to_string(pieces.vocabulary) + " asked)");
    return model;
}

// The tokens' vocabulary; with pieces every piece the model can give and the line end too, so a prompt split in
// a way the text never was still reads.
std::vector<std::string> vocabularyOf(std::vector<std::string> tokens, const SubwordModel* pieces)
{
    if (pieces) {
        const auto all = pieces->pieces();
        tokens.insert(tokens.end(), all.begin(), all.end());
        tokens.emplace_back("\n");
    }
    return LanguageModelText::vocabularyOf(tokens);
}

LanguageModelDataset splitTokens(const std::string& path, const std::string& text, const std::string& unit, double trainShare,
                                 double devShare, const TextPieceSettings& pieceSettings = {})
{
    LanguageModelDataset data;
    // Pieces are learnt on the training share of the characters (its end is where the tokens' training share ends,
    // near enough: a piece is never learnt from the dev or test text).
    const auto pieces = piecesFor(data, path, unit, text.substr(0, static_cast<std::size_t>(static_cast<double>(text.size()) * trainShare)),
                                  pieceSettings);
    const auto tokens = LanguageModelText::split(text, unit, pieces.get());
    if (tokens.size() < 20)
        throw DataError(path, 0, "has " + std::to_string(tokens.size()) + " " + unit +
                                     ": a language model needs at least 20 to split into train, dev and test");
    data.unit = unit;
    data.vocabulary = vocabularyOf(tokens, pieces.get());
    const auto ids = LanguageModelText::encode(tokens, data.vocabulary, unit);
    const auto n = ids.size();
    const auto trainEnd = static_cast<std::size_t>(static_cast<double>(n) * trainShare);
    const auto devEnd = devShare > 0 ? trainEnd + static_cast<std::size_t>(static_cast<double>(n) * devShare) : n;
    data.train.assign(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(trainEnd));
    data.dev.assign(ids.begin() + static_cast<std::ptrdiff_t>(trainEnd), ids.begin() + static_cast<std::ptrdiff_t>(devEnd));
    data.test.assign(ids.begin() + static_cast<std::ptrdiff_t>(devShare > 0 ? devEnd : trainEnd), ids.end());
    // The prompt of the samples: the text's first line, at most 40 characters (a speaker's name in a play).
    const auto firstLine = text.substr(0, text.find('\n'));
    auto promptTokens = LanguageModelText::split(firstLine, unit, pieces.get());
    promptTokens.resize(std::min<std::size_t>(promptTokens.size(), unit == "words" ? 4 : unit == "pieces" ? 6 : 40));
    data.prompt = LanguageModelText::join(promptTokens, unit);
    return data;
}

} // namespace

std::string TextCorpusReader::readText(const std::string& path)
{
    if (!TextFile::exists(path))
        throw DataError(path, 0, "no such file");
    GzipInput in(path, "the text file");
    std::string text;
    for (int c = in.get(); c >= 0; c = in.get())
        text += static_cast<char>(c);
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        throw DataError(path, 0, "is empty: a language model needs text to learn from");
    if (const auto nul = text.find('\0'); nul != std::string::npos)
        throw DataError(path, lineOf(text, nul), "has a NUL byte: this is a binary file, not text");
    if (const auto bad = TextFile::invalidUtf8Offset(text); bad != std::string::npos)
        throw DataError(path, lineOf(text, bad), "is not valid UTF-8 (byte " + std::to_string(bad + 1) + "): save it as UTF-8");
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) // a byte-order mark is no character of the text
        text.erase(0, 3);
    // CRLF files: one line end is one character
    text.erase(std::remove(text.begin(), text.end(), '\r'), text.end());
    return text;
}

LanguageModelDataset TextCorpusReader::tinyShakespeare(const std::string& path)
{
    auto data = splitTokens(path, readText(path), "characters", 0.9, 0.0);
    data.id = "tinyshakespeare";
    data.name = "tiny Shakespeare";
    data.prompt = "ROMEO:";
    data.notes.push_back("tinyshakespeare: nanoGPT's split (the first 90% of the characters train, the last 10% validate); "
                         "dev and test are both that 10%");
    return data;
}

LanguageModelDataset TextCorpusReader::ownText(const std::string& path, const std::string& unit, const TextPieceSettings& pieces)
{
    auto data = splitTokens(path, readText(path), unit, 0.9, 0.05, pieces);
    data.id = "text-file";
    data.name = std::filesystem::path(path).filename().string();
    return data;
}

LanguageModelDataset TextCorpusReader::multi30k(const std::string& folder, const std::string& language, const std::string& unit,
                                                const TextPieceSettings& pieceSettings)
{
    if (std::find(Multi30kReader::languages().begin(), Multi30kReader::languages().end(), language) == Multi30kReader::languages().end())
        throw DataError("multi30k-lm", 0, "no language '" + language + "' (Multi30k has en, de, fr)");
    LanguageModelDataset data;
    std::vector<std::vector<std::string>> splits;
    std::vector<std::string> all;
    std::string firstLine;
    std::unique_ptr<SubwordModel> pieces;
    for (const char* split : {"train", "dev", "test"}) {
        const std::string path = DataLocator::join(folder, Multi30kReader::fileOf(split, language));
        const std::string text = readText(path);
        if (firstLine.empty()) {
            firstLine = text.substr(0, text.find('\n'));
            pieces = piecesFor(data, "multi30k-lm", unit, text, pieceSettings); // learnt on the training file
        }
        splits.push_back(LanguageModelText::split(text, unit, pieces.get()));
        all.insert(all.end(), splits.back().begin(), splits.back().end());
    }
    data.id = "multi30k-lm";
    data.name = "Multi30k (" + language + ")";
    data.unit = unit;
    data.vocabulary = vocabularyOf(all, pieces.get());
    data.train = LanguageModelText::encode(splits[0], data.vocabulary, unit);
    data.dev = LanguageModelText::encode(splits[1], data.vocabulary, unit);
    data.test = LanguageModelText::encode(splits[2], data.vocabulary, unit);
    std::vector<bool> trained(data.vocabulary.size(), false);
    for (auto id : data.train)
        trained[static_cast<std::size_t>(id)] = true;
    const auto unseen = std::count(trained.begin(), trained.end(), false);
    if (unseen > 0)
        data.notes.push_back("multi30k-lm: " + std::to_string(unseen) + " of the " + std::to_string(data.vocabulary.size()) + " " +
                             unit + " occur only in dev or test (never a training target: they cost the model there)");
    // The samples start where the descriptions do: the first word of the first training line ("Two").
    auto prompt = LanguageModelText::split(firstLine, "words");
    prompt.resize(std::min<std::size_t>(prompt.size(), 1));
    data.prompt = LanguageModelText::join(prompt, "words"); // a word in every unit: pieces split it as they split the text
    return data;
}

} // namespace attnlab
