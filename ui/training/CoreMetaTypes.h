#pragma once
// Engine structs carried by signals (queued across threads and recorded by QSignalSpy).
#include "core/config/TrainConfig.h"
#include "core/results/AttentionSnapshot.h"
#include "core/results/MetricPoint.h"
#include "core/results/RunSummary.h"

#include <QMetaType>
#include <QVector>

Q_DECLARE_METATYPE(attnlab::MetricPoint)
Q_DECLARE_METATYPE(attnlab::AttentionSnapshot)
Q_DECLARE_METATYPE(attnlab::RunSummary)
Q_DECLARE_METATYPE(attnlab::TrainConfig)
