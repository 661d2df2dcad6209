#include "core/data/install/DatasetInstaller.h"

#include "core/data/DataLocator.h"
#include "core/data/install/Sha256.h"
#include "core/platform/AtomicFile.h"
#include "core/platform/BuildInfo.h"
#include "core/platform/FileInfo.h"
#include "core/platform/UserFolders.h"

#include <archive.h>
#include <archive_entry.h>
#include <curl/curl.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <system_error>

namespace attnlab {
namespace {

namespace fs = std::filesystem;

std::string errnoText() { return std::strerror(errno); }

std::string archiveError(archive* a)
{
    const char* why = archive_error_string(a);
    return why ? why : "unknown error";
}

// The target written whole or not at all (AtomicFile), hashed as it is written; commit() moves it into place
// only when its sha256 is the manifest's.
class PartFile {
public:
    explicit PartFile(const std::string& target) : file_(target) {}

    // false with errno set when the disk refuses the bytes
    bool write(const void* data, std::size_t size)
    {
        sha_.update(data, size);
        written_ += static_cast<std::int64_t>(size);
        try {
            file_.write(data, size);
        } catch (const std::system_error& e) {
            errno = e.code().value();
            return false;
        }
        return true;
    }
    std::int64_t written() const { return written_; }
    const std::string& path() const { return file_.temporaryPath(); }
    const std::string& digest()
    {
        if (digest_.empty())
            digest_ = sha_.hexDigest();
        return digest_;
    }

