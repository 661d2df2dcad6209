#pragma once
#include <string>
#include <vector>

namespace attnlab {

// A table as the analyst exports it: a caption, a header, rows of cells (bold marks the best of a column,
// as the thesis' tables do), and which columns hold numbers (right-aligned). What TableWriter writes.
struct TableDocument {
    struct Cell {
        std::string text;
        bool bold = false;
    };
    std::string caption;
    std::vector<std::string> header;
    std::vector<std::vector<Cell>> rows;
    std::vector<bool> numeric; // per column; missing = text
    // "±" in UTF-8, as a cell's "mean ± std" carries it; the LaTeX writer turns it into $\pm$.
    static inline const std::string kPlusMinus = "\xC2\xB1";
};

} // namespace attnlab
