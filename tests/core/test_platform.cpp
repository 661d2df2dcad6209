// Facts of the process: which BLAS LibTorch got (Debian's reference BLAS is ~13x slower: docs/ARCHITECTURE.md,
// Build, trap 3), the devices and what the build is, and the malloc settings that keep a training step's large buffers in the process.
#include "core/config/DeviceSetting.h"
#include "core/platform/AllocatorTuning.h"
#include "core/platform/AtomicFile.h"
#include "core/platform/BlasLibrary.h"
#include "core/platform/CancelToken.h"
#include "core/platform/ChildProcess.h"
#include "core/platform/DiskSpace.h"
#include "core/platform/FileInfo.h"
#include "core/platform/InterruptGuard.h"
#include "core/platform/MappedFile.h"
#include "core/platform/OpenBlasCore.h"
#include "core/platform/ProcessInfo.h"
#include "core/platform/Terminal.h"
#include "core/platform/UserFolders.h"
#include "core/platform/UtcTime.h"
#include "core/training/ComputeDevice.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

// POSIX here on purpose (tools/check-posix-includes.py exempts tests/): the platform classes are checked
// against the raw calls they wrap.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <optional>

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

// An environment variable set (or unset: nullopt) for one scope, as it was afterwards.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const std::optional<std::string>& value) : name_(name)
    {
        if (const char* old = std::getenv(name))
            old_ = old;
        if (value)
            setenv(name, value->c_str(), 1);
        else
            unsetenv(name);
    }
    ~ScopedEnv()
    {
        if (old_)
            setenv(name_, old_->c_str(), 1);
        else
            unsetenv(name_);
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* name_;
    std::optional<std::string> old_;
};

