#pragma once
#include <stdexcept>
#include <string>

namespace attnlab {

// Bad input in a data file (or a dataset setting): the message names the file and line, so a user can
// open the file and fix it. line is 0 when the problem is the file as a whole or a setting.
class DataError : public std::runtime_error {
public:
    DataError(std::string file, int line, const std::string& problem)
        : std::runtime_error(format(file, line, problem)), file_(std::move(file)), line_(line)
    {
    }
    const std::string& file() const { return file_; }
    int line() const { return line_; }

private:
    static std::string format(const std::string& file, int line, const std::string& problem)
    {
        return file + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + problem;
    }
    std::string file_;
    int line_;
};

} // namespace attnlab
