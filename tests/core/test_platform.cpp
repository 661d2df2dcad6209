// Facts of the process: which BLAS LibTorch got (Debian's reference BLAS is ~13x slower: docs/ARCHITECTURE.md,
// Build, trap 3), the devices and what the build is, and the malloc settings that keep a training step's large buffers in the process.
#include "core/config/DeviceSetting.h"
#include "core/platform/AllocatorTuning.h"
#include "core/platform/AtomicFile.h"
#include "core/platform/BlasLibrary.h"
#include "core/platform/OpenBlasCore.h"
#include "core/training/ComputeDevice.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <sys/stat.h>

#include <sys/resource.h>

#include <cstdlib>
#include <cstring>
#include <condition_variable>
#include <mutex>
#include <thread>

extern char** environ;

namespace {

long minorFaults()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

// What a training step does to memory: a large buffer allocated, written, freed, five times over.
long faultsOfFiveLargeBuffers(std::size_t bytes)
{
    const long before = minorFaults();
    for (int i = 0; i < 5; ++i) {
        char* volatile buffer = static_cast<char*>(std::malloc(bytes));
        std::memset(buffer, i + 1, bytes);
        if (buffer[bytes - 1] != i + 1) // read back, so the writes and the allocation stay
            return -1;
        std::free(buffer);
    }
    return minorFaults() - before;
}

// Every entry of a folder, hidden ones included (AtomicFile's temporary files start with a dot).
QStringList everything(const QString& folder)
{
    return QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
}

QByteArray contentOf(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

} // namespace

using namespace attnlab;

class PlatformTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Devices: the setting's shape, then what this machine has. Without a usable GPU (every CI machine) a
    // CUDA device is refused naming why; the build says what it is in one phrase (--version).
    void devicesAreCheckedAndNamed()
    {
        QCOMPARE(DeviceSetting::problem("auto"), std::string());
        QCOMPARE(DeviceSetting::problem("cuda:12"), std::string());
        QCOMPARE(DeviceSetting::problem("cuda:"), std::string("device: 'cuda:' is not a CUDA device (write cuda:0, cuda:1, ...)"));
        QCOMPARE(DeviceSetting::problem("cuda:x"), std::string("device: 'cuda:x' is not a CUDA device (write cuda:0, cuda:1, ...)"));
        QCOMPARE(DeviceSetting::problem("gpu"), std::string("device: unknown 'gpu' (known: auto, cpu, cuda, cuda:N)"));
        QCOMPARE(ComputeDevice::resolve("cpu"), std::string("cpu"));
        QCOMPARE(ComputeDevice::cudaIndex("cuda:3"), 3);
        QCOMPARE(ComputeDevice::cudaIndex("cpu"), -1);
        const std::string build = ComputeDevice::buildDescription();
        QVERIFY2(QString::fromStdString(build).startsWith(QString::fromStdString("LibTorch " + ComputeDevice::torchVersion() + ", ")),
                 build.c_str());
#if defined(ATTNLAB_TORCH_CUDA)
        QVERIFY(ComputeDevice::cudaBuilt());
        QVERIFY2(build.find("MKL + oneDNN") != std::string::npos, build.c_str());
        QVERIFY2(build.find("CUDA 13.0 built, ") != std::string::npos, build.c_str());
        QCOMPARE(ComputeDevice::cudaVersion(), std::string("13.0"));
        QVERIFY2(!ComputeDevice::cudnnVersion().empty(), "the wheel links cuDNN");
#else
        QVERIFY(!ComputeDevice::cudaBuilt());
        QVERIFY2(build.find("CPU only") != std::string::npos, build.c_str());
#endif
        if (ComputeDevice::cudaAvailable()) {
            QCOMPARE(ComputeDevice::resolve("auto"), std::string("cuda:0"));
            QCOMPARE(ComputeDevice::resolve("cuda"), std::string("cuda:0"));
            QCOMPARE(int(ComputeDevice::gpus().size()), ComputeDevice::cudaDeviceCount());
            return;
        }
        QVERIFY(build.find("no device") != std::string::npos || build.find("CPU only") != std::string::npos);
        QCOMPARE(ComputeDevice::resolve("auto"), std::string("cpu"));
        QVERIFY(ComputeDevice::gpus().empty());
        QVERIFY(!ComputeDevice::memoryInUse("cuda:0"));
        try {
            ComputeDevice::resolve("cuda:1");
            QFAIL("cuda:1 resolved on a machine without a GPU");
        } catch (const std::invalid_argument& e) {
            const QString message = e.what();
            QVERIFY2(message.startsWith("device: cuda:1 was requested but "), e.what());
            QVERIFY2(message.contains(ComputeDevice::cudaBuilt() ? "no CUDA device is usable here" : "built without CUDA"), e.what());
        }
        const auto facts = ComputeDevice::environment("cpu");
        QCOMPARE(facts.at("torch_build"), build);
        QVERIFY(!facts.count("gpu_name"));
    }