    // Checks the sha256 against the manifest, then renames into place. `origin` names where the bytes came
    // from (a URL, an archive entry) for the message.
    void commit(const ManifestFile& file, const std::string& target, const std::string& origin)
    {
        if (digest() != file.sha256) {
            std::string sizes = std::to_string(written_) + " bytes";
            if (file.bytes >= 0)
                sizes += ", the manifest says " + std::to_string(file.bytes);
            throw std::runtime_error(origin + ": sha256 mismatch for " + file.path + ": got " + digest() + " (" + sizes +
                                     "), expected " + file.sha256 + "; " + target + " was not written");
        }
        file_.commit();
    }

private:
    AtomicFile file_;
    Sha256 sha_;
    std::int64_t written_ = 0;
    std::string digest_;
};

bool cancelled(const DatasetInstaller::Options& o) { return o.cancel && o.cancel->isCancelled(); }

void report(const DatasetInstaller::Options& o, const TransferProgress& p)
{
    if (o.progress)
        o.progress(p);
}

// Already there with the manifest's size and sha256.
bool alreadyGood(const std::string& target, const ManifestFile& file)
{
    const FileInfo info = FileInfo::of(target);
    if (!info.isRegular())
        return false;
    if (file.bytes >= 0 && info.size() != file.bytes)
        return false;
    try {
        return Sha256::ofFile(target) == file.sha256;
    } catch (const std::exception&) {
        return false;
    }
}

std::string joinUrl(std::string base, const std::string& path)
{
    while (!base.empty() && base.back() == '/')
        base.pop_back();
    return base + "/" + path;
}

// ---- libcurl ----

void curlGlobalInit()
{
    static std::once_flag once;
    static CURLcode result = CURLE_OK;
    std::call_once(once, [] { result = curl_global_init(CURL_GLOBAL_DEFAULT); });
    if (result != CURLE_OK)
        throw std::runtime_error(std::string("libcurl could not start: ") + curl_easy_strerror(result));
}

struct Download {
    PartFile* part = nullptr;
    const DatasetInstaller::Options* options = nullptr;
    TransferProgress* progress = nullptr;
    std::int64_t doneBefore = 0;
    bool cancelled = false;
    int writeErrno = 0;
    std::exception_ptr callbackError;
};

// Every chunk that arrives is written, hashed and reported; cancel is checked before each one.
std::size_t onData(char* data, std::size_t size, std::size_t count, void* user)
{
    auto* d = static_cast<Download*>(user);
    if (cancelled(*d->options)) {
        d->cancelled = true;
        return 0; // makes curl stop with CURLE_WRITE_ERROR
    }
    if (!d->part->write(data, size * count)) {
        d->writeErrno = errno;
        return 0;
    }
    TransferProgress& p = *d->progress;
    p.fileDone = d->part->written();
    p.done = d->doneBefore + p.fileDone;
    try {
        report(*d->options, p);
    } catch (...) {
        d->callbackError = std::current_exception();
        return 0;
    }
    return size * count;
}

// Called about once a second even while nothing arrives: a cancel takes effect on a stalled connection too.
int onTransferInfo(void* user, curl_off_t total, curl_off_t, curl_off_t, curl_off_t)
{
    auto* d = static_cast<Download*>(user);
    if (cancelled(*d->options)) {
        d->cancelled = true;
        return 1; // CURLE_ABORTED_BY_CALLBACK
    }
    if (d->progress->fileTotal < 0 && total > 0)
        d->progress->fileTotal = total;
    return 0;
}

void download(const std::string& url, const ManifestFile& file, const std::string& target,
              const DatasetInstaller::Options& options, TransferProgress& progress)
{
    std::unique_ptr<CURL, void (*)(CURL*)> curl(curl_easy_init(), curl_easy_cleanup);
    if (!curl)
        throw std::runtime_error("download of " + url + ": libcurl could not create a transfer");
    PartFile part(target);
    Download d;
    d.part = &part;
    d.options = &options;
    d.progress = &progress;
    d.doneBefore = progress.done;
    char errorBuffer[CURL_ERROR_SIZE] = {0};
    const std::string userAgent = "attnlab/" + BuildInfo::appVersion();
    CURL* c = curl.get();
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, onData);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &d);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, onTransferInfo);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, &d);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(c, CURLOPT_FAILONERROR, 1L); // HTTP >= 400 is an error, not a file
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, 10L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, options.connectTimeoutSeconds);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, options.stallTimeoutSeconds);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errorBuffer);
    curl_easy_setopt(c, CURLOPT_USERAGENT, userAgent.c_str());
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https,file");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else
    curl_easy_setopt(c, CURLOPT_PROTOCOLS, CURLPROTO_HTTP | CURLPROTO_HTTPS | CURLPROTO_FILE);
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS, CURLPROTO_HTTP | CURLPROTO_HTTPS);
#endif
    const CURLcode rc = curl_easy_perform(c);

    if (d.callbackError)
        std::rethrow_exception(d.callbackError);
    if (d.cancelled)
        throw TransferCancelled("download of " + url + " cancelled; " + target + " was not written");
    if (rc == CURLE_HTTP_RETURNED_ERROR) {
        long status = 0;
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
        std::string what = "HTTP " + std::to_string(status);
        if (status == 404) what += " (not found on the server)";
        else if (status == 403) what += " (forbidden)";
        throw std::runtime_error("download of " + url + " failed: " + what + "; " + target + " was not written");
    }
    if (d.writeErrno != 0)
        throw std::runtime_error("download of " + url + ": cannot write " + part.path() + ": " +
                                 std::strerror(d.writeErrno));
    if (rc != CURLE_OK)
        throw std::runtime_error("download of " + url + " failed: " +
                                 (errorBuffer[0] ? std::string(errorBuffer) : std::string(curl_easy_strerror(rc))) + "; " +
                                 target + " was not written");
    part.commit(file, target, "download of " + url);
}

// ---- import ----

std::string normalise(std::string p)
{
    std::replace(p.begin(), p.end(), '\\', '/');
    for (;;) {
        if (p.compare(0, 2, "./") == 0) p.erase(0, 2);
        else if (!p.empty() && p[0] == '/') p.erase(0, 1);
        else break;
    }
    return p;
}

// An entry of a folder or archive stands for a manifest file when its path is the file's data-folder
// path, its path within the dataset's folder, or ends with "/" + that (a repository or archive root above).
bool matches(const std::string& entry, const DatasetManifest& m, const ManifestFile& f)
{
    const std::string rel = m.relativePath(f);
    if (entry == f.path || entry == rel)
        return true;
    return entry.size() > rel.size() && entry.compare(entry.size() - rel.size(), rel.size(), rel) == 0 &&
           entry[entry.size() - rel.size() - 1] == '/';
}

class Importer {
public:
    Importer(const DatasetManifest& m, const std::string& source, const DatasetInstaller::Options& o, InstallReport& r)
        : m_(m), source_(source), o_(o), r_(r)
    {
        p_.fileCount = static_cast<int>(m.files.size());
        p_.total = m.totalBytes();
    }

