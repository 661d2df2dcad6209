#pragma once
#include <string>

namespace attnlab {

// Where the running program is, for what lives beside it: the CLI running itself again (bench, sweeps) and the
// modules it loads (SentencePiece's shim, at ../lib/attnlab/ from bin/).
class ExecutablePath {
public:
    static std::string current(); // the absolute path; "" when the system does not say (/proc not mounted)
    static std::string folder();  // its folder; "" likewise
};

} // namespace attnlab
