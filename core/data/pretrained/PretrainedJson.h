#pragma once
#include "core/data/DataError.h"

#include <nlohmann/json.hpp>

#include <string>

namespace attnlab {

// The JSON of a pretrained model's files (config.json, tokenizer_config.json, a safetensors header) parsed, or a
// DataError naming the file: "not JSON (byte N)", or a number JSON cannot represent (1e999: nlohmann's out_of_range).
// `subject` names the part of the file when it is not the whole ("header").
class PretrainedJson {
public:
    static nlohmann::json parse(const std::string& text, const std::string& file, const std::string& subject = {})
    {
        const std::string what = subject.empty() ? std::string() : subject + " ";
        try {
            return nlohmann::json::parse(text);
        } catch (const nlohmann::json::parse_error& e) {
            throw DataError(file, 0, what + (subject.empty() ? "" : "is ") + "not JSON (byte " + std::to_string(e.byte) + ")");
        } catch (const nlohmann::json::exception&) {
            throw DataError(file, 0, what + "holds a number JSON cannot represent");
        }
    }
};

} // namespace attnlab