    void run()
    {
        // Files already in place are left alone.
        for (std::size_t i = 0; i < m_.files.size(); ++i) {
            if (alreadyGood(target(i), m_.files[i])) {
                done_[i] = true;
                r_.alreadyPresent.push_back(m_.files[i].path);
                p_.done += std::max<std::int64_t>(m_.files[i].bytes, 0);
                startFile(i, "present");
            }
        }
        const FileInfo source = FileInfo::of(source_);
        if (!source.exists())
            throw std::runtime_error(source_ + ": cannot import from it: " + source.error());
        if (source.isDirectory())
            fromFolder();
        else if (!fromArchive())
            fromPlainFile();
        finish();
    }

private:
    std::string target(std::size_t i) const { return DataLocator::join(r_.dataDir, m_.files[i].path); }

    void startFile(std::size_t i, const char* stage)
    {
        p_.file = m_.files[i].path;
        p_.fileIndex = static_cast<int>(i);
        p_.fileTotal = m_.files[i].bytes;
        p_.fileDone = std::string(stage) == "present" ? std::max<std::int64_t>(m_.files[i].bytes, 0) : 0;
        p_.stage = stage;
        report(o_, p_);
    }

    void checkCancel(const std::string& what)
    {
        if (cancelled(o_))
            throw TransferCancelled("import of " + what + " cancelled; the partial file was removed");
    }

    // Reads chunks from `read` into a part file next to target(i), then verifies and places it.
    template <typename Reader>
    bool place(std::size_t i, const std::string& origin, Reader read)
    {
        startFile(i, "importing");
        PartFile part(target(i));
        std::vector<char> buffer(1 << 18);
        const std::int64_t before = p_.done;
        for (;;) {
            checkCancel(origin);
            const long n = read(buffer.data(), buffer.size());
            if (n == 0) break;
            if (!part.write(buffer.data(), static_cast<std::size_t>(n)))
                throw std::runtime_error("import of " + origin + ": cannot write " + part.path() + ": " + errnoText());
            p_.fileDone = part.written();
            p_.done = before + part.written();
            report(o_, p_);
        }
        try {
            part.commit(m_.files[i], target(i), "import of " + origin);
        } catch (const std::runtime_error& e) {
            p_.done = before;
            problems_[i] = e.what();
            return false;
        }
        done_[i] = true;
        problems_.erase(i);
        r_.placed.push_back(m_.files[i].path);
        r_.bytesPlaced += part.written();
        p_.stage = "placed";
        report(o_, p_);
        return true;
    }

