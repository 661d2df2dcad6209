#pragma once
// A C interface over SentencePiece, built as its own module (libattnlab_sentencepiece.so) that SubwordModel
// loads apart from the process (SharedLibrary, isolated): Debian's libsentencepiece exports the protobuf-lite
// 3.14 it carries, Debian's LibTorch brings libprotobuf 3.21, and the two in one symbol scope crash at start-up
// (measured: a segfault in libprotobuf's initialisation; with libprotobuf first, SentencePiece's version check
// aborts). Only C types cross: buffers are allocated here and given back to attnlab_spm_free.
#include <cstddef>

extern "C" {
// Trains a model on `count` sentences with SentencePiece's training options (keys[i]=values[i]); 0 and the
// serialised ModelProto in *model on success, else nonzero and a message in *error.
int attnlab_spm_train(const char* const* sentences, const std::size_t* lengths, std::size_t count, const char* const* keys,
                      const char* const* values, std::size_t options, char** model, std::size_t* modelSize, char** error);
// A processor for a serialised ModelProto, or null and a message in *error.
void* attnlab_spm_load(const char* bytes, std::size_t size, char** error);
// A text's pieces, each followed by '\0', in *pieces (*piecesSize bytes in all); 0 on success.
int attnlab_spm_encode(void* processor, const char* text, std::size_t size, char** pieces, std::size_t* piecesSize, char** error);
int attnlab_spm_size(void* processor);
// Every piece of the model but its control and unknown symbols, in id order, each followed by '\0'; 0 on success.
int attnlab_spm_pieces(void* processor, char** pieces, std::size_t* piecesSize, char** error);
void attnlab_spm_close(void* processor);
void attnlab_spm_free(char* buffer);
}
