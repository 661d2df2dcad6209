#include "core/data/readers/Sml2010Reader.h"

#include "core/data/CsvTable.h"
#include "core/data/DataError.h"
#include "core/data/DataLocator.h"
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
    SeriesWindowBuilder::Input in;
    in.id = "sml2010";
    in.name = "SML2010 indoor temperature";
    in.source = folder;
    in.window = options.window;
    in.trainRows = 3200;
    in.devRows = 400;
    in.scaleTop = options.scaleTop;
    std::vector<std::string> header;
    for (const char* name : {"NEW-DATA-1.T15.txt", "NEW-DATA-2.T15.txt"}) {
        const std::string path = DataLocator::join(folder, name);
        const auto lines = TextFile::readLines(path);
        for (std::size_t i = 0; i < lines.size(); ++i) {
            std::istringstream fields(lines[i]);
            std::vector<std::string> f;
            for (std::string x; fields >> x;) f.push_back(x);
            if (f.empty())
                continue;
            if (f[0] == "#") { // "#  1:Date 2:Time 3:Temperature_Comedor_Sensor ..."
                header.assign(f.begin() + 1, f.end());
                continue;
            }
            if (f.size() != 24)
                throw DataError(path, static_cast<int>(i + 1), std::to_string(f.size()) + " fields, expected 24");
            auto number = [&](int column) {
                double v = 0;
                if (!CsvTable::isNumber(f[static_cast<std::size_t>(column - 1)], &v))
                    throw DataError(path, static_cast<int>(i + 1), "column " + std::to_string(column) + " value '" +
                                                                       f[static_cast<std::size_t>(column - 1)] + "' is not a number");
                return v;
            };
            in.target.push_back(number(kTargetColumn));
            std::vector<double> row;
            for (int c : driverColumns()) row.push_back(number(c));
            in.drivers.push_back(std::move(row));
        }
    }
    auto nameOf = [&](int column) {
        return column - 1 < static_cast<int>(header.size()) ? header[static_cast<std::size_t>(column - 1)] : std::to_string(column);
    };
    in.targetName = nameOf(kTargetColumn);
    for (int c : driverColumns()) in.driverNames.push_back(nameOf(c));
    return SeriesWindowBuilder::build(in);
}

} // namespace attnlab
