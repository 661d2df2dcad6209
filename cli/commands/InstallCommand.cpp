#include "cli/commands/InstallCommand.h"

#include "cli/CliFlags.h"
#include "core/platform/InterruptGuard.h"
#include "core/data/install/DatasetInstaller.h"
#include "core/platform/Terminal.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <ostream>

namespace attnlab {
namespace {

// On a terminal one line redraws (at most every 0.1 s, and when a file is done); in a log only the
// files placed or found are listed.
TransferProgressCallback progressPrinter(std::ostream& err, bool tty)
{
    auto lastDraw = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    return [&err, tty, lastDraw](const TransferProgress& p) mutable {
        const bool fileDone = p.stage == "placed" || p.stage == "present";
        if (!tty) {
            if (fileDone)
                err << "[" << p.fileIndex + 1 << "/" << p.fileCount << "] " << p.file
                    << (p.stage == "present" ? " already present" : " verified and placed") << "\n";
            return;
        }
        const auto now = std::chrono::steady_clock::now();
        if (!fileDone && now - lastDraw < std::chrono::milliseconds(100))
            return;
        lastDraw = now;
        const int percent = p.total > 0 ? static_cast<int>(100 * p.done / p.total) : 0;
        err << "\r[" << std::setw(3) << std::min(percent, 100) << "%] " << p.fileIndex + 1 << "/" << p.fileCount << " "
            << p.file << " " << p.fileDone / 1024 << " KiB\033[K" << std::flush;
    };
}

} // namespace

int InstallCommand::run(const std::vector<std::string>& args)
{
    // "fetch DATASET [options]" and "import DATASET PATH [options]".
    const bool importing = args[0] == "import";
    std::vector<std::string> positional, rest = {args[0]};
    for (std::size_t i = 1; i < args.size(); ++i) {
        if (rest.size() == 1 && args[i].rfind("--", 0) != 0) positional.push_back(args[i]);
        else rest.push_back(args[i]);
    }
    const std::size_t wanted = importing ? 2 : 1;
    if (positional.size() != wanted)
        throw CliUsageError(importing ? "import needs a dataset id and a folder or archive: import DATASET PATH"
                                      : "fetch needs one dataset id: fetch DATASET");
    const CliFlags flags(rest,
                         importing ? std::set<std::string>{"--data-dir"} : std::set<std::string>{"--data-dir", "--url-base"},
                         {"--json"});
    const DatasetManifest* manifest = DatasetManifest::find(positional[0]);
    if (!manifest)
        throw CliUsageError("no manifest for dataset '" + positional[0] + "' (known: " + DatasetManifest::idList() + ")");
    if (manifest->files.empty()) {
        out_ << manifest->id << " is generated in-process or read from your own files; there is nothing to "
             << (importing ? "import" : "fetch") << "\n";
        return 0;
    }

    const bool tty = Terminal::isTerminal(Terminal::Stream::Error);
    CancelToken cancel;
    DatasetInstaller::Options options;
    options.dataDir = flags.text("--data-dir", "");
    options.urlBase = flags.text("--url-base", "");
    options.progress = progressPrinter(err_, tty);
    options.cancel = &cancel;
    InstallReport report;
    try {
        const InterruptGuard interrupt(cancel);
        report = importing ? DatasetInstaller::importFrom(*manifest, positional[1], options)
                           : DatasetInstaller::fetch(*manifest, options);
    } catch (const TransferCancelled& e) {
        err_ << (tty ? "\n" : "") << "attnlab-cli: " << e.what() << "\n";
        return 130;
    } catch (...) {
        if (tty) err_ << "\n"; // end the progress line before the error is printed
        throw;
    }
    if (tty) err_ << "\n";
    printReport(*manifest, report, importing, flags.has("--json"));
    return 0;
}

void InstallCommand::printReport(const DatasetManifest& manifest, const InstallReport& report, bool importing, bool json)
{
    if (json) {
        out_ << nlohmann::json{{"dataset", manifest.id}, {"data_dir", report.dataDir}, {"placed", report.placed},
                               {"already_present", report.alreadyPresent}, {"bytes_placed", report.bytesPlaced}}.dump()
             << "\n";
        return;
    }
    out_ << manifest.id << ": " << report.placed.size() << " files " << (importing ? "imported" : "downloaded") << " ("
         << report.bytesPlaced << " bytes), " << report.alreadyPresent.size()
         << " already present, all sha256-checked, in " << report.dataDir << "\n";
}

} // namespace attnlab
