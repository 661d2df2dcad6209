#include "cli/CliFlags.h"

#include <sstream>

namespace attnlab {

CliFlags::CliFlags(const std::vector<std::string>& args, const std::set<std::string>& valued,
                   const std::set<std::string>& booleans, std::size_t maxPositional)
{
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (booleans.count(a)) {
            values_[a] = "1";
        } else if (valued.count(a)) {
            if (i + 1 >= args.size())
                throw CliUsageError(a + " needs a value");
            values_[a] = args[++i];
        } else if (a.rfind("--", 0) != 0 && positional_.size() < maxPositional) {
            positional_.push_back(a);
        } else {
            throw CliUsageError("unknown option '" + a + "' for '" + (args.empty() ? "" : args[0]) + "'");
        }
    }
}

bool CliFlags::has(const std::string& flag) const { return values_.count(flag) > 0; }

std::string CliFlags::text(const std::string& flag, const std::string& fallback) const
{
    auto it = values_.find(flag);
    return it == values_.end() ? fallback : it->second;
}

std::string CliFlags::required(const std::string& flag) const
{
    if (!has(flag))
        throw CliUsageError(flag + " is required");
    return values_.at(flag);
}

long long CliFlags::integer(const std::string& flag, long long fallback) const
{
    if (!has(flag))
        return fallback;
    const std::string& v = values_.at(flag);
    std::size_t used = 0;
    long long n = 0;
    try {
        n = std::stoll(v, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != v.size() || v.empty())
        throw CliUsageError(flag + " expects an integer, got '" + v + "'");
    return n;
}

double CliFlags::real(const std::string& flag, double fallback) const
{
    if (!has(flag))
        return fallback;
    const std::string& v = values_.at(flag);
    std::size_t used = 0;
    double n = 0;
    try {
        n = std::stod(v, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != v.size() || v.empty())
        throw CliUsageError(flag + " expects a number, got '" + v + "'");
    return n;
}

void CliFlags::update(const std::string& flag, int& target) const
{
    target = static_cast<int>(integer(flag, target));
}

void CliFlags::update(const std::string& flag, std::uint64_t& target) const
{
    target = static_cast<std::uint64_t>(integer(flag, static_cast<long long>(target)));
}

void CliFlags::update(const std::string& flag, double& target) const
{
    target = real(flag, target);
}

void CliFlags::update(const std::string& flag, std::string& target) const
{
    target = text(flag, target);
}

std::vector<std::string> CliFlags::list(const std::string& flag) const
{
    std::vector<std::string> items;
    std::string item;
    std::istringstream in(required(flag));
    while (std::getline(in, item, ','))
        if (!item.empty())
            items.push_back(item);
    return items;
}

} // namespace attnlab
