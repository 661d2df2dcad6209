#include "core/store/RunExport.h"
#include "core/platform/AtomicFile.h"
#include "core/platform/JsonInteger.h"

#include "core/store/RunStore.h"
#include "core/store/StoredJson.h"
#include "core/platform/ProcessInfo.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>


#include <atomic>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace attnlab {
namespace {

using nlohmann::json;

constexpr const char* kFormat = "attnlab-runs"; // what an exported document says it is
constexpr int kFormatVersion = 1;

// Stored JSON texts go into the document as JSON, not as strings within strings; "" becomes null.
json embedded(const std::string& text)
{
    if (text.empty())
        return nullptr;
    return StoredJson::parseOr(text, text); // not JSON after all: kept as it was
}

std::string unembedded(const json& value)
{
    if (value.is_null())
        return "";
    if (value.is_string())
        return value.get<std::string>();
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

json runToJson(const RunBundle& b)
{
    const RunRecord& r = b.record;
    json metrics = json::array();
    for (const auto& p : b.metrics)
        metrics.push_back({p.step, p.split, p.name, p.value});
    json attention = json::array();
    for (const auto& text : b.attentionJson)
        attention.push_back(embedded(text));
    json analyses = json::array();
    for (const auto& a : b.analyses)
        analyses.push_back({{"kind", a.kind}, {"key", a.key}, {"result", embedded(a.json)}, {"created_at", a.createdAt}});
    json characteristics = json::array();
    for (const auto& c : b.characteristics)
        characteristics.push_back({{"name", c.name}, {"value", c.value}, {"unit", c.unit}});
    json checkpoints = json::array();
    for (const auto& c : b.checkpoints)
        checkpoints.push_back({{"step", c.step}, {"path", c.path}, {"sha256", c.sha256}});
    return {
        {"id", r.id}, // the id in the exporting store; import gives new ones
        {"uuid", r.uuid},
        {"name", r.name},
        {"status", toString(r.status)},
        {"started_at", r.startedAt},
        {"finished_at", r.finishedAt},
        {"config", embedded(r.configJson)},
        {"seed", r.seed},
        {"dataset", r.dataset},
        {"model", r.model},
        {"position", r.position},
        {"app_version", r.appVersion},
        {"git_hash", r.gitHash},
        {"torch_version", r.torchVersion},
        {"device", r.device},
        {"host", r.host},
        {"parameters", r.parameters},
        {"steps", r.steps},
        {"seconds", r.seconds},
        {"best_dev_accuracy", r.bestDevAccuracy},
        {"best_step", r.bestStep},
        {"test_accuracy", r.testAccuracy},
        {"message", r.message},
        {"tags", r.tags},
        {"notes", r.notes},
        {"environment", embedded(r.environmentJson)},
        {"summary", embedded(r.summaryJson)},
        {"metrics", metrics},
        {"attention", attention},
        {"characteristics", characteristics},
        {"checkpoints", checkpoints},
        {"analyses", analyses},
    };
}

int wholeNumber(const json& value)
{
    int v = 0;
    JsonInteger::getTo(value, v);
    return v;
}

RunBundle runFromJson(const json& j)
{
    RunBundle b;
    RunRecord& r = b.record;
    auto get = [&](const char* key, auto& field) {
        if (auto it = j.find(key); it != j.end() && !it->is_null()) {
            try {
                JsonInteger::getTo(*it, field); // integers range-checked (a float such as 1e92 is not cast)
            } catch (const std::invalid_argument& e) {
                throw std::invalid_argument("'" + std::string(key) + "': " + e.what());
            }
        }
    };
    get("uuid", r.uuid);
    get("name", r.name);
    std::string status = "completed";
    get("status", status);
    r.status = runStatusFromString(status);
    get("started_at", r.startedAt);
    get("finished_at", r.finishedAt);
    r.configJson = unembedded(j.value("config", json()));
    get("seed", r.seed);
    get("dataset", r.dataset);
    get("model", r.model);
    get("position", r.position);
    get("app_version", r.appVersion);
    get("git_hash", r.gitHash);
    get("torch_version", r.torchVersion);
    get("device", r.device);
    get("host", r.host);
    get("parameters", r.parameters);
    get("steps", r.steps);
    get("seconds", r.seconds);
    get("best_dev_accuracy", r.bestDevAccuracy);
    get("best_step", r.bestStep);
    get("test_accuracy", r.testAccuracy);
    get("message", r.message);
    get("tags", r.tags);
    get("notes", r.notes);
    r.environmentJson = unembedded(j.value("environment", json()));
    r.summaryJson = unembedded(j.value("summary", json()));
    for (const auto& p : j.value("metrics", json::array()))
        b.metrics.push_back({wholeNumber(p.at(0)), p.at(1).get<std::string>(), p.at(2).get<std::string>(),
                             p.at(3).get<double>()});
    for (const auto& a : j.value("attention", json::array()))
        b.attentionJson.push_back(unembedded(a));
    for (const auto& c : j.value("characteristics", json::array()))
        b.characteristics.push_back({c.at("name").get<std::string>(), c.at("value").get<double>(),
                                     c.value("unit", std::string())});
    for (const auto& a : j.value("analyses", json::array()))
        b.analyses.push_back({a.at("kind").get<std::string>(), a.at("key").get<std::string>(),
                              unembedded(a.at("result")), a.value("created_at", std::string())});
    for (const auto& c : j.value("checkpoints", json::array()))
        b.checkpoints.push_back({wholeNumber(c.at("step")), c.at("path").get<std::string>(),
                                 c.value("sha256", std::string())});
    return b;
}

// Whole or not at all (AtomicFile): a failure never leaves half a file under the real name.
void writeWhole(const std::string& path, const std::string& content)
{
    try {
        AtomicFile::replace(path, content);
    } catch (const std::system_error& e) {
        throw std::runtime_error(std::string("export ") + e.what());
    }
}

// The shortest text that reads back as the same double.
std::string number(double value)
{
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

// RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled.
std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char ch : text) {
        if (ch == '"')
            quoted += '"';
        quoted += ch;
    }
    return quoted + '"';
}

// Removes a temporary copy of a database (and its WAL files) however the import ends.
class TemporaryDatabase {
public:
    TemporaryDatabase()
    {
        static std::atomic<int> counter{0};
        path_ = (std::filesystem::temp_directory_path() /
                 ("attnlab-import-" + std::to_string(ProcessInfo::currentId()) + "-" + std::to_string(counter++) + ".sqlite"))
                    .string();
        remove();
    }
    ~TemporaryDatabase() { remove(); }
    TemporaryDatabase(const TemporaryDatabase&) = delete;
    TemporaryDatabase& operator=(const TemporaryDatabase&) = delete;
    const std::string& path() const { return path_; }

private:
    void remove()
    {
        std::error_code ec;
        for (const char* suffix : {"", "-wal", "-shm", "-journal"})
            std::filesystem::remove(path_ + suffix, ec);
    }
    std::string path_;
};

// Copies a live database consistently (SQLite's backup API reads one snapshot, WAL included) without
// writing to it.
void copyDatabase(const std::string& from, const std::string& to)
{
    sqlite3* source = nullptr;
    sqlite3* target = nullptr;
    auto close = [&] {
        sqlite3_close(source);
        sqlite3_close(target);
    };
    if (sqlite3_open_v2(from.c_str(), &source, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK ||
        sqlite3_open_v2(to.c_str(), &target, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
        const std::string message = source ? sqlite3_errmsg(source) : "cannot open";
        close();
        throw std::runtime_error("import " + from + ": cannot open: " + message);
    }
    sqlite3_busy_timeout(source, RunStore::kDefaultBusyTimeoutMs);
    sqlite3_backup* backup = sqlite3_backup_init(target, "main", source, "main");
    int rc = backup ? sqlite3_backup_step(backup, -1) : sqlite3_errcode(target);
    if (backup)
        sqlite3_backup_finish(backup);
    if (rc != SQLITE_DONE) {
        std::string message = sqlite3_errstr(rc);
        if ((rc & 0xff) == SQLITE_NOTADB)
            message = "not an Attention Lab run database (" + message + ")";
        close();
        throw std::runtime_error("import " + from + ": " + message);
    }
    close();
}

// Adds one run of another store, counting it as added or as skipped (its uuid is here already). A run
// that was still running there is stored as interrupted: nothing will finish it here.
void importInto(RunStore& store, RunBundle bundle, RunExport::ImportResult& result)
{
    if (bundle.record.status == RunStatus::Running) {
        bundle.record.status = RunStatus::Interrupted;
        bundle.record.message = "imported while still running";
    }
    (store.importRun(bundle) ? result.added : result.skipped)++;
}

} // namespace

RunExport::RunExport(RunStore& store) : store_(store) {}

std::vector<std::int64_t> RunExport::idsOrAll(const std::vector<std::int64_t>& runIds) const
{
    if (!runIds.empty())
        return runIds;
    RunFilter oldestFirst;
    oldestFirst.descending = false;
    std::vector<std::int64_t> ids;
    for (const auto& r : store_.listRuns(oldestFirst))
        ids.push_back(r.id);
    return ids;
}

std::string RunExport::toJson(const std::vector<std::int64_t>& runIds) const
{
    json runs = json::array();
    for (auto id : idsOrAll(runIds))
        runs.push_back(runToJson(store_.bundle(id)));
    const json document = {{"format", kFormat},
                           {"format_version", kFormatVersion},
                           {"schema", RunStore::kSchemaVersion},
                           {"runs", runs}};
    // Compact: a run can have 100k metric points. Text that is not UTF-8 (a name or note written into the
    // database by another tool, a damaged file) becomes U+FFFD instead of making the whole export fail.
    return document.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void RunExport::exportJson(const std::string& path, const std::vector<std::int64_t>& runIds) const
{
    writeWhole(path, toJson(runIds) + "\n");
}

std::string RunExport::toCsv(const std::vector<std::int64_t>& runIds) const
{
    std::ostringstream out;
    out << "id,uuid,name,status,started_at,finished_at,dataset,model,position,seed,tags,notes,parameters,steps,"
           "seconds,best_dev_accuracy,best_step,test_accuracy,test_macro_f1,regression,best_dev_rmse,test_mae,"
           "test_rmse,test_mape,stopped_early,device,app_version,git_hash,torch_version,message\r\n";
    for (auto id : idsOrAll(runIds)) {
        const auto found = store_.run(id);
        if (!found)
            throw std::invalid_argument("export: no run " + std::to_string(id) + " in " + store_.path());
        const RunRecord& r = *found;
        std::string tags;
        for (const auto& t : r.tags)
            tags += (tags.empty() ? "" : ";") + t;
        const std::vector<std::string> fields = {
            std::to_string(r.id), r.uuid, r.name, toString(r.status), r.startedAt, r.finishedAt, r.dataset, r.model,
            r.position, std::to_string(r.seed), tags, r.notes, std::to_string(r.parameters), std::to_string(r.steps),
            number(r.seconds), number(r.bestDevAccuracy), std::to_string(r.bestStep), number(r.testAccuracy),
            number(r.testMacroF1), r.regression ? "true" : "false", number(r.bestDevRmse), number(r.testMae),
            number(r.testRmse), number(r.testMape), r.stoppedEarly ? "true" : "false", r.device, r.appVersion,
            r.gitHash, r.torchVersion, r.message};
        for (std::size_t i = 0; i < fields.size(); ++i)
            out << (i ? "," : "") << csvField(fields[i]);
        out << "\r\n";
    }
    return out.str();
}

void RunExport::exportCsv(const std::string& path, const std::vector<std::int64_t>& runIds) const
{
    writeWhole(path, toCsv(runIds));
}

RunExport::ImportResult RunExport::importFrom(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("import " + path + ": cannot read the file");
    char header[16] = {0};
    in.read(header, sizeof header);
    in.close();
    if (std::string(header, sizeof header) == std::string("SQLite format 3\0", 16))
        return importDatabase(path);
    return importJson(path);
}

RunExport::ImportResult RunExport::importDatabase(const std::string& path)
{
    // A copy, so the other store is only read: opening it as a RunStore would migrate it.
    TemporaryDatabase copy;
    copyDatabase(path, copy.path());
    std::unique_ptr<RunStore> source;
    try {
        source = std::make_unique<RunStore>(copy.path());
    } catch (const std::runtime_error& e) {
        std::string message = e.what();
        if (auto at = message.find(copy.path()); at != std::string::npos)
            message.replace(at, copy.path().size(), path);
        throw std::runtime_error("import " + message);
    }
    ImportResult result;
    RunFilter oldestFirst;
    oldestFirst.descending = false;
    for (const auto& r : source->listRuns(oldestFirst))
        importInto(store_, source->bundle(r.id), result);
    return result;
}

RunExport::ImportResult RunExport::importJson(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    json document;
    try {
        document = json::parse(text.str());
    } catch (const json::exception&) {
        throw std::runtime_error("import " + path +
                                 ": neither an Attention Lab run database nor an exported runs document (JSON)");
    }
    if (!document.is_object() || document.value("format", "") != kFormat || !document.contains("runs"))
        throw std::runtime_error("import " + path + ": not an exported Attention Lab runs document (no \"format\": \"" +
                                 kFormat + "\")");
    if (const auto& version = document.value("format_version", nlohmann::json(0));
        JsonInteger::of<int>(version).value_or(kFormatVersion + 1) > kFormatVersion)
        throw std::runtime_error("import " + path + ": written by a newer Attention Lab (format " + version.dump() + ")");
    // Read every run before adding any, so a malformed document adds nothing.
    std::vector<RunBundle> bundles;
    std::size_t index = 0;
    try {
        for (const auto& run : document.at("runs")) {
            bundles.push_back(runFromJson(run));
            if (bundles.back().record.uuid.empty())
                throw std::invalid_argument("no uuid");
            ++index;
        }
    } catch (const std::exception& e) {
        throw std::runtime_error("import " + path + ": run " + std::to_string(index + 1) + ": " + e.what());
    }
    ImportResult result;
    for (auto& b : bundles)
        importInto(store_, std::move(b), result);
    return result;
}

} // namespace attnlab
