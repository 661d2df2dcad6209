#include "core/data/readers/SyntheticTranslation.h"

#include "core/data/DataError.h"
#include "core/data/TranslationText.h"

#include <algorithm>
#include <random>
#include <unordered_set>

namespace attnlab {
namespace {

// Alphabetical, so that "sort" sorts by the order a reader expects.
const std::vector<std::string> kWords = {"ant", "bee", "cat", "dog", "eel", "fox", "gnu", "hen", "ibis",
                                         "jay", "kiwi", "lynx", "mole", "newt", "owl", "pig", "quail", "rat",
                                         "seal", "toad", "urchin", "vole", "wolf", "yak", "zebra"};
// The probe's words: the same 25 in a fixed scrambled order (distinct, so sort's probe is a permutation).
const std::vector<std::string> kProbeWords = {"owl", "cat", "yak", "bee", "fox", "dog", "hen", "ant", "rat",
                                              "eel", "wolf", "gnu", "pig", "jay", "zebra", "mole", "kiwi", "seal",
                                              "ibis", "vole", "lynx", "toad", "newt", "quail", "urchin"};
const std::vector<std::string> kMonths = {"january", "february", "march", "april", "may", "june", "july",
                                          "august", "september", "october", "november", "december"};
const std::vector<std::string> kMonthsShort = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};
const std::vector<std::string> kWeekdays = {"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"};
const std::vector<std::string> kWeekdaysShort = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};

// The ways a date is written: W weekday, w its abbreviation, D day, O ordinal day (26th), d day in two
// digits, M month, m its abbreviation, N month number, n in two digits, Y year; other tokens are literal.
const std::vector<std::string> kDateFormats = {
    "W , the O of M Y", "D m Y", "M D , Y", "Y / n / d", "d . n . Y", "w D m Y",
    "the O of M , Y", "W D M Y", "n / d / Y", "M O , Y", "W , M D , Y", "D M Y"};

constexpr int kMaxLength = 500;
constexpr int kRedraws = 1000;

std::size_t below(std::mt19937_64& rng, std::size_t n) { return static_cast<std::size_t>(rng() % n); }