    // Two trainings in one process (the window's compare mode) each keep their own thread count: a thread
    // that set 1 must not train with the 2 another thread set afterwards. LibTorch's lazy per-thread
    // init re-applied the last count set anywhere at a thread's first parallel op (or first
    // get_num_threads); ComputeDevice::setThreads runs that init first.
    void threadCountsArePerTrainingThread()
    {
        std::mutex mutex;
        std::condition_variable changed;
        int phase = 0; // 1: A set its count; 2: B set its count
        int seenByA = 0, seenByB = 0;
        std::thread a([&] {
            ComputeDevice::setThreads(1);
            {
                std::unique_lock lock(mutex);
                phase = 1;
                changed.notify_all();
                changed.wait(lock, [&] { return phase == 2; });
            }
            seenByA = ComputeDevice::threads();
        });
        std::thread b([&] {
            {
                std::unique_lock lock(mutex);
                changed.wait(lock, [&] { return phase == 1; });
            }
            ComputeDevice::setThreads(2);
            seenByB = ComputeDevice::threads();
            std::lock_guard lock(mutex);
            phase = 2;
            changed.notify_all();
        });
        a.join();
        b.join();
        QCOMPARE(seenByA, 1);
        QCOMPARE(seenByB, 2);
    }

    void blasIsClassifiedByDebiansLayout()
    {
        QVERIFY(BlasLibrary::classify("/usr/lib/x86_64-linux-gnu/blas/libblas.so.3.11.0") == BlasLibrary::Kind::Reference);
        QVERIFY(BlasLibrary::classify("/usr/lib/x86_64-linux-gnu/openblas-openmp/libblas.so.3") ==
                BlasLibrary::Kind::OpenBlas);
        QVERIFY(BlasLibrary::classify("/usr/lib/x86_64-linux-gnu/blis-openmp/libblas.so.3") == BlasLibrary::Kind::Blis);
        QVERIFY(BlasLibrary::classify("/opt/other/libblas.so.3") == BlasLibrary::Kind::Unknown);
        QVERIFY(BlasLibrary::classify("") == BlasLibrary::Kind::Unknown);
    }

    // This test program links LibTorch, so its BLAS is mapped; setup.sh installs libopenblas0-openmp, and
    // the alternatives system then points libblas.so.3 at it. The pypi flavour's MKL is linked into
    // libtorch_cpu.so itself: no BLAS library is mapped, and none can be the slow one.
    void thisProcessGotOpenBlas()
    {
        if (ComputeDevice::buildDescription().find(", MKL") != std::string::npos) {
            QVERIFY(BlasLibrary::slowWarning().empty());
            QSKIP("this LibTorch carries MKL inside (the pypi flavour)");
        }
        const std::string path = BlasLibrary::loadedPath();
        QVERIFY2(!path.empty(), "no BLAS mapped into a LibTorch process");
        QVERIFY2(BlasLibrary::classify(path) == BlasLibrary::Kind::OpenBlas, path.c_str());
        QVERIFY(BlasLibrary::slowWarning().empty());
    }

    // 64 MiB is above glibc's mmap threshold: by default each allocation is mapped afresh and every page
    // faulted in again (5 x 16,384 faults); tuned, the memory of the first is reused by the next four.
    void tunedMallocReusesLargeBuffers()
    {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
        QSKIP("a sanitizer's allocator replaces glibc malloc here");
#endif
        for (char** e = environ; e && *e; ++e)
            if (std::strncmp(*e, "MALLOC_", 7) == 0 || std::strncmp(*e, "GLIBC_TUNABLES=", 15) == 0)
                QSKIP("malloc is tuned by this test's environment");
        constexpr std::size_t bytes = 64u << 20;
        const long pages = static_cast<long>(bytes / 4096);
        QCOMPARE(AllocatorTuning::state(), std::string("glibc defaults"));
        const long untuned = faultsOfFiveLargeBuffers(bytes);
        QVERIFY2(untuned >= 4 * pages, qPrintable(QString("%1 faults by default").arg(untuned)));

        QCOMPARE(AllocatorTuning::applyForTraining(), std::string("glibc, mmap threshold 1 GiB, trim threshold 256 MiB"));
        faultsOfFiveLargeBuffers(bytes); // the heap grows to hold one buffer
        const long tuned = faultsOfFiveLargeBuffers(bytes);
        QVERIFY2(tuned < pages / 4, qPrintable(QString("%1 faults tuned, %2 by default").arg(tuned).arg(untuned)));

        qputenv("ATTNLAB_MALLOC", "default");
        QCOMPARE(AllocatorTuning::applyForTraining(), std::string("glibc defaults (ATTNLAB_MALLOC=default)"));
        qunsetenv("ATTNLAB_MALLOC");
    }

