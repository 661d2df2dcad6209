#pragma once

namespace attnlab {

// Whether one of this process' standard streams is a terminal (POSIX isatty): progress redraws a line only
// on one, and a question is asked only where someone can answer it.
class Terminal {
public:
    enum class Stream { Input, Output, Error };
    static bool isTerminal(Stream stream);
};

} // namespace attnlab
