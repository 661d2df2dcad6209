#include "core/data/readers/CsvSeriesReader.h"

#include "core/data/CsvTable.h"
#include "core/data/DataError.h"
#include "core/data/SeriesWindowBuilder.h"

#include <algorithm>

namespace attnlab {

SeriesDataset CsvSeriesReader::read(const DatasetOptions& o)
{
    if (o.file.empty())
        throw DataError("csv-series", 0, "setting file: give a CSV/TSV file of numeric series");
    const CsvTable table = CsvTable::read(o.file, {o.delimiter, o.header});
    if (o.targetColumn.empty())
        throw DataError(o.file, 0, "setting target column: name the column to predict");
    const int target = table.columnIndex(o.targetColumn, "target column");
    std::vector<int> drivers;
    if (!o.driverColumns.empty()) {
        for (const auto& c : o.driverColumns) drivers.push_back(table.columnIndex(c, "driver columns"));
    } else {
        for (std::size_t c = 0; c < table.columns.size(); ++c)
            if (static_cast<int>(c) != target && !table.rows.empty() && CsvTable::isNumber(table.rows[0][c]))
                drivers.push_back(static_cast<int>(c));
    }
    SeriesWindowBuilder::Input in;
    in.id = "csv-series";
    in.name = "Series from " + o.file;
    in.source = o.file;
    in.window = o.window;
    in.scaleTop = o.scaleTop;
    in.targetName = table.columns[static_cast<std::size_t>(target)];
    for (int c : drivers) in.driverNames.push_back(table.columns[static_cast<std::size_t>(c)]);
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        auto number = [&](int c) {
            double v = 0;
            if (!CsvTable::isNumber(table.rows[r][static_cast<std::size_t>(c)], &v))
                throw DataError(o.file, table.lines[r], "column '" + table.columns[static_cast<std::size_t>(c)] + "' value '" +
                                                            table.rows[r][static_cast<std::size_t>(c)] + "' is not a number");
            return v;
        };
        in.target.push_back(number(target));
        std::vector<double> row;
        for (int c : drivers) row.push_back(number(c));
        in.drivers.push_back(std::move(row));
    }
    const int rows = static_cast<int>(in.target.size());
    if (!(o.trainFraction > 0 && o.devFraction > 0 && o.trainFraction + o.devFraction < 1))
        throw DataError(o.file, 0, "setting split fractions: train and dev must be positive and leave room for test");
    in.trainRows = static_cast<int>(rows * o.trainFraction);
    in.devRows = std::max(1, static_cast<int>(rows * o.devFraction));
    return SeriesWindowBuilder::build(in);
}

} // namespace attnlab
