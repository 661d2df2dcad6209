// A time-series run's stored forecast (the store's analysis "forecast"), as Compare and `runs forecast` read it
// back: SeriesForecast::fromJson, then what is written again reads back the same.
#include "core/results/SeriesForecast.h"
#include "fuzz/support/CleanFailure.h"

#include <cstdint>
#include <string>

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    fuzz::CleanFailure::expect([&] {
        const auto forecast = SeriesForecast::fromJson(text);
        // Written at 7 significant digits: from then on a round trip changes nothing.
        const std::string once = forecast.toJson();
        const std::string twice = SeriesForecast::fromJson(once).toJson();
        if (SeriesForecast::fromJson(twice).toJson() != twice)
            __builtin_trap();
    });
    return 0;
}
