#pragma once
// Engine structs carried by signals (queued across threads and recorded by QSignalSpy).
#include "core/AttentionSnapshot.h"
#include "core/MetricPoint.h"
#include "core/RunSummary.h"
#include "core/TrainConfig.h"

#include <QMetaType>
#include <QVector>

Q_DECLARE_METATYPE(attnlab::MetricPoint)
Q_DECLARE_METATYPE(attnlab::AttentionSnapshot)
Q_DECLARE_METATYPE(attnlab::RunSummary)
Q_DECLARE_METATYPE(attnlab::TrainConfig)
