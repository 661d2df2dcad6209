#pragma once
#include "core/config/HeadSelection.h"

#include <cstddef>
#include <initializer_list>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>

namespace attnlab {

class CliFlags;
class PretrainedLanguageModel;

// What explain, generate and heads share when --pretrained names the pretrained language model (smollm2-135m,
// smollm2, or a .gguf file): finding and opening it (--data-dir, --device), the heads to knock out (--ablate L.H,...
// [--ablate-mean]), its errors in flag terms, and its pieces as a terminal shows them.
class PretrainedLlmFlags {
public:
    static constexpr const char* kShortName = "smollm2";
    static const std::set<std::string>& valued(); // --data-dir --device --ablate
    static const std::set<std::string>& booleans(); // --ablate-mean

    // A language model's id or short name, a manifest whose one file is a .gguf, or a file (a folder is an encoder's).
    static bool namesLanguageModel(const std::string& pretrained);
    // The model --pretrained names, on --device (cpu by default). Not installed: a CliHintedError saying how to
    // install it; a file that is not a llama GGUF: its DataError, naming the file, with a hint.
    static std::unique_ptr<PretrainedLanguageModel> open(const CliFlags& flags);
    // --ablate against the model's layers and heads; --ablate-mean alone is a usage error.
    static HeadSelection ablation(const CliFlags& flags, const PretrainedLanguageModel& model);
    // The model's "key: ..." refusals ("text: invalid UTF-8 at byte 3") as usage errors in flag terms ("--prompt:
    // ...", keys mapped by `flagOf`); any other message is rethrown as it is.
    [[noreturn]] static void rethrowInFlagTerms(const std::invalid_argument& error,
                                                const std::map<std::string, std::string>& flagOf);
    // A usage error for the first of these flags given (the language model's own, and `more`) where --pretrained does
    // not name the language model.
    static void refuseWithout(const CliFlags& flags, std::initializer_list<const char*> more = {});

    // "SmolLM2-135M-Instruct (pretrained language model) · 30 layers x 9 heads (3 key/value heads), 134515008
    // parameters · cpu · loaded in 612 ms"
    static std::string describe(const PretrainedLanguageModel& model);
    // The same as a JSON object's text ({"path", "name", "layers", ...}), and the heads knocked out ({"ablated": [...],
    // "ablation": "zero"|"mean"} to merge), for the commands' --json.
    static std::string modelJson(const PretrainedLanguageModel& model);
    static std::string ablationJson(const HeadSelection& ablate);
    // "heads knocked out: 5.3,7.1 (zero: their output set to 0)"
    static std::string describeAblation(const HeadSelection& ablate);

    // A piece readably: a space as "␣", a line end as "\n", a tab as "\t", an invisible character (a no-break
    // space, a zero-width one) as "\u00A0", bytes that are not whole UTF-8 characters (a character split over pieces)
    // as "\xNN".
    static std::string shownPiece(const std::string& piece);
    static std::size_t displayWidth(const std::string& utf8); // code points
    static std::string clipped(const std::string& utf8, std::size_t characters); // the first ones, whole
    // `text` cut to `width` code points ("…" marking a cut), then padded with spaces to it.
    static std::string fittedCell(const std::string& text, std::size_t width);
};

} // namespace attnlab
