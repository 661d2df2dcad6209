#pragma once
#include "ui/setup/FormSection.h"

namespace attnlab::ui {

// The designer's Compute group: the device (auto, the CPU, each CUDA device by name and memory; without one a
// disabled "cuda" that says why), threads, and the CUDA-only precision and reproducibility switches.
class ComputeSection : public FormSection {
    Q_OBJECT
public:
    explicit ComputeSection(QWidget* parent = nullptr);
};

} // namespace attnlab::ui