// Days since 1970-01-01 of a proleptic Gregorian date, and back (H. Hinnant's civil-calendar algorithms).
long daysFromCivil(int y, int m, int d)
{
    y -= m <= 2 ? 1 : 0;
    const long era = (y >= 0 ? y : y - 399) / 400;
    const long yoe = y - era * 400;
    const long doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

void civilFromDays(long z, int& y, int& m, int& d)
{
    z += 719468;
    const long era = (z >= 0 ? z : z - 146096) / 146097;
    const long doe = z - era * 146097;
    const long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const long mp = (5 * doy + 2) / 153;
    d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
    m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    y = static_cast<int>(yoe + era * 400 + (m <= 2 ? 1 : 0));
}

int weekdayIndex(int y, int m, int d) // 0 = sunday; 1970-01-01 was a thursday
{
    return static_cast<int>(((daysFromCivil(y, m, d) % 7) + 7 + 4) % 7);
}

std::string twoDigits(int v) { return (v < 10 ? "0" : "") + std::to_string(v); }

std::string ordinal(int day)
{
    const int last = day % 10;
    const char* suffix = (day / 10 == 1 || last == 0 || last > 3) ? "th" : last == 1 ? "st" : last == 2 ? "nd" : "rd";
    return std::to_string(day) + suffix;
}

TranslationPair datePair(int y, int m, int d, const std::string& format)
{
    TranslationPair p;
    p.target = {std::to_string(y), "-", twoDigits(m), "-", twoDigits(d)};
    std::size_t start = 0;
    while (start < format.size()) {
        std::size_t end = format.find(' ', start);
        if (end == std::string::npos) end = format.size();
        const std::string code = format.substr(start, end - start);
        start = end + 1;
        const int at = static_cast<int>(p.source.size());
        if (code == "W") p.source.push_back(kWeekdays[static_cast<std::size_t>(weekdayIndex(y, m, d))]);
        else if (code == "w") p.source.push_back(kWeekdaysShort[static_cast<std::size_t>(weekdayIndex(y, m, d))]);
        else if (code == "Y") { p.source.push_back(std::to_string(y)); p.alignment.emplace_back(at, 0); }
        else if (code == "M") { p.source.push_back(kMonths[static_cast<std::size_t>(m - 1)]); p.alignment.emplace_back(at, 2); }
        else if (code == "m") { p.source.push_back(kMonthsShort[static_cast<std::size_t>(m - 1)]); p.alignment.emplace_back(at, 2); }
        else if (code == "N") { p.source.push_back(std::to_string(m)); p.alignment.emplace_back(at, 2); }
        else if (code == "n") { p.source.push_back(twoDigits(m)); p.alignment.emplace_back(at, 2); }
        else if (code == "D") { p.source.push_back(std::to_string(d)); p.alignment.emplace_back(at, 4); }
        else if (code == "O") { p.source.push_back(ordinal(d)); p.alignment.emplace_back(at, 4); }
        else if (code == "d") { p.source.push_back(twoDigits(d)); p.alignment.emplace_back(at, 4); }
        else p.source.push_back(code);
    }
    std::sort(p.alignment.begin(), p.alignment.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    return p;
}

// The target and gold alignment of a sequence task's source.
TranslationPair sequencePair(const std::string& task, std::vector<std::string> source)
{
    TranslationPair p;
    const int n = static_cast<int>(source.size());
    if (task == "reverse") {
        p.target.assign(source.rbegin(), source.rend());
        for (int i = 0; i < n; ++i) p.alignment.emplace_back(n - 1 - i, i);
    } else if (task == "copy") {
        p.target = source;
        for (int i = 0; i < n; ++i) p.alignment.emplace_back(i, i);
    } else { // sort: the words are distinct, so the permutation is unique
        std::vector<int> order(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
        auto rank = [](const std::string& w) { return std::find(kWords.begin(), kWords.end(), w) - kWords.begin(); };
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return rank(source[static_cast<std::size_t>(a)]) < rank(source[static_cast<std::size_t>(b)]);
        });
        for (int j = 0; j < n; ++j) {
            p.target.push_back(source[static_cast<std::size_t>(order[static_cast<std::size_t>(j)])]);
            p.alignment.emplace_back(order[static_cast<std::size_t>(j)], j);
        }
    }
    p.source = std::move(source);
    return p;
}

class Generator {
public:
    explicit Generator(const SyntheticTranslation::Options& o) : o_(o), rng_(o.seed) {}

    TranslationPair draw(int minLength, int maxLength)
    {
        TranslationPair p;
        if (o_.task == "dates") {
            const long first = daysFromCivil(SyntheticTranslation::kFirstYear, 1, 1);
            const long last = daysFromCivil(SyntheticTranslation::kLastYear, 12, 31);
            int y = 0, m = 0, d = 0;
            civilFromDays(first + static_cast<long>(below(rng_, static_cast<std::size_t>(last - first + 1))), y, m, d);
            p = datePair(y, m, d, kDateFormats[below(rng_, kDateFormats.size())]);
        } else {
            const auto n = static_cast<std::size_t>(minLength) + below(rng_, static_cast<std::size_t>(maxLength - minLength + 1));
            std::vector<std::string> source;
            if (o_.task == "sort") { // distinct words: a partial Fisher-Yates shuffle
                std::vector<std::size_t> index(kWords.size());
                for (std::size_t i = 0; i < index.size(); ++i) index[i] = i;
                for (std::size_t i = 0; i < n; ++i) {
                    std::swap(index[i], index[i + below(rng_, index.size() - i)]);
                    source.push_back(kWords[index[i]]);
                }
            } else {
                for (std::size_t i = 0; i < n; ++i) source.push_back(kWords[below(rng_, kWords.size())]);
            }
            p = sequencePair(o_.task, std::move(source));
        }
        p.sourceText = TranslationText::joined(p.source, false);
        p.targetText = TranslationText::joined(p.target, false);
        return p;
    }

private:
    const SyntheticTranslation::Options& o_;
    std::mt19937_64 rng_;
};

} // namespace

const std::vector<std::string>& SyntheticTranslation::tasks()
{
    static const std::vector<std::string> list = {"reverse", "copy", "sort", "dates"};
    return list;
}

const std::vector<std::string>& SyntheticTranslation::words() { return kWords; }
const std::vector<std::string>& SyntheticTranslation::monthNames() { return kMonths; }

int SyntheticTranslation::daysInMonth(int year, int month)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month == 2 && leap ? 29 : days[(month - 1) % 12];
}