// One of our standard streams pointed at another descriptor for one scope.
class ScopedRedirect {
public:
    ScopedRedirect(int stream, int to) : stream_(stream), saved_(dup(stream)) { dup2(to, stream); }
    ~ScopedRedirect()
    {
        dup2(saved_, stream_);
        close(saved_);
    }
    ScopedRedirect(const ScopedRedirect&) = delete;
    ScopedRedirect& operator=(const ScopedRedirect&) = delete;

private:
    int stream_, saved_;
};

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

    // One atomic write for every file the lab replaces: whole or not at all, its folder created,
    // no temporary file left whatever happens, errors naming the target.
    // A real file mapped and its bytes read in place; the errors name the path and the step.
    void mappedFileReadsTheFile()
    {
        QTemporaryDir dir;
        const QByteArray bytes("safetensors\0\x01\xff tail", 19);
        const QString path = dir.filePath("weights.bin");
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QCOMPARE(f.write(bytes), qint64(bytes.size()));
        }
        {
            const MappedFile mapped(path.toStdString());
            QCOMPARE(mapped.size(), std::size_t(19));
            QVERIFY(mapped.data() != nullptr);
            QCOMPARE(QByteArray(reinterpret_cast<const char*>(mapped.data()), 19), bytes);
        }
        const QString empty = dir.filePath("empty");
        QVERIFY(QFile(empty).open(QIODevice::WriteOnly));
        const MappedFile none(empty.toStdString());
        QCOMPARE(none.size(), std::size_t(0));
        QVERIFY(none.data() == nullptr);

        const std::string missing = dir.filePath("missing.safetensors").toStdString();
        try {
            MappedFile m(missing);
            QFAIL("a missing file was mapped");
        } catch (const MappedFile::Failure& e) {
            QCOMPARE(QString(e.what()), QString::fromStdString(missing + ": cannot open: No such file or directory"));
            QCOMPARE(QString::fromStdString(e.step()), QString("cannot open"));
            QCOMPARE(QString::fromStdString(e.reason()), QString("No such file or directory"));
        }
        try {
            MappedFile m(dir.path().toStdString());
            QFAIL("a folder was mapped");
        } catch (const MappedFile::Failure& e) {
            QCOMPARE(QString(e.what()), dir.path() + ": not a regular file");
            QVERIFY(e.reason().empty());
        }
    }

    // What stat says, through FileInfo: kind, size, modification time to the nanosecond, and the reason.
    void fileInfoSaysWhatStatSays()
    {
        QTemporaryDir dir;
        const std::string file = dir.filePath("a.txt").toStdString();
        AtomicFile::replace(file, "12345");
        const FileInfo info = FileInfo::of(file);
        struct stat st {};
        QCOMPARE(::stat(file.c_str(), &st), 0);
        QVERIFY(info.exists() && info.isRegular() && !info.isDirectory());
        QCOMPARE(info.size(), std::int64_t(5));
        QCOMPARE(info.modifiedSeconds(), std::int64_t(st.st_mtim.tv_sec));
        QCOMPARE(info.modifiedNanoseconds(), std::int64_t(st.st_mtim.tv_nsec));
        QVERIFY(info.error().empty());
        const FileInfo folder = FileInfo::of(dir.path().toStdString());
        QVERIFY(folder.exists() && folder.isDirectory() && !folder.isRegular());
        const FileInfo missing = FileInfo::of(file + ".gone");
        QVERIFY(!missing.exists() && !missing.isRegular());
        QCOMPARE(QString::fromStdString(missing.error()), QString("No such file or directory"));

        QVERIFY(!FileInfo::folderRefusesWrites(dir.path().toStdString()));
        if (geteuid() != 0) { // root writes anywhere the file system allows
            const QString locked = dir.filePath("locked");
            QVERIFY(QDir(dir.path()).mkdir("locked"));
            QCOMPARE(::chmod(locked.toUtf8().constData(), 0555), 0);
            QVERIFY(FileInfo::folderRefusesWrites(locked.toStdString()));
            ::chmod(locked.toUtf8().constData(), 0755);
        }
    }

    // A pipe is not a terminal; the pseudo-terminal a shell gets is.
    void terminalTellsAPipeFromATerminal()
    {
        int fds[2];
        QCOMPARE(pipe(fds), 0);
        {
            const ScopedRedirect in(STDIN_FILENO, fds[0]);
            const ScopedRedirect err(STDERR_FILENO, fds[1]);
            QVERIFY(!Terminal::isTerminal(Terminal::Stream::Input));
            QVERIFY(!Terminal::isTerminal(Terminal::Stream::Error));
        }
        close(fds[0]);
        close(fds[1]);
        const int master = posix_openpt(O_RDWR | O_NOCTTY);
        if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0)
            QSKIP("no pseudo-terminals here (/dev/pts)");
        const int slave = ::open(ptsname(master), O_RDWR | O_NOCTTY);
        QVERIFY(slave >= 0);
        {
            const ScopedRedirect out(STDOUT_FILENO, slave);
            QVERIFY(Terminal::isTerminal(Terminal::Stream::Output));
        }
        close(slave);
        close(master);
    }

    // Our own process is alive; a child that has ended and been reaped is not.
    void processFactsAreTheKernels()
    {
        QCOMPARE(ProcessInfo::currentId(), static_cast<int>(getpid()));
        QVERIFY(ProcessInfo::isAlive(ProcessInfo::currentId()));
        QVERIFY(ProcessInfo::isAlive(1)); // init: EPERM for a user, still alive
        QVERIFY(!ProcessInfo::isAlive(0));
        QVERIFY(!ProcessInfo::isAlive(-1));
        const pid_t child = fork();
        if (child == 0)
            _exit(0);
        QVERIFY(child > 0);
        QVERIFY(ProcessInfo::isAlive(child)); // ended but not reaped: a zombie still holds its id
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY(!ProcessInfo::isAlive(child));

        const double before = ProcessInfo::cpuSeconds();
        volatile double sink = 0;
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
        while (std::chrono::steady_clock::now() < until)
            sink = sink + 1.0;
        QVERIFY2(ProcessInfo::cpuSeconds() - before > 0.01, "50 ms of busy work counted no CPU time");
    }

    // XDG_DATA_HOME / XDG_CACHE_HOME first, an empty one counting as unset; then ~/.local/share and ~/.cache.
    // Two processes spinning: at least two runnable threads elsewhere, whatever else the machine runs; our own
    // threads never count.
    void runnableElsewhereCountsOtherProcesses()
    {
        const int before = ProcessInfo::runnableElsewhere();
        QVERIFY(before >= 0);
        QProcess spinners[2];
        for (auto& p : spinners) {
            p.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("while :; do :; done")});
            QVERIFY(p.waitForStarted());
        }
        QTest::qWait(200);
        const int busy = ProcessInfo::runnableElsewhere();
        for (auto& p : spinners) {
            p.kill();
            p.waitForFinished();
        }
        QVERIFY2(busy >= 2, qPrintable(QString::number(busy)));
    }

    void userFoldersFollowXdg()
    {
        const ScopedEnv home("HOME", std::string("/home/ada"));
        {
            const ScopedEnv data("XDG_DATA_HOME", std::string("/srv/data"));
            const ScopedEnv cache("XDG_CACHE_HOME", std::string("/srv/cache"));
            QCOMPARE(QString::fromStdString(UserFolders::data()), QString("/srv/data"));
            QCOMPARE(QString::fromStdString(UserFolders::cache()), QString("/srv/cache"));
        }
        {
            const ScopedEnv data("XDG_DATA_HOME", std::string(""));
            const ScopedEnv cache("XDG_CACHE_HOME", std::nullopt);
            QCOMPARE(QString::fromStdString(UserFolders::data()), QString("/home/ada/.local/share"));
            QCOMPARE(QString::fromStdString(UserFolders::cache()), QString("/home/ada/.cache"));
            const ScopedEnv noHome("HOME", std::nullopt);
            QCOMPARE(QString::fromStdString(UserFolders::data()), QString());
            QCOMPARE(QString::fromStdString(UserFolders::cache()), QString());
        }
    }

    void utcTimeIsWrittenInUtc()
    {
        {
            const ScopedEnv zone("TZ", std::string("EST5EDT")); // local time must not leak in
            tzset();
            QCOMPARE(QString::fromStdString(UtcTime::format(0, "%Y-%m-%dT%H:%M:%SZ")), QString("1970-01-01T00:00:00Z"));
            QCOMPARE(QString::fromStdString(UtcTime::format(1700000000, "%Y%m%dT%H%M%SZ")), QString("20231114T221320Z"));
        }
        tzset();
    }

    // Blocks really allocated (not a sparse file); the soft file-size limit read back as set.
    void diskSpaceAllocatesAndReadsTheLimit()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("db-reserve").toStdString();
        QVERIFY(DiskSpace::allocate(path, 128 * 1024));
        struct stat st {};
        QCOMPARE(::stat(path.c_str(), &st), 0);
        QCOMPARE(std::int64_t(st.st_size), std::int64_t(128 * 1024));
        QVERIFY2(std::int64_t(st.st_blocks) * 512 >= 128 * 1024, "the file is sparse");
        QCOMPARE(static_cast<int>(st.st_mode & 0777), 0600);
        const std::string nowhere = dir.filePath("no/such/folder/x").toStdString();
        QVERIFY(!DiskSpace::allocate(nowhere, 4096));

        rlimit saved{};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &saved), 0);
        rlimit lowered = saved;
        lowered.rlim_cur = 1 << 20;
        if (saved.rlim_max != RLIM_INFINITY && saved.rlim_max < lowered.rlim_cur)
            QSKIP("the hard file-size limit is below 1 MiB");
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &lowered), 0);
        const auto limit = DiskSpace::fileSizeLimit();
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &saved), 0);
        QVERIFY(limit.has_value());
        QCOMPARE(*limit, std::uint64_t(1 << 20));
        if (saved.rlim_cur == RLIM_INFINITY)
            QVERIFY(!DiskSpace::fileSizeLimit().has_value());
    }

    // A child's stdout captured with its exit or its signal; a wait for output ends when the child writes;
    // interrupt() is a Ctrl-C.
    void childProcessesCaptureWaitAndInterrupt()
    {
        const auto ran = ChildProcess::captureOut({"sh", "-c", "echo out; exit 3"});
        QCOMPARE(QString::fromStdString(ran.out), QString("out\n"));
        QCOMPARE(ran.exitCode, 3);
        QCOMPARE(ran.signal, 0);
        const auto killed = ChildProcess::captureOut({"sh", "-c", "kill -TERM $$"});
        QCOMPARE(killed.signal, SIGTERM);
        QCOMPARE(killed.exitCode, 128 + SIGTERM);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, ChildProcess::captureOut({"/nonexistent/attnlab-nothing"}));

        ChildProcess writer({"sh", "-c", "sleep 0.3; echo line >&2; sleep 5"}, "");
        const auto started = std::chrono::steady_clock::now();
        std::vector<std::string> lines;
        while (lines.empty() && std::chrono::steady_clock::now() - started < std::chrono::seconds(4)) {
            ChildProcess::waitForOutput({&writer}, 4000);
            lines = writer.readErrLines();
        }
        QCOMPARE(lines, std::vector<std::string>{"line"});
        QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(3)); // woken, not timed out

        ChildProcess sleeper({"sleep", "30"}, "");
        sleeper.interrupt();
        QCOMPARE(sleeper.wait(), 128 + SIGINT);
    }

    // SIGINT and SIGTERM cancel the guard's token while it lives; the handlers before it come back after.
    void interruptGuardCancelsAndRestores()
    {
        const auto before = std::signal(SIGINT, SIG_IGN);
        CancelToken token;
        {
            const InterruptGuard guard(token);
            QVERIFY(!token.isCancelled());
            std::raise(SIGTERM);
            QVERIFY(token.isCancelled());
            token.reset();
            std::raise(SIGINT);
            QVERIFY(token.isCancelled());
        }
        QVERIFY(std::signal(SIGINT, before) == SIG_IGN); // the ignoring handler was restored
    }

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
