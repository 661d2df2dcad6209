#pragma once

namespace attnlab {

// Sent after every training batch.
struct ProgressEvent {
    int step = 0;
    int totalSteps = 0;
    double loss = 0.0;
    double elapsedSeconds = 0.0;
};

} // namespace attnlab
