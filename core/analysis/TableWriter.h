#pragma once
#include "core/analysis/TableDocument.h"

#include <string>

namespace attnlab {

// A TableDocument as CSV (RFC 4180: comma, CRLF, fields quoted when needed; no bold), GitHub Markdown
// (pipes escaped, bold as **x**, right-aligned numeric columns) or LaTeX with booktabs (\toprule,
// \midrule, \bottomrule; special characters escaped; bold as \textbf{x}; ± as $\pm$).
// Written by hand: three small, fully specified formats; Debian has no library for the last two.
class TableWriter {
public:
    enum class Format { Csv, Markdown, Latex };
    static Format parseFormat(const std::string& name); // csv | markdown | md | latex | tex; else invalid_argument
    static std::string write(const TableDocument& table, Format format);
    static std::string csv(const TableDocument& table);
    static std::string markdown(const TableDocument& table);
    static std::string latex(const TableDocument& table);
    static std::string escapeLatex(const std::string& text);
};

} // namespace attnlab
