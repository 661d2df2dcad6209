#include "core/platform/Terminal.h"

#include <unistd.h>

namespace attnlab {

bool Terminal::isTerminal(Stream stream)
{
    const int fd = stream == Stream::Input ? STDIN_FILENO : stream == Stream::Output ? STDOUT_FILENO : STDERR_FILENO;
    return isatty(fd) == 1;
}

} // namespace attnlab
