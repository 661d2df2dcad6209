#include "core/data/readers/Sml2010Reader.h"

#include "core/data/DataError.h"
#include "core/data/DataLocator.h"
#include "core/data/MissingValues.h"
#include "core/data/SeriesWindowBuilder.h"
#include "core/data/TextFile.h"

#include <sstream>

namespace attnlab {

const std::vector<int>& Sml2010Reader::driverColumns()
{
    // Left out: 1-2 date and time; 3 the target; 4 the other room's temperature (the dataset's second
    // target, a near-copy of the first at the same step); 19-21 the enthalpy sensors, zero on every row;
    // 24 the day of the week (categorical).
    static const std::vector<int> columns = {5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 22, 23};
    return columns;
}

SeriesDataset Sml2010Reader::read(const std::string& folder, const DatasetOptions& options)
{
    const MissingValues::Policy policy = MissingValues::fromName(options.missing);
    SeriesWindowBuilder::Input in;
    in.id = "sml2010";
    in.name = "SML2010 indoor temperature";
    in.source = folder;
    in.window = options.window;
    in.horizon = options.horizon;
    in.trainRows = 3200;
    in.devRows = 400;
    in.scaleTop = options.scaleTop;
    std::vector<std::string> header;
    auto nameOf = [&](int column) {
        return column - 1 < static_cast<int>(header.size()) ? header[static_cast<std::size_t>(column - 1)] : std::to_string(column);
    };
    std::vector<int> used = {kTargetColumn};
    used.insert(used.end(), driverColumns().begin(), driverColumns().end());
    std::vector<std::vector<double>> columns(used.size()); // the target, then the drivers; NaN = missing
    std::vector<int> lines;
    for (const char* name : {"NEW-DATA-1.T15.txt", "NEW-DATA-2.T15.txt"}) {
        const std::string path = DataLocator::join(folder, name);
        const auto fileLines = TextFile::readLines(path);
        for (std::size_t i = 0; i < fileLines.size(); ++i) {
            std::istringstream fields(fileLines[i]);
            std::vector<std::string> f;
            for (std::string x; fields >> x;) f.push_back(x);
            if (f.empty())
                continue;
            if (f[0] == "#") { // "#  1:Date 2:Time 3:Temperature_Comedor_Sensor ..."
                header.assign(f.begin() + 1, f.end());
                continue;
            }
            const int line = static_cast<int>(i + 1);
            if (f.size() != 24)
                throw DataError(path, line, std::to_string(f.size()) + " fields, expected 24");
            for (std::size_t c = 0; c < used.size(); ++c)
                columns[c].push_back(MissingValues::cellValue(f[static_cast<std::size_t>(used[c] - 1)], policy, path, line, nameOf(used[c])));
            lines.push_back(line);
        }
    }
    std::vector<std::string> names;
    for (int c : used) names.push_back(nameOf(c));
    const auto report = MissingValues::apply(policy, columns, lines, names, folder);
    in.targetName = names[0];
    in.driverNames.assign(names.begin() + 1, names.end());
    in.target = columns[0];
    in.drivers.assign(lines.size(), std::vector<double>(used.size() - 1));
    for (std::size_t r = 0; r < lines.size(); ++r)
        for (std::size_t c = 1; c < used.size(); ++c) in.drivers[r][c - 1] = columns[c][r];
    SeriesDataset d = SeriesWindowBuilder::build(in);
    d.missingPolicy = MissingValues::name(policy);
    d.missingCells = report.cells;
    d.missingRows = report.rows;
    if (auto note = MissingValues::note(policy, report, folder); !note.empty())
        d.notes.push_back(note);
    return d;
}

} // namespace attnlab
