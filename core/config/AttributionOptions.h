#pragma once
#include <string>
#include <vector>

namespace attnlab {

// How the explanation methods are run (TokenAttribution holds their result). Each scores every
// token of one sentence for one class: the class's softmax probability is the function explained, the
// quantity faithfulness curves also follow.
struct AttributionOptions {
    int targetClass = -1;          // -1 = the predicted class
    int igSteps = 32;              // integrated gradients: points on the path (midpoint rule)
    std::string igBaseline = "pad"; // pad: every word vector the padding row's | zero: the zero vector
    std::string occlusion = "unk"; // unk: the token replaced by <unk> | remove: the token deleted

    // Every method, in the order they are listed and compared: attention (what the model attends to),
    // rollout, attngrad, then the attributions.
    static const std::vector<std::string>& methods();
    static bool known(const std::string& method);
    // "a,b" -> {a, b}; "all" or "" -> {} (every method). Throws std::invalid_argument "unknown method 'x'
    // (known: ..., or all)" for a name not in methods().
    static std::vector<std::string> parseList(const std::string& list);
    static std::string describe(const std::string& method); // one line: what the score is
    // "" or why the options cannot be used (names the setting: ig steps, baseline, occlusion).
    std::string validate() const;
};

} // namespace attnlab
