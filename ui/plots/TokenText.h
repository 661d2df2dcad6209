#pragma once
#include <QLocale>
#include <QString>

#include <string>

namespace attnlab::ui {

// Tokens and probabilities as every view writes them: a space as ␣, a line end as ↵ and a tab as → (a language model's
// pieces are bytes; an incomplete character shows as U+FFFD), a probability as a percentage (one decimal below 9.5 %).
class TokenText {
public:
    static QString shown(const std::string& piece)
    {
        QString s = QString::fromUtf8(piece.data(), static_cast<qsizetype>(piece.size()));
        s.replace(QLatin1Char('\n'), QStringLiteral("↵"));
        s.replace(QLatin1Char(' '), QStringLiteral("␣"));
        s.replace(QLatin1Char('\t'), QStringLiteral("→"));
        return s;
    }
    static QString percent(double p)
    {
        return QLocale().toString(100.0 * p, 'f', p < 0.095 ? 1 : 0) + QLatin1Char('%');
    }
};

} // namespace attnlab::ui