    // OpenBLAS picks its kernels by the CPU's model number and falls back to Prescott's (SSE3) on a CPU it does not
    // know; the engine chooses again by the CPU's features as it loads (OpenBlasCore, from ComputeDevice.cpp, which
    // this test links): on a CPU with AVX2 and FMA the process never runs the fallback, and the build says which.
    void openBlasRunsTheCpusKernels()
    {
        if (attnlab::BlasLibrary::classify(attnlab::BlasLibrary::loadedPath()) != attnlab::BlasLibrary::Kind::OpenBlas)
            QSKIP("this process's BLAS is not OpenBLAS (the pypi flavour has MKL)");
        const std::string kernels = attnlab::OpenBlasCore::current();
        QVERIFY(!kernels.empty());
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
            QVERIFY2(kernels != "Prescott", kernels.c_str());
        QVERIFY2(attnlab::ComputeDevice::buildDescription().find(kernels + " kernels") != std::string::npos,
                 attnlab::ComputeDevice::buildDescription().c_str());
        QVERIFY(attnlab::OpenBlasCore::useTheCpusKernels().empty()); // once chosen, nothing more to do
    }

    // One atomic write for every file the lab replaces (issue 38): whole or not at all, its folder created,
    // no temporary file left whatever happens, errors naming the target.
    void atomicFileIsWholeOrNothing()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath("a/b");
        const std::string target = (folder + "/table.csv").toStdString();
        attnlab::AtomicFile::replace(target, "first\n");
        QCOMPARE(everything(folder), QStringList{"table.csv"});
        QCOMPARE(contentOf(QString::fromStdString(target)), QByteArray("first\n"));
        struct stat st{};
        QCOMPARE(::stat(target.c_str(), &st), 0);
        QCOMPARE(static_cast<int>(st.st_mode & 0777), 0644);

        attnlab::AtomicFile::replace(target, "second, longer\n");
        QCOMPARE(contentOf(QString::fromStdString(target)), QByteArray("second, longer\n"));

        { // given up before commit: the old file stands, the temporary file is gone
            attnlab::AtomicFile abandoned(target);
            abandoned.write("half");
            QCOMPARE(everything(folder).size(), 2);
        }
        QCOMPARE(everything(folder), QStringList{"table.csv"});
        QCOMPARE(contentOf(QString::fromStdString(target)), QByteArray("second, longer\n"));

        // A writer that takes a path and fails half-way (as a full disk makes LibTorch's archive throw).
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, attnlab::AtomicFile::writeThrough(target, [](const std::string& path) {
            QFile f(QString::fromStdString(path));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("partial");
            f.close();
            throw std::runtime_error("disk full");
        }));
        QCOMPARE(everything(folder), QStringList{"table.csv"});
        QCOMPARE(contentOf(QString::fromStdString(target)), QByteArray("second, longer\n"));
        attnlab::AtomicFile::writeThrough(target, [](const std::string& path) {
            QFile f(QString::fromStdString(path));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("through a path");
        });
        QCOMPARE(contentOf(QString::fromStdString(target)), QByteArray("through a path"));

        // The rename refused (a folder has the target's name): the error names the target, nothing is left.
        const std::string occupied = (folder + "/occupied").toStdString();
        QVERIFY(QDir(folder).mkdir("occupied"));
        QVERIFY(QFile::copy(QString::fromStdString(target), folder + "/occupied/inside"));
        try {
            attnlab::AtomicFile::replace(occupied, "x");
            QFAIL("a rename over a non-empty folder succeeded");
        } catch (const std::system_error& e) {
            QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(occupied) + ": cannot move"), e.what());
        }
        QCOMPARE(everything(folder), (QStringList{"occupied", "table.csv"}));

        // The folder cannot be created (a file stands where it would be).
        const std::string underFile = (folder + "/table.csv/sub/x.json").toStdString();
        try {
            attnlab::AtomicFile::replace(underFile, "x");
            QFAIL("a file was written under a file");
        } catch (const std::system_error& e) {
            QVERIFY2(QString(e.what()).contains("cannot create the folder"), e.what());
            QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(underFile)), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(PlatformTest)
#include "test_platform.moc"
