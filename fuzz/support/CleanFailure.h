#pragma once
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace attnlab::fuzz {

// What a parser may answer bad input with: the errors its header promises (DataError, a
// std::runtime_error naming file and line; std::invalid_argument naming a setting or key; the store's
// std::runtime_error naming the file), each with a message a person can act on. Anything else that
// escapes (std::out_of_range from at(), a json::exception, std::length_error, bad_alloc) is a finding:
// libFuzzer reports the uncaught exception and saves the input. So is a library's bare message ("stoi").
class CleanFailure {
public:
    template <typename Parse>
    static void expect(Parse&& parse)
    {
        try {
            parse();
        } catch (const std::invalid_argument& e) {
            check(e.what());
        } catch (const std::runtime_error& e) {
            check(e.what());
        }
    }

private:
    static void check(const char* message)
    {
        static const char* const bare[] = {"stoi", "stol", "stoll", "stoul", "stoull", "stof", "stod", "stold",
                                           "basic_string", "vector", "map::at", "unordered_map::at"};
        for (const char* name : bare)
            if (std::strncmp(message, name, std::strlen(name)) == 0) {
                std::fprintf(stderr, "a standard library message reached the user: '%s'\n", message);
                std::abort();
            }
        if (std::strlen(message) < 8) {
            std::fprintf(stderr, "an error message too short to act on: '%s'\n", message);
            std::abort();
        }
    }
};

} // namespace attnlab::fuzz
