#include "cli/CliApp.h"

#include <iostream>

int main(int argc, char** argv)
{
    return attnlab::CliApp(std::cout, std::cerr).run(std::vector<std::string>(argv + 1, argv + argc));
}