std::string SyntheticTranslation::weekdayOf(int year, int month, int day)
{
    return kWeekdays[static_cast<std::size_t>(weekdayIndex(year, month, day))];
}

TranslationDataset SyntheticTranslation::generate(const Options& o)
{
    const std::string id = "synthetic-" + o.task;
    if (std::find(tasks().begin(), tasks().end(), o.task) == tasks().end())
        throw DataError(id, 0, "setting task: unknown '" + o.task + "' (known: reverse, copy, sort, dates)");
    if (o.trainSize < 1 || o.devSize < 1 || o.testSize < 1)
        throw DataError(id, 0, "setting sizes: every split needs at least one pair");
    const bool dates = o.task == "dates";
    if (!dates && (o.minLength < 1 || o.maxLength < o.minLength || o.maxLength > kMaxLength))
        throw DataError(id, 0, "setting lengths: need 1 <= min <= max <= " + std::to_string(kMaxLength) + " (got " +
                                   std::to_string(o.minLength) + ".." + std::to_string(o.maxLength) + ")");
    if (o.task == "sort" && o.maxLength > static_cast<int>(kWords.size()))
        throw DataError(id, 0, "setting max length: sort draws distinct words, at most " + std::to_string(kWords.size()));

    TranslationDataset d;
    d.id = id;
    d.name = dates ? "Synthetic dates" : o.task == "reverse" ? "Synthetic reversal" : o.task == "copy" ? "Synthetic copy" : "Synthetic sorting";
    d.sourceLanguage = dates ? "date" : "words";
    d.targetLanguage = dates ? "iso-date" : "words";
    d.goldAlignment = true;
    d.tokenizer = "whitespace";
    Generator generator(o);
    std::unordered_set<std::string> trainSources;
    for (int i = 0; i < o.trainSize; ++i) {
        d.train.push_back(generator.draw(o.minLength, o.maxLength));
        trainSources.insert(d.train.back().sourceText);
    }
    // Reverse's test is past the trained length: every test sentence is longer than every training one.
    const bool longerTest = o.task == "reverse";
    const int testMin = longerTest ? o.maxLength + 1 : o.minLength;
    const int testMax = longerTest ? 2 * o.maxLength : o.maxLength;
    for (const auto& [split, size, lo, hi, name] : {std::tuple{&d.dev, o.devSize, o.minLength, o.maxLength, "dev"},
                                                    std::tuple{&d.test, o.testSize, testMin, testMax, "test"}}) {
        int seen = 0;
        for (int i = 0; i < size; ++i) {
            TranslationPair p = generator.draw(lo, hi);
            for (int tries = 1; tries < kRedraws && trainSources.count(p.sourceText); ++tries)
                p = generator.draw(lo, hi);
            seen += trainSources.count(p.sourceText) ? 1 : 0;
            split->push_back(std::move(p));
        }
        if (seen > 0)
            d.notes.push_back(id + ": " + std::to_string(seen) + " of " + std::to_string(size) + " " + name +
                              " pairs also occur in train (the lengths allow too few distinct sentences)");
    }
    if (longerTest)
        d.notes.push_back(id + ": test sentences have " + std::to_string(testMin) + ".." + std::to_string(testMax) +
                          " words, longer than every training sentence (" + std::to_string(o.minLength) + ".." +
                          std::to_string(o.maxLength) + "): the test split measures lengths never trained on");

    // The probe: the date, or a few distinct words in a scrambled order, at a trained length.
    if (dates) {
        d.probe = datePair(2026, 11, 26, kDateFormats.front());
    } else {
        const int n = std::clamp(6, o.minLength, o.maxLength);
        std::vector<std::string> source;
        for (int i = 0; i < n; ++i) source.push_back(kProbeWords[static_cast<std::size_t>(i) % kProbeWords.size()]);
        d.probe = sequencePair(o.task, std::move(source));
    }
    d.probe.sourceText = TranslationText::joined(d.probe.source, false);
    d.probe.targetText = TranslationText::joined(d.probe.target, false);
    return d;
}

TranslationPair SyntheticTranslation::answer(const std::string& task, const std::vector<std::string>& source)
{
    if (task != "reverse" && task != "copy" && task != "sort")
        return {};
    return sequencePair(task, source);
}

} // namespace attnlab
