#pragma once
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace attnlab {

// A JSON number read into a C++ integer. nlohmann's get<int>() casts a float or a wider integer without a
// range check, so {"steps": 1e92} is undefined behaviour and 2.5 silently becomes 2 (found by fuzz_config).
// Every reader of outside or stored JSON takes integers through here. Header-only: a template per type.
class JsonInteger {
public:
    // The value when it is a whole number (1e4 counts) inside Integer's range; nullopt otherwise.
    template <typename Integer>
    static std::optional<Integer> of(const nlohmann::json& value)
    {
        using Limits = std::numeric_limits<Integer>;
        if (value.is_number_unsigned()) {
            const auto v = value.get<std::uint64_t>();
            if (v > static_cast<std::uint64_t>(Limits::max()))
                return std::nullopt;
            return static_cast<Integer>(v);
        }
        if (value.is_number_integer()) {
            const auto v = value.get<std::int64_t>();
            if (v < 0 && !Limits::is_signed)
                return std::nullopt;
            if (Limits::is_signed && (v < static_cast<std::int64_t>(Limits::min()) || v > static_cast<std::int64_t>(Limits::max())))
                return std::nullopt;
            return static_cast<Integer>(v);
        }
        if (value.is_number_float()) {
            const double v = value.get<double>();
            // Compared as doubles before any cast: 2^digits is exact, and max() itself may not be.
            if (!std::isfinite(v) || v != std::floor(v) || v < static_cast<double>(Limits::min())
                || v >= std::ldexp(1.0, Limits::digits))
                return std::nullopt;
            return static_cast<Integer>(v);
        }
        return std::nullopt;
    }

    // object[key] as above; fallback when the key is missing or its value is not such a number.
    template <typename Integer>
    static Integer valueOr(const nlohmann::json& object, const char* key, Integer fallback)
    {
        if (!object.is_object() || !object.contains(key))
            return fallback;
        return of<Integer>(object.at(key)).value_or(fallback);
    }

    // value.get_to(field), except that integers (also inside lists) are taken only as of() takes them;
    // anything else is a std::invalid_argument that shows the value.
    template <typename T>
    static void getTo(const nlohmann::json& value, T& field)
    {
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
            const auto v = of<T>(value);
            if (!v)
                throw std::invalid_argument("expected a whole number in range, got " + value.dump());
            field = *v;
        } else if constexpr (isVector<T>::value) {
            if (!value.is_array())
                throw std::invalid_argument("expected a list, got " + value.dump());
            T items(value.size());
            for (std::size_t i = 0; i < value.size(); ++i)
                getTo(value[i], items[i]);
            field = std::move(items);
        } else {
            value.get_to(field);
        }
    }

    // Whether the value is a number with a fractional part or not finite (for an error that says which).
    static bool isFractional(const nlohmann::json& value)
    {
        if (!value.is_number_float())
            return false;
        const double v = value.get<double>();
        return !std::isfinite(v) || v != std::floor(v);
    }

private:
    template <typename T> struct isVector : std::false_type {};
    template <typename U, typename A> struct isVector<std::vector<U, A>> : std::true_type {};
};

} // namespace attnlab