    void fromFolder()
    {
        std::vector<std::string> entries;
        std::error_code ec;
        for (auto it = fs::recursive_directory_iterator(source_, fs::directory_options::skip_permission_denied, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            if (it->is_regular_file(ec))
                entries.push_back(fs::relative(it->path(), source_, ec).generic_string());
        }
        if (ec)
            throw std::runtime_error(source_ + ": cannot list the folder: " + ec.message());
        std::sort(entries.begin(), entries.end());
        for (std::size_t i = 0; i < m_.files.size(); ++i) {
            if (done_.count(i)) continue;
            for (const auto& entry : entries) {
                if (!matches(entry, m_, m_.files[i])) continue;
                const std::string path = (fs::path(source_) / entry).string();
                // Several entries may match ("train/neg.txt" of two datasets in a repository): the right one
                // is the one with the manifest's checksum.
                std::string digest;
                try {
                    digest = Sha256::ofFile(path);
                } catch (const std::exception& e) {
                    problems_[i] = e.what();
                    continue;
                }
                if (digest != m_.files[i].sha256) {
                    problems_[i] = "import of " + path + ": sha256 mismatch for " + m_.files[i].path + ": got " + digest +
                                   ", expected " + m_.files[i].sha256 + "; not placed";
                    continue;
                }
                std::ifstream in(path, std::ios::binary);
                if (!in)
                    throw std::runtime_error(path + ": cannot open it to import: " + errnoText());
                if (place(i, path, [&](char* data, std::size_t size) -> long {
                        in.read(data, static_cast<std::streamsize>(size));
                        if (in.bad()) throw std::runtime_error(path + ": read error while importing");
                        return static_cast<long>(in.gcount());
                    }))
                    break;
            }
        }
    }

    // false when `source_` is not an archive libarchive recognises.
    bool fromArchive()
    {
        std::unique_ptr<archive, int (*)(archive*)> a(archive_read_new(), archive_read_free);
        archive_read_support_filter_all(a.get());
        archive_read_support_format_all(a.get());
        // libarchive's "Unrecognized archive format" (its ARCHIVE_ERRNO_FILE_FORMAT is EILSEQ on Linux),
        // reported when opening or at the first header: not an archive, maybe one of the files itself.
        auto notAnArchive = [&] {
            return archive_errno(a.get()) == EILSEQ || archiveError(a.get()).find("Unrecognized archive") != std::string::npos;
        };
        if (archive_read_open_filename(a.get(), source_.c_str(), 1 << 16) != ARCHIVE_OK) {
            if (notAnArchive()) return false;
            throw std::runtime_error(source_ + ": cannot open it: " + archiveError(a.get()));
        }
        archive_entry* entry = nullptr;
        bool first = true;
        for (;;) {
            const int r = archive_read_next_header(a.get(), &entry);
            if (r == ARCHIVE_EOF) return !first; // no entries at all: some text formats bid on any text file
            if (r == ARCHIVE_FATAL && first && notAnArchive())
                return false;
            if (r < ARCHIVE_WARN) {
                throw std::runtime_error(source_ + ": cannot read the archive: " + archiveError(a.get()));
            }
            first = false;
            if (archive_entry_filetype(entry) != AE_IFREG) continue;
            const std::string name = normalise(archive_entry_pathname(entry));
            std::size_t index = m_.files.size();
            for (std::size_t i = 0; i < m_.files.size() && index == m_.files.size(); ++i)
                if (!done_.count(i) && matches(name, m_, m_.files[i])) index = i;
            if (index == m_.files.size()) continue; // libarchive skips the data on the next header
            const std::string origin = source_ + ":" + name;
            place(index, origin, [&](char* data, std::size_t size) -> long {
                const la_ssize_t n = archive_read_data(a.get(), data, size);
                if (n < 0)
                    throw std::runtime_error("import of " + origin + ": cannot read the archive: " +
                                             archiveError(a.get()));
                return static_cast<long>(n);
            });
        }
        return true;
    }

    void fromPlainFile()
    {
        const std::string name = fs::path(source_).filename().string();
        bool any = false;
        for (std::size_t i = 0; i < m_.files.size(); ++i) {
            if (done_.count(i) || !matches(name, m_, m_.files[i])) continue;
            any = true;
            std::ifstream in(source_, std::ios::binary);
            if (!in)
                throw std::runtime_error(source_ + ": cannot open it to import: " + errnoText());
            if (place(i, source_, [&](char* data, std::size_t size) -> long {
                    in.read(data, static_cast<std::streamsize>(size));
                    if (in.bad()) throw std::runtime_error(source_ + ": read error while importing");
                    return static_cast<long>(in.gcount());
                }))
                break;
        }
        if (!any && done_.size() < m_.files.size())
            throw std::runtime_error(source_ + ": neither a folder, an archive, nor one of the files of " + m_.id +
                                     " (expected names such as " + m_.relativePath(m_.files.front()) + ")");
    }

    void finish()
    {
        std::string missing;
        int count = 0;
        for (std::size_t i = 0; i < m_.files.size(); ++i) {
            if (done_.count(i)) continue;
            ++count;
            auto it = problems_.find(i);
            missing += "\n  " + (it != problems_.end() ? it->second : m_.relativePath(m_.files[i]) + ": not found in " + source_);
        }
        if (count > 0)
            throw std::runtime_error("import of " + m_.id + " from " + source_ + ": " + std::to_string(count) + " of " +
                                     std::to_string(m_.files.size()) + " files missing or wrong (" +
                                     std::to_string(r_.placed.size()) + " verified files placed in " + r_.dataDir +
                                     "):" + missing);
    }

    const DatasetManifest& m_;
    std::string source_;
    const DatasetInstaller::Options& o_;
    InstallReport& r_;
    TransferProgress p_;
    std::map<std::size_t, bool> done_;
    std::map<std::size_t, std::string> problems_;
};

} // namespace

