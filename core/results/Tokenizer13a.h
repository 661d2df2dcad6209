#pragma once
#include <string>
#include <vector>

namespace attnlab {

// sacreBLEU 2.x's default BLEU tokenizer "13a" (sacrebleu/tokenizers/tokenizer_13a.py over tokenizer_re.py),
// the tokenization of WMT's mteval-v13a.pl, rule for rule:
//   1. drop "<skipped>", join "-\n" (a word hyphenated across lines), other "\n" become spaces;
//   2. when the line has '&': &quot; -> ", &amp; -> &, &lt; -> <, &gt; -> > (in that order, one after another);
//   3. pad " line " and apply, each over the whole line, left to right without overlapping matches:
//        ([{-~[-` -&(-+:-@/])  -> " \1 "   ASCII punctuation except ' , - . alone
//        ([^0-9])([.,])        -> "\1 \2 " period and comma not after a digit
//        ([.,])([^0-9])        -> " \1 \2" period and comma not before a digit
//        ([0-9])(-)            -> "\1 \2 " a dash after a digit
//   4. split on white space and join with single spaces.
// Text is UTF-8, read as Unicode code points as Python reads a str ("[^0-9]" is one code point, "é" included).
//
// The static helpers are the few Python str operations sacreBLEU's metrics rely on; BleuScore and ChrfScore
// use them too, so that "white space", "lower case" and "a character" mean what they mean in Python 3.
class Tokenizer13a {
public:
    std::string operator()(const std::string& line) const { return tokenize(line); }
    static std::string tokenize(const std::string& line);
    static std::string signature() { return "13a"; }

    // UTF-8 -> code points. Valid text is untouched; each byte of a malformed sequence becomes U+FFFD (a model's
    // output is valid UTF-8, so this only keeps a broken file from throwing half-way through a corpus).
    static std::u32string decodeUtf8(const std::string& text);
    static std::string encodeUtf8(const std::u32string& text);
    // str.isspace() for one code point (Python 3: bidirectional class WS, B or S, or category Zs).
    static bool isPythonSpace(char32_t c);
    // str.split() with no argument: runs of white space separate, none at either end.
    static std::vector<std::u32string> splitWhitespace(const std::u32string& text);
    // str.rstrip() with no argument.
    static std::u32string rstrip(const std::u32string& text);
    // str.lower(): Unicode's full lower-case mapping, final sigma included ("ΟΔΟΣ" -> "οδος" ending in ς,
    // "İ" -> "i̇"), through ICU's root locale as CPython does it with its own tables.
    static std::u32string lower(const std::u32string& text);
};

} // namespace attnlab
