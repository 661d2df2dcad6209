#include "core/config/TaskKind.h"

#include <array>

namespace attnlab {
namespace {
struct TaskNames {
    TaskKind task;
    const char* id;
    const char* noun;
};
constexpr std::array<TaskNames, 4> kNames = {{
    {TaskKind::Classification, "classification", "classification"},
    {TaskKind::Regression, "regression", "time-series regression"},
    {TaskKind::Translation, "translation", "translation"},
    {TaskKind::LanguageModel, "language_model", "language-model"},
}};
} // namespace

std::string taskKindId(TaskKind task)
{
    return kNames[static_cast<std::size_t>(task)].id;
}

std::string taskKindNoun(TaskKind task)
{
    return kNames[static_cast<std::size_t>(task)].noun;
}

std::optional<TaskKind> taskKindFromId(const std::string& id)
{
    for (const auto& names : kNames)
        if (id == names.id)
            return names.task;
    return std::nullopt;
}

TaskKind TaskKinds::primary() const
{
    for (const auto& names : kNames)
        if (has(names.task))
            return names.task;
    return TaskKind::Classification;
}

std::string TaskKinds::nouns() const
{
    std::string text;
    for (const auto& names : kNames)
        if (has(names.task))
            text += (text.empty() ? "" : " and ") + std::string(names.noun);
    return text;
}

} // namespace attnlab
