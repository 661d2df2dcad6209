#pragma once
// Shared by the tests that read ../shared/datasets through ATTNLAB_DATA_DIR.
#include <QtCore/QDir>
#include <QtTest/QtTest>

inline QString realDataDir()
{
    const QString dir = qEnvironmentVariable("ATTNLAB_DATA_DIR");
    return !dir.isEmpty() && QDir(dir + "/sentiment").exists() ? dir : QString();
}

// Real data missing: a failure in CI (a silent pass would hide it), a skip on a developer's machine.
#define REQUIRE_REAL_DATA(dir)                                                                               \
    const QString dir = realDataDir();                                                                       \
    if (dir.isEmpty()) {                                                                                     \
        if (qEnvironmentVariable("CI") == "true")                                                            \
            QFAIL("ATTNLAB_DATA_DIR does not point at the shared datasets, and CI=true");                    \
        QSKIP("no real data (set ATTNLAB_DATA_DIR or -DATTNLAB_SHARED_DATASETS)");                          \
    }
