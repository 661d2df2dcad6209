#pragma once
#include "core/config/TrainConfig.h"

#include <QString>

#include <functional>
#include <string>
#include <vector>

class QWidget;

namespace attnlab {
struct ModelSpec;
enum class TaskKind;
}

namespace attnlab::ui {

// One setting of the designer's form, written once: the configuration keys it sets (a refused configuration
// names the first, and the form answers with the label), its row, whether the row is advanced, the registry
// option it belongs to, and how it writes and reads a TrainConfig. A row with an option shows only for the
// models whose registry entry lists that option, so a new model's options reach the form by its entry alone.
struct FormSetting {
    std::vector<std::string> keys;
    QString label;
    QWidget* field = nullptr;
    bool advanced = false;
    const char* option = nullptr; // a ModelSpec::options name; nullptr: the row belongs to every model
    // A further condition for the row to show (the optimiser is SGD, the data is not a time series, ...);
    // task is the chosen dataset's. Empty: none.
    std::function<bool(const ModelSpec* model, TaskKind task)> shown;
    std::function<void(TrainConfig& config, const ModelSpec* model)> write;
    std::function<void(const TrainConfig& config)> read;
};

} // namespace attnlab::ui