std::string DatasetInstaller::targetDir(const std::string& explicitDir)
{
    return DataLocator::searchPath(explicitDir).front();
}

bool DatasetInstaller::isPresent(const DatasetManifest& manifest, const std::string& dataDir)
{
    for (const auto& f : manifest.files) {
        const FileInfo info = FileInfo::of(DataLocator::join(dataDir, f.path));
        if (!info.isRegular())
            return false;
        if (f.bytes >= 0 && info.size() != f.bytes)
            return false;
    }
    return true;
}

InstallReport DatasetInstaller::fetch(const DatasetManifest& manifest, const Options& options)
{
    InstallReport result;
    result.dataDir = targetDir(options.dataDir);
    const bool fileUrls =
        std::all_of(manifest.files.begin(), manifest.files.end(), [](const ManifestFile& f) { return !f.url.empty(); });
    if (!manifest.files.empty() && !manifest.archive.path.empty() && (!fileUrls || !options.urlBase.empty())) {
        // The files come inside a pinned archive: fetched once into the cache (its sha256 checked as a file's is),
        // then imported from it as File > Datasets... > Import would.
        const std::string dir = options.archiveDir.empty() ? DataLocator::join(UserFolders::cache(), "attnlab/archives")
                                                           : options.archiveDir;
        std::error_code made;
        std::filesystem::create_directories(dir, made); // a failure shows as the download's own error, naming it
        const std::string archive = DataLocator::join(dir, manifest.archive.path);
        if (!alreadyGood(archive, manifest.archive)) {
            curlGlobalInit();
            TransferProgress p;
            p.fileCount = 1;
            p.total = p.fileTotal = manifest.archive.bytes;
            p.file = manifest.archive.path;
            p.stage = "downloading";
            report(options, p);
            const std::string url =
                options.urlBase.empty() ? manifest.archive.url : joinUrl(options.urlBase, manifest.archive.path);
            download(url, manifest.archive, archive, options, p);
        }
        return importFrom(manifest, archive, options);
    }
    // Every URL is known before the first byte moves.
    std::vector<std::string> urls;
    for (const auto& f : manifest.files) {
        std::string url = options.urlBase.empty() ? f.url : joinUrl(options.urlBase, f.path);
        if (url.empty())
            throw std::runtime_error(manifest.id + ": " + f.path +
                                     " has no upstream URL to download it from; import it from a folder or archive "
                                     "(attnlab-cli import " + manifest.id + " PATH)");
        urls.push_back(std::move(url));
    }
    if (!manifest.files.empty())
        curlGlobalInit();
    TransferProgress p;
    p.fileCount = static_cast<int>(manifest.files.size());
    p.total = manifest.totalBytes();
    for (std::size_t i = 0; i < manifest.files.size(); ++i) {
        const ManifestFile& f = manifest.files[i];
        const std::string target = DataLocator::join(result.dataDir, f.path);
        p.file = f.path;
        p.fileIndex = static_cast<int>(i);
        p.fileTotal = f.bytes;
        p.fileDone = 0;
        if (alreadyGood(target, f)) {
            result.alreadyPresent.push_back(f.path);
            p.done += std::max<std::int64_t>(f.bytes, 0);
            p.fileDone = std::max<std::int64_t>(f.bytes, 0);
            p.stage = "present";
            report(options, p);
            continue;
        }
        if (cancelled(options))
            throw TransferCancelled("download of " + urls[i] + " cancelled; " + target + " was not written");
        p.stage = "downloading";
        report(options, p);
        const std::int64_t before = p.done;
        download(urls[i], f, target, options, p);
        const std::int64_t bytes = p.fileDone;
        p.done = before + std::max<std::int64_t>(f.bytes >= 0 ? f.bytes : bytes, 0);
        p.stage = "placed";
        report(options, p);
        result.placed.push_back(f.path);
        result.bytesPlaced += std::max<std::int64_t>(f.bytes, bytes);
    }
    return result;
}

InstallReport DatasetInstaller::importFrom(const DatasetManifest& manifest, const std::string& source,
                                           const Options& options)
{
    InstallReport result;
    result.dataDir = targetDir(options.dataDir);
    if (manifest.files.empty())
        return result;
    Importer(manifest, source, options, result).run();
    return result;
}

} // namespace attnlab
