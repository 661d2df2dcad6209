#pragma once
// A run's status as the word the store and the CLI use ("completed", "cancelled"), for QCOMPARE's messages.
#include "core/results/RunStatus.h"

#include <QString>

inline QString statusText(attnlab::RunStatus status) { return QString::fromStdString(attnlab::toString(status)); }
