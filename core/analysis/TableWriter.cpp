#include "core/analysis/TableWriter.h"

#include <stdexcept>

namespace attnlab {
namespace {


bool numericColumn(const TableDocument& t, std::size_t column)
{
    return column < t.numeric.size() && t.numeric[column];
}

std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char c : text)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

std::string markdownText(const std::string& text)
{
    std::string out;
    for (char c : text) {
        if (c == '|' || c == '\\' || c == '*' || c == '_')
            out += '\\';
        out += (c == '\n' || c == '\r') ? ' ' : c;
    }
    return out;
}

std::string replaceAll(std::string text, const std::string& from, const std::string& to)
{
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

} // namespace

TableWriter::Format TableWriter::parseFormat(const std::string& name)
{
    if (name == "csv") return Format::Csv;
    if (name == "markdown" || name == "md") return Format::Markdown;
    if (name == "latex" || name == "tex") return Format::Latex;
    throw std::invalid_argument("unknown table format '" + name + "' (csv, markdown or latex)");
}

std::string TableWriter::write(const TableDocument& table, Format format)
{
    switch (format) {
    case Format::Csv: return csv(table);
    case Format::Markdown: return markdown(table);
    case Format::Latex: return latex(table);
    }
    return {};
}

std::string TableWriter::csv(const TableDocument& t)
{
    std::string out;
    auto line = [&](const std::vector<std::string>& fields) {
        for (std::size_t i = 0; i < fields.size(); ++i)
            out += (i ? "," : "") + csvField(fields[i]);
        out += "\r\n";
    };
    line(t.header);
    for (const auto& row : t.rows) {
        std::vector<std::string> fields;
        for (const auto& cell : row)
            fields.push_back(cell.text);
        line(fields);
    }
    return out;
}

std::string TableWriter::markdown(const TableDocument& t)
{
    std::string out;
    if (!t.caption.empty())
        out += markdownText(t.caption) + "\n\n";
    out += "|";
    for (const auto& h : t.header)
        out += " " + markdownText(h) + " |";
    out += "\n|";
    for (std::size_t c = 0; c < t.header.size(); ++c)
        out += numericColumn(t, c) ? " ---: |" : " --- |";
    out += "\n";
    for (const auto& row : t.rows) {
        out += "|";
        for (std::size_t c = 0; c < t.header.size(); ++c) {
            const TableDocument::Cell cell = c < row.size() ? row[c] : TableDocument::Cell{};
            const std::string text = markdownText(cell.text);
            out += " " + (cell.bold && !text.empty() ? "**" + text + "**" : text) + " |";
        }
        out += "\n";
    }
    return out;
}

std::string TableWriter::escapeLatex(const std::string& text)
{
    std::string out;
    for (char c : text) {
        switch (c) {
        case '\\': out += "\\textbackslash{}"; break;
        case '&': case '%': case '$': case '#': case '_': case '{': case '}':
            out += '\\';
            out += c;
            break;
        case '~': out += "\\textasciitilde{}"; break;
        case '^': out += "\\textasciicircum{}"; break;
        default: out += c;
        }
    }
    return replaceAll(out, TableDocument::kPlusMinus, "$\\pm$");
}

std::string TableWriter::latex(const TableDocument& t)
{
    std::string columns;
    for (std::size_t c = 0; c < t.header.size(); ++c)
        columns += numericColumn(t, c) ? 'r' : 'l';
    std::string out = "% needs \\usepackage{booktabs}\n\\begin{table}[ht]\n\\centering\n";
    if (!t.caption.empty())
        out += "\\caption{" + escapeLatex(t.caption) + "}\n";
    out += "\\begin{tabular}{" + columns + "}\n\\toprule\n";
    for (std::size_t c = 0; c < t.header.size(); ++c)
        out += (c ? " & " : "") + escapeLatex(t.header[c]);
    out += " \\\\\n\\midrule\n";
    for (const auto& row : t.rows) {
        for (std::size_t c = 0; c < t.header.size(); ++c) {
            const TableDocument::Cell cell = c < row.size() ? row[c] : TableDocument::Cell{};
            const std::string text = escapeLatex(cell.text);
            out += (c ? " & " : "") + (cell.bold && !text.empty() ? "\\textbf{" + text + "}" : text);
        }
        out += " \\\\\n";
    }
    out += "\\bottomrule\n\\end{tabular}\n\\end{table}\n";
    return out;
}

} // namespace attnlab
