// Facts of the process: which BLAS LibTorch got (Debian's reference BLAS is ~13x slower, DESIGN.md trap 3).
#include "core/platform/BlasLibrary.h"

#include <QtTest/QtTest>

using namespace attnlab;

class PlatformTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
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
    // the alternatives system then points libblas.so.3 at it.
    void thisProcessGotOpenBlas()
    {
        const std::string path = BlasLibrary::loadedPath();
        QVERIFY2(!path.empty(), "no BLAS mapped into a LibTorch process");
        QVERIFY2(BlasLibrary::classify(path) == BlasLibrary::Kind::OpenBlas, path.c_str());
        QVERIFY(BlasLibrary::slowWarning().empty());
    }
};

QTEST_APPLESS_MAIN(PlatformTest)
#include "test_platform.moc"
