#pragma once
#include "core/data/TranslationDataset.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

// The built-in translation tasks, generated in-process and deterministic by seed (the same
// options give the same pairs on every machine: mt19937_64 and no std distribution). Every pair carries its
// gold alignment, (source index, target index), so attention is measured against a known answer (AER):
// - reverse: a sentence of words() (with repeats), its target the same words reversed; target i is
//   source n-1-i. Train and dev have minLength..maxLength words; TEST has maxLength+1..2*maxLength, longer
//   than every training sentence, to show what happens past the trained length.
// - copy: the target is the source; target i is source i (the monotone alignment).
// - sort: distinct words, the target them in words()' (alphabetical) order; target j is the source position
//   of its word (a permutation).
// - dates: a date between 1950 and 2049 written one of a dozen ways ("thursday , the 26th of november 2026",
//   "26 nov 2026", "november 26 , 2026", "2026 / 11 / 26", "26 . 11 . 2026", "11 / 26 / 2026", ...), its
//   target the ISO date as five tokens "2026" "-" "11" "-" "26" (month and day two digits). The year token
//   is linked to the source's year, the month to the month's name, abbreviation or number, the day to the
//   day's number or ordinal ("26th"). The two "-" and, in the source, the weekday, "the", "of" and the
//   separators are linked to nothing: the ISO separators follow from the format alone, and the weekday
//   (always the real weekday of the date, weekdayOf) is redundant. So AER is measured over the target
//   tokens that have a gold link.
// Dev and test pairs whose source also occurs in train are drawn again (a note counts any that remain
// after 1,000 tries, which only a tiny space of sentences leaves).
class SyntheticTranslation {
public:
    struct Options {
        std::string task = "reverse"; // reverse | copy | sort | dates
        std::uint64_t seed = 7;
        int trainSize = 10000, devSize = 500, testSize = 500;
        int minLength = 3, maxLength = 10; // words per source sentence (reverse, copy, sort)
    };
    static constexpr int kFirstYear = 1950, kLastYear = 2049;

    // Throws DataError naming the setting ("synthetic-<task>") for sizes below 1, lengths out of order or
    // out of 1..500, sort longer than words(), an unknown task.
    static TranslationDataset generate(const Options& options);
    static const std::vector<std::string>& tasks(); // reverse, copy, sort, dates

    // The right answer to a typed source of a sequence task (reverse, copy, sort): its target and gold
    // alignment, by the rule that generates the task's pairs (a word not in words() sorts last). Dates and an
    // unknown task give an empty pair: a typed date's gold would need its format, which the words alone do not say.
    static TranslationPair answer(const std::string& task, const std::vector<std::string>& source);

    // The 25 words of the sequence tasks, in alphabetical order ("ant", "bee", "cat", ...).
    static const std::vector<std::string>& words();
    // The weekday of a proleptic Gregorian date, lowercase English ("thursday" for 2026-11-26).
    static std::string weekdayOf(int year, int month, int day);
    static int daysInMonth(int year, int month);
    static const std::vector<std::string>& monthNames(); // "january" .. "december"
};

} // namespace attnlab
