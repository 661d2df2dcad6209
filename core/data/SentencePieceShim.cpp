#include "core/data/SentencePieceShim.h"

#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

char* copyOf(const std::string& s)
{
    auto* out = static_cast<char*>(std::malloc(s.size() + 1));
    if (out) {
        std::memcpy(out, s.data(), s.size());
        out[s.size()] = '\0';
    }
    return out;
}

// The sentences, one at a time, as SentencePiece's trainer reads its input.
class SentenceList : public sentencepiece::SentenceIterator {
public:
    SentenceList(const char* const* sentences, const std::size_t* lengths, std::size_t count)
        : sentences_(sentences), lengths_(lengths), count_(count)
    {
        load();
    }
    bool done() const override { return next_ >= count_; }
    void Next() override
    {
        ++next_;
        load();
    }
    const std::string& value() const override { return value_; }
    sentencepiece::util::Status status() const override { return {}; }

private:
    void load()
    {
        if (next_ < count_)
            value_.assign(sentences_[next_], lengths_[next_]);
    }
    const char* const* sentences_;
    const std::size_t* lengths_;
    std::size_t count_, next_ = 0;
    std::string value_;
};

} // namespace

extern "C" {

int attnlab_spm_train(const char* const* sentences, const std::size_t* lengths, std::size_t count, const char* const* keys,
                      const char* const* values, std::size_t options, char** model, std::size_t* modelSize, char** error)
{
    try {
        std::unordered_map<std::string, std::string> args;
        for (std::size_t i = 0; i < options; ++i)
            args[keys[i]] = values[i];
        SentenceList input(sentences, lengths, count);
        std::string serialized;
        const auto status = sentencepiece::SentencePieceTrainer::Train(args, &input, &serialized);
        if (!status.ok()) {
            *error = copyOf(status.message());
            return 1;
        }
        *model = static_cast<char*>(std::malloc(serialized.size() + 1));
        std::memcpy(*model, serialized.data(), serialized.size());
        *modelSize = serialized.size();
        return 0;
    } catch (const std::exception& e) {
        *error = copyOf(e.what());
        return 1;
    }
}

void* attnlab_spm_load(const char* bytes, std::size_t size, char** error)
{
    try {
        auto processor = std::make_unique<sentencepiece::SentencePieceProcessor>();
        const auto status = processor->LoadFromSerializedProto(std::string(bytes, size));
        if (!status.ok()) {
            *error = copyOf(status.message());
            return nullptr;
        }
        return processor.release();
    } catch (const std::exception& e) {
        *error = copyOf(e.what());
        return nullptr;
    }
}

int attnlab_spm_encode(void* processor, const char* text, std::size_t size, char** pieces, std::size_t* piecesSize, char** error)
{
    try {
        std::vector<std::string> out;
        const auto status = static_cast<sentencepiece::SentencePieceProcessor*>(processor)->Encode(std::string(text, size), &out);
        if (!status.ok()) {
            *error = copyOf(status.message());
            return 1;
        }
        std::string joined;
        for (const auto& p : out) {
            joined += p;
            joined += '\0';
        }
        *pieces = static_cast<char*>(std::malloc(joined.size() + 1));
        std::memcpy(*pieces, joined.data(), joined.size());
        *piecesSize = joined.size();
        return 0;
    } catch (const std::exception& e) {
        *error = copyOf(e.what());
        return 1;
    }
}

int attnlab_spm_pieces(void* processor, char** pieces, std::size_t* piecesSize, char** error)
{
    try {
        const auto* model = static_cast<sentencepiece::SentencePieceProcessor*>(processor);
        std::string joined;
        for (int id = 0; id < model->GetPieceSize(); ++id)
            if (!model->IsControl(id) && !model->IsUnknown(id)) {
                joined += model->IdToPiece(id);
                joined += '\0';
            }
        *pieces = static_cast<char*>(std::malloc(joined.size() + 1));
        std::memcpy(*pieces, joined.data(), joined.size());
        *piecesSize = joined.size();
        return 0;
    } catch (const std::exception& e) {
        *error = copyOf(e.what());
        return 1;
    }
}

int attnlab_spm_size(void* processor) { return static_cast<sentencepiece::SentencePieceProcessor*>(processor)->GetPieceSize(); }
void attnlab_spm_close(void* processor) { delete static_cast<sentencepiece::SentencePieceProcessor*>(processor); }
void attnlab_spm_free(char* buffer) { std::free(buffer); }

} // extern "C"
