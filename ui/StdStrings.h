#pragma once
// The engine's strings (std::string, UTF-8) as Qt's, for the views: one spelling of the conversion instead of
// a helper in each file (there were 18, and a unity build of ui/ needs them gone: cmake/UnityGroups.cmake).
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace attnlab::ui {

inline QString qs(const std::string& s) { return QString::fromStdString(s); }

// Tokens as one line of text, a space between each ("ein Hund läuft").
inline QString joinedWords(const std::vector<std::string>& tokens)
{
    QStringList words;
    for (const auto& t : tokens)
        words << qs(t);
    return words.join(QLatin1Char(' '));
}

} // namespace attnlab::ui
